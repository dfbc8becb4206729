import type { Name as AsnName } from '@peculiar/asn1-x509';
import { Name } from '@peculiar/x509';

/**
 * What a certificate header may hold (docs/tpp-identity.md, "Certificates in headers"): exactly one
 * certificate, as bare base64 of its DER or as one PEM block. Anything more (two PEM blocks, DER
 * followed by PEM, trailing bytes) is null: the bytes verified must be the bytes whose roles are read.
 */
export function certificateDer(value: string): Buffer | null {
  const text = value.trim();
  const pem = /^-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----$/.exec(text);
  const base64 = (pem ? pem[1] : text).replace(/\s+/g, '');
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(base64) || base64.length === 0) return null;
  const der = Buffer.from(base64, 'base64');
  return derLength(der) === der.length ? der : null;
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
 * Whether the CA part of a keyId (`CA=<distinguished name>`) names `issuer`: compared as names,
 * attribute by attribute, whatever their order, case or spacing, not as strings.
 */
export function namesIssuer(distinguishedName: string, issuer: AsnName): boolean {
  const attributes = (name: Name) =>
    name
      .toJSON()
      .flatMap((rdn) =>
        Object.entries(rdn).flatMap(([type, values]) =>
          values.map((value) => `${type.toUpperCase()}=${value.trim().replace(/\s+/g, ' ').toLowerCase()}`),
        ),
      )
      .sort();
  try {
    const named = attributes(new Name(distinguishedName));
    const actual = attributes(new Name(issuer));
    return named.length > 0 && named.join('\n') === actual.join('\n');
  } catch {
    return false; // not a distinguished name at all
  }
}
