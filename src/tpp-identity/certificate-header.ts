import type { Name as AsnName } from '@peculiar/asn1-x509';
import { Name } from '@peculiar/x509';
import { AnswerMemo } from '../common/answer-memo';

/**
 * What a certificate header may hold (docs/tpp-identity.md, "Certificates in headers"): exactly one
 * certificate, as bare base64 of its DER or as one PEM block. Anything more (two PEM blocks, DER
 * followed by PEM, trailing bytes) is null: the bytes verified must be the bytes whose roles are read.
 */
export function certificateDer(value: string): Buffer | null {
  const text = value.trim();
  const pem = /^-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----$/.exec(text);
  const base64 = (pem ? pem[1] : text).replace(/\s+/g, '');
  const der = Buffer.from(base64, 'base64');
  // Node's decoder skips what is not base64: the text must be the bytes' own base64, padding and all.
  return der.length > 0 && der.toString('base64') === base64 && derLength(der) === der.length ? der : null;
}

/** The length of the DER SEQUENCE that starts the bytes, header included; null where none starts them. */
function derLength(der: Buffer): number | null {
  if (der.length < 2 || der[0] !== 0x30) return null;
  if (der[1] < 0x80) return 2 + der[1];
  const octets = der[1] & 0x7f;
  if (octets === 0 || octets > 4 || der.length < 2 + octets) return null;
  return 2 + octets + der.subarray(2, 2 + octets).reduce((length, octet) => length * 256 + octet, 0);
}

/**
 * A distinguished name as one string of its attributes, each `TYPE=value` with its value's case and
 * spacing folded, in sorted order: two names are the same name, whatever their order, case or
 * spacing, where these are equal. Null where the text is no distinguished name.
 */
export function nameOf(name: string | AsnName): string | null {
  try {
    return new Name(name)
      .toJSON()
      .flatMap((rdn) =>
        Object.entries(rdn).flatMap(([type, values]) =>
          values.map((value) => `${type.toUpperCase()}=${value.trim().replace(/\s+/g, ' ').toLowerCase()}`),
        ),
      )
      .sort()
      .join('\n');
  } catch {
    return null; // not a distinguished name at all
  }
}

/** Whether the CA part of a keyId (`CA=<distinguished name>`) names the issuer, whose name (nameOf) is `issuer`: compared as names, not as strings. */
export function namesIssuer(distinguishedName: string, issuer: string): boolean {
  const known = keyIdNames.recall(namesIssuer, distinguishedName);
  const named = known !== undefined ? known : keyIdNames.keep(namesIssuer, distinguishedName, nameOf(distinguishedName));
  return !!named && named === issuer;
}

/**
 * The keyIds' CA parts read as names, by their text: a client writes its CA's the same way in every
 * request, and reading it as a name cost about 30 µs a signed request (docs/tpp-identity.md, "What a
 * check costs"). At most 1,000; then it starts again from none.
 */
const keyIdNames = new AnswerMemo<string | null>(1_000);
