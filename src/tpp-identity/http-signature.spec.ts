import { createHash } from 'node:crypto';
import { digestMatches, parseKeyId, parseSignature, sameSerial, signingString, uncoveredHeaders } from './http-signature';

describe('parseSignature', () => {
  it.each([
    [
      'keyId="SN=5C3A,CA=CN=PSD2 Sandbox Test CA, O=PSD2 Sandbox",algorithm="rsa-sha256",headers="digest x-request-id",signature="c2ln"',
      {
        keyId: 'SN=5C3A,CA=CN=PSD2 Sandbox Test CA, O=PSD2 Sandbox',
        algorithm: 'rsa-sha256',
        headers: ['digest', 'x-request-id'],
        signature: 'c2ln',
      },
    ],
    [
      'signature="c2ln", headers="Digest X-Request-ID  PSU-ID", algorithm="rsa-sha256", keyId="SN=1,CA=x"',
      { keyId: 'SN=1,CA=x', algorithm: 'rsa-sha256', headers: ['digest', 'x-request-id', 'psu-id'], signature: 'c2ln' },
    ],
  ])('%s', (header, parsed) => {
    expect(parseSignature(header)).toEqual(parsed);
  });

  it.each([
    ['', 'empty'],
    ['keyId="SN=1,CA=x",algorithm="rsa-sha256",headers="digest"', 'no signature'],
    ['keyId="SN=1,CA=x",algorithm="rsa-sha256",headers="digest",signature=c2ln', 'an unquoted value'],
    ['keyId="SN=1,CA=x" algorithm="rsa-sha256",headers="digest",signature="c2ln"', 'no comma'],
    ['garbage', 'no parameters'],
  ])('%j is refused: %s', (header) => {
    expect(parseSignature(header)).toBeNull();
  });
});

describe('keyId and serial numbers', () => {
  it('splits SN and CA, the CA with its own commas', () => {
    expect(parseKeyId('SN=00AB12,CA=CN=PSD2 Sandbox Test CA, O=PSD2 Sandbox')).toEqual({
      serialNumber: '00AB12',
      issuer: 'CN=PSD2 Sandbox Test CA, O=PSD2 Sandbox',
    });
    expect(parseKeyId('SN=9FA1,CA=CN=D-TRUST%20CA%202-1%202015,O=D-Trust%20GmbH,C=DE')).toEqual({
      serialNumber: '9FA1',
      issuer: 'CN=D-TRUST CA 2-1 2015,O=D-Trust GmbH,C=DE',
    });
    expect(parseKeyId('SN=9FA1,CA=CN=D-TRUST%2')).toBeNull();
    expect(parseKeyId('CA=x,SN=12')).toBeNull();
    expect(parseKeyId('SN=XYZ,CA=x')).toBeNull();
  });

  it.each([
    ['ab12', 'AB12', true],
    ['00ab12', 'ab12', true],
    ['ab12', 'ab13', false],
    ['0', '00', true],
  ])('%s and %s are the same serial: %s', (a, b, same) => {
    expect(sameSerial(a, b)).toBe(same);
  });
});

describe('the headers a signature covers', () => {
  it.each([
    [['digest', 'x-request-id'], [], []],
    [['x-request-id'], [], ['digest']],
    [['digest', 'x-request-id'], ['psu-id'], ['psu-id']],
    [['digest', 'x-request-id', 'psu-id', 'tpp-redirect-uri', 'date'], ['psu-id', 'tpp-redirect-uri'], []],
    [
      ['digest', 'x-request-id'],
      ['psu-corporate-id', 'date', 'tpp-notification-uri', 'tpp-redirect-preferred'],
      ['psu-corporate-id', 'date', 'tpp-notification-uri'],
    ],
  ])('covering %j with %j sent misses %j', (covered, sent, missing) => {
    expect(uncoveredHeaders(covered, (name) => sent.includes(name))).toEqual(missing);
  });
});

describe('signingString', () => {
  const headers: Record<string, string> = {
    digest: 'SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
    'x-request-id': '99391c7e-ad88-49ec-a2ad-99ddcb1f7721',
    'psu-id': 'PSU-1234',
  };
  it("a line per covered header, in the signature's order, (request-target) with the lower-case method", () => {
    expect(
      signingString(['(request-target)', 'digest', 'x-request-id', 'psu-id'], (name) => headers[name], {
        method: 'POST',
        path: '/v1/consents',
      }),
    ).toBe(
      '(request-target): post /v1/consents\ndigest: SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\nx-request-id: 99391c7e-ad88-49ec-a2ad-99ddcb1f7721\npsu-id: PSU-1234',
    );
  });

  it('a covered header the request lacks: nothing to verify', () => {
    expect(signingString(['digest', 'date'], (name) => headers[name], { method: 'GET', path: '/' })).toBeNull();
  });
});

describe('digestMatches', () => {
  const body = Buffer.from('{"a":1}');
  const sha256 = createHash('sha256').update(body).digest('base64');
  const sha512 = createHash('sha512').update(body).digest('base64');
  it.each([
    [`SHA-256=${sha256}`, body, true],
    [`sha-256=${sha256}`, body, true],
    [`SHA-512=${sha512}`, body, true],
    [`MD5=abc, SHA-256=${sha256}`, body, true],
    [`SHA-256=${sha256}`, Buffer.from('{"a":2}'), false],
    ['SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=', Buffer.alloc(0), true],
    ['SHA-1=abc', body, false],
    ['nonsense', body, false],
  ])('%s: %s', (header, content, matches) => {
    expect(digestMatches(header, content)).toBe(matches);
  });
});
