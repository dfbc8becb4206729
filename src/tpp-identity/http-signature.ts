import { createHash } from 'node:crypto';

/**
 * The rules of a signed request (Berlin Group implementation guidelines, after the HTTP signatures
 * draft; docs/tpp-identity.md), as pure functions: what the Signature header says, what it must
 * cover, the string that was signed, and whether the Digest is the body's.
 */

export interface SignatureParameters {
  keyId: string;
  algorithm: string;
  /** The covered headers, lower case, in the order signed. */
  headers: string[];
  /** Base64. */
  signature: string;
}

/**
 * The headers every signature covers, and those it covers whenever the request has them: Berlin
 * Group's list (PSU-ID, PSU-Corporate-ID, TPP-Redirect-URI, Date), and the other headers whose
 * value the sandbox stores and later sends the holder or the TPP to (docs/tpp-identity.md).
 */
const ALWAYS_COVERED = ['digest', 'x-request-id'];
const COVERED_WHEN_SENT = [
  'psu-id',
  'psu-corporate-id',
  'tpp-redirect-uri',
  'date',
  'tpp-nok-redirect-uri',
  'tpp-notification-uri',
  'tpp-notification-content-preferred',
];
const DIGESTS: Record<string, string> = { 'SHA-256': 'sha256', 'SHA-512': 'sha512' };

/** `keyId="…",algorithm="…",headers="…",signature="…"` (any order, spaces after commas allowed); null when malformed or a parameter is missing. */
export function parseSignature(value: string): SignatureParameters | null {
  const parameters = new Map<string, string>();
  const pattern = /\s*([A-Za-z]+)="([^"]*)"\s*(,|$)/y;
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < value.length && (match = pattern.exec(value)) !== null) parameters.set(match[1], match[2]);
  if (pattern.lastIndex !== value.length && value.length > 0) return null;
  const [keyId, algorithm, headers, signature] = ['keyId', 'algorithm', 'headers', 'signature'].map((name) => parameters.get(name));
  if (!keyId || !algorithm || !headers || !signature) return null;
  return { keyId, algorithm, headers: headers.trim().toLowerCase().split(/\s+/), signature };
}

/**
 * `SN=<serial in hex>,CA=<issuer>`: the serial and the issuer, or null. The issuer may be
 * percent-encoded, as the Berlin Group yaml's own example writes it (`CA=CN=D-TRUST%20CA%202-1%202015,…`):
 * it is decoded; a malformed escape makes the keyId malformed (docs/tpp-identity.md).
 */
export function parseKeyId(keyId: string): { serialNumber: string; issuer: string } | null {
  const match = /^SN=([0-9A-Fa-f]+),CA=(.+)$/.exec(keyId.trim());
  if (!match) return null;
  try {
    return { serialNumber: match[1], issuer: decodeURIComponent(match[2]) };
  } catch {
    return null;
  }
}

/** A serial number as the sandbox keeps it: lower-case hex without leading zeros, whatever case or padding it came in. */
export const serialKey = (serial: string): string => serial.toLowerCase().replace(/^0+/, '');

/** Serial numbers compared without regard to case or leading zeros. */
export const sameSerial = (a: string, b: string): boolean => serialKey(a) === serialKey(b);

/** The headers the signature should cover and does not: digest and x-request-id always, the others of COVERED_WHEN_SENT when sent. */
export function uncoveredHeaders(covered: string[], sent: (name: string) => boolean): string[] {
  return [...ALWAYS_COVERED, ...COVERED_WHEN_SENT.filter(sent)].filter((name) => !covered.includes(name));
}

/** The signed string: a line `name: value` per covered header in the signature's order; `(request-target)` is `method path`, lower-case method. */
export function signingString(
  covered: string[],
  header: (name: string) => string | undefined,
  requestTarget: { method: string; path: string },
): string | null {
  const lines = covered.map((name) => {
    if (name === '(request-target)') return `${name}: ${requestTarget.method.toLowerCase()} ${requestTarget.path}`;
    const value = header(name);
    return value === undefined ? null : `${name}: ${value}`;
  });
  return lines.includes(null) ? null : lines.join('\n');
}

/** Whether a Digest header (`SHA-256=<base64>` or `SHA-512=…`, one of a comma-separated list) is the hash of the body; the empty body when there is none. */
export function digestMatches(header: string, body: Buffer): boolean {
  return header.split(',').some((entry) => {
    const match = /^\s*(SHA-256|SHA-512)=([A-Za-z0-9+/=]+)\s*$/i.exec(entry);
    return match !== null && createHash(DIGESTS[match[1].toUpperCase()]).update(body).digest('base64') === match[2];
  });
}
