import type { IncomingMessage } from 'node:http';
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { refusal } from '../common/error-catalogue';

/**
 * XML in and out (docs/formats.md): a pain.001 a TPP sends is read here, and the pain.002, pain.001,
 * camt and MT94x answers are written with the same library. Reading refuses what a parser of a
 * client's XML must never take (docs/security.md, "XML"): a DTD (so no entity is ever defined,
 * expanded or fetched), nesting deeper than MAX_XML_DEPTH, more than MAX_XML_ELEMENTS elements;
 * the body parser already bounds the size (100 KiB).
 */
export const MAX_XML_DEPTH = 32;
export const MAX_XML_ELEMENTS = 10_000;

/** The media types an XML body is sent as. */
export const XML_MEDIA_TYPES = ['application/xml', 'text/xml'];

const unsafe = (message: string) => Object.assign(new Error(message), { status: 400, type: 'entity.xml.unsafe' });

/**
 * body-parser's `verify` hook for an XML body: one pass over the bytes before anything is parsed,
 * refusing a DTD, and counting elements and their depth (comments, CDATA and quoted attribute
 * values skipped), so that nothing deep or large is ever built.
 */
export function refuseUnsafeXml(_request: IncomingMessage, _response: unknown, raw: Buffer): void {
  const text = raw.toString('utf8');
  let depth = 0;
  let elements = 0;
  let at = text.indexOf('<');
  while (at !== -1) {
    const next = text[at + 1];
    if (text.startsWith('<!--', at)) at = after(text, '-->', at);
    else if (text.startsWith('<![CDATA[', at)) at = after(text, ']]>', at);
    else if (next === '!') throw unsafe('the body holds a DTD (<!DOCTYPE or <!ENTITY), which the sandbox does not read');
    else if (next === '?') at = after(text, '?>', at);
    else if (next === '/') {
      depth -= 1;
      at = after(text, '>', at);
    } else {
      elements += 1;
      depth += 1;
      if (depth > MAX_XML_DEPTH) throw unsafe(`the body nests deeper than ${MAX_XML_DEPTH} levels`);
      if (elements > MAX_XML_ELEMENTS) throw unsafe(`the body holds more than ${MAX_XML_ELEMENTS} elements`);
      const end = endOfTag(text, at);
      if (text[end - 1] === '/') depth -= 1;
      at = end + 1;
    }
    at = text.indexOf('<', at);
  }
}

/** The index just past `marker` from `from`, or the end where it never comes (the parse then names the fault). */
function after(text: string, marker: string, from: number): number {
  const found = text.indexOf(marker, from);
  return found === -1 ? text.length : found + marker.length;
}

/** The index of the `>` closing the start tag at `from`, past quoted attribute values. */
function endOfTag(text: string, from: number): number {
  let quote: string | null = null;
  for (let index = from + 1; index < text.length; index += 1) {
    const char = text[index];
    if (quote !== null) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '>') return index;
  }
  return text.length;
}

/** Element paths (dotted, from the root's child) whose element may repeat: each reads as a list. */
export type RepeatingElements = ReadonlySet<string>;

/**
 * A well-formed document read into plain objects: elements by name (namespace prefixes dropped),
 * attributes as `@name`, an element with attributes holding its text as `#text`; every value a
 * string, trimmed. 400 FORMAT_ERROR naming line and column where it is not well-formed.
 */
export function readXml(text: string, repeating: RepeatingElements): Record<string, unknown> {
  const verdict = XMLValidator.validate(text);
  if (verdict !== true) {
    const { msg, line, col } = verdict.err;
    throw refusal('malformedRequest', `malformed XML at line ${line}, column ${col}: ${msg}`);
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    // Only XML's own entities and character references: a DTD never got this far.
    processEntities: true,
    htmlEntities: true,
    isArray: (_name, path) => repeating.has(path as string),
  });
  try {
    return parser.parse(text) as Record<string, unknown>;
  } catch (error) {
    // What the validator let through and the parser does not (a broken XML declaration, found by the fuzz suite).
    throw refusal('malformedRequest', `malformed XML: ${(error as Error).message}`);
  }
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', format: true, suppressEmptyNode: true });

/** An ISO 20022 document: `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:<message>">` around `content`. */
export function iso20022Document(message: string, content: Record<string, unknown>): string {
  return builder.build({
    '?xml': { '@version': '1.0', '@encoding': 'UTF-8' },
    Document: { '@xmlns': `urn:iso:std:iso:20022:tech:xsd:${message}`, ...content },
  }) as string;
}
