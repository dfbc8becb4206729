import 'reflect-metadata'; // @peculiar/x509 needs it loaded, as Nest loads it in the app
import { AsnConvert } from '@peculiar/asn1-schema';
import { Name as AsnName } from '@peculiar/asn1-x509';
import { Name } from '@peculiar/x509';
import { certificateDer, nameOf, namesIssuer } from './certificate-header';

/** A DER SEQUENCE of `length` content bytes: what certificateDer takes for one certificate. */
const sequence = (length: number): Buffer => {
  const header = length < 0x80 ? [0x30, length] : [0x30, 0x82, length >> 8, length & 0xff];
  return Buffer.concat([Buffer.from(header), Buffer.alloc(length, 7)]);
};
const pem = (der: Buffer) =>
  `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;

describe('certificateDer: exactly one certificate in a header (docs/security.md, row 2)', () => {
  const one = sequence(300);
  it.each([
    ['bare base64 DER', one.toString('base64'), one],
    ['one PEM block', pem(one), one],
    ['one PEM block on one line, as a header carries it', pem(one).replace(/\n/g, ' '), one],
    ['a short sequence', sequence(5).toString('base64'), sequence(5)],
    ['two PEM blocks', pem(one) + pem(one), null],
    ['DER followed by a PEM block', Buffer.concat([one, Buffer.from(pem(one))]).toString('base64'), null],
    ['DER followed by one byte', Buffer.concat([one, Buffer.from([0])]).toString('base64'), null],
    ['DER cut short', one.subarray(0, 200).toString('base64'), null],
    ['text around a PEM block', `x${pem(one)}`, null],
    ['no sequence', Buffer.from('hello world').toString('base64'), null],
    ['not base64', 'not a certificate!', null],
    ['base64 without its padding', one.toString('base64').replace(/=+$/, ''), null],
    ['base64 with a character it does not have inside', `${one.toString('base64').slice(0, 8)}!${one.toString('base64').slice(8)}`, null],
    ['nothing', '', null],
  ])('%s', (_, value, expected) => {
    expect(certificateDer(value)).toEqual(expected);
  });
});

describe("namesIssuer: keyId's CA names the issuer, compared as names (row 8)", () => {
  const issuer = nameOf(AsnConvert.parse(new Name('CN=PSD2 Sandbox Test CA, O=PSD2 Sandbox').toArrayBuffer(), AsnName))!;
  it.each([
    ['the same name', 'CN=PSD2 Sandbox Test CA,O=PSD2 Sandbox', true],
    ['in the other order, with spaces', 'O=PSD2 Sandbox, CN=PSD2 Sandbox Test CA', true],
    ['values in another case and spacing', 'CN=psd2  sandbox test ca,O=PSD2 SANDBOX', true],
    ['another CA', 'CN=Evil CA', false],
    ['a part of the name', 'CN=PSD2 Sandbox Test CA', false],
    ['the name and more', 'CN=PSD2 Sandbox Test CA,O=PSD2 Sandbox,C=AT', false],
    ['no name at all', 'garbage', false],
    ['an attribute no parser knows', 'XX=1', false],
  ])('%s', (_, keyIdCa, expected) => {
    expect(namesIssuer(keyIdCa, issuer)).toBe(expected);
  });
});
