import type { IncomingMessage } from 'node:http';

/** No Berlin Group body nests deeper than a handful of levels; 32 leaves ample room. */
export const MAX_JSON_DEPTH = 32;

/**
 * body-parser's `verify` hook: refuses a JSON body nested deeper than MAX_JSON_DEPTH before it is
 * parsed, as a 400 (the filter renders body-parser's client errors). Validation and transformation
 * recurse once per level, and a body of a few KB nested a thousand levels deep overflowed the stack.
 * One pass over the raw bytes, skipping strings, so nothing deep is ever built.
 */
export function refuseDeepJson(_request: IncomingMessage, _response: unknown, raw: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < raw.length; index += 1) {
    const byte = raw[index];
    if (inString) {
      if (byte === 0x5c)
        index += 1; // a backslash escapes the next byte
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      depth += 1;
      if (depth > MAX_JSON_DEPTH)
        throw Object.assign(new Error(`the body nests deeper than ${MAX_JSON_DEPTH} levels`), { status: 400, type: 'entity.too.deep' });
    } else if (byte === 0x7d || byte === 0x5d) depth -= 1;
  }
}
