import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types';

/** Signed requests as a TPP makes them (docs/tpp-identity.md): a certificate the sandbox issues, and openssl's signature. */

export interface Issued {
  serialNumber: string;
  /** The subject's organizationIdentifier, as POST /sandbox/certificates answers it. */
  organisationIdentifier?: string;
  certificate: string;
  privateKey: string;
  keyFile: string;
}

/** A certificate the sandbox issues (POST /sandbox/certificates), its key written into `folder` for openssl. */
export async function issuedCertificate(http: App, folder: string, body: object, token?: string): Promise<Issued> {
  const call = request(http).post('/sandbox/certificates');
  const response = await (token ? call.set('Authorization', `Bearer ${token}`) : call).send(body).expect(201);
  const keyFile = join(folder, `${response.body.serialNumber}.key`);
  writeFileSync(keyFile, response.body.privateKey);
  return { ...response.body, keyFile };
}

/** What a signature must cover when the request has it (docs/tpp-identity.md, "A signature binds its request"). */
const COVERED_WHEN_SENT = [
  'psu-id',
  'psu-corporate-id',
  'tpp-redirect-uri',
  'date',
  'tpp-nok-redirect-uri',
  'tpp-notification-uri',
  'tpp-notification-content-preferred',
];

export const base64Der = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');

export interface Signing {
  /** The headers the signature covers, in order; default digest and x-request-id, and those of COVERED_WHEN_SENT the request has. */
  covered?: string[];
  /** Changes after signing, to break one thing at a time. */
  keyId?: string;
  digest?: string | null;
  certificate?: string | null;
  signatureOf?: (signingString: string) => string;
}

/** The headers of a request signed with `signer`'s key by openssl: Digest, Signature, TPP-Signature-Certificate. */
export function signedHeaders(
  signer: Issued,
  body: string,
  headers: Record<string, string>,
  signing: Signing = {},
): Record<string, string> {
  const digest = `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
  const all: Record<string, string> = { ...headers, Digest: digest };
  const lower = Object.fromEntries(Object.entries(all).map(([name, value]) => [name.toLowerCase(), value]));
  const covered = signing.covered ?? ['digest', 'x-request-id', ...COVERED_WHEN_SENT.filter((name) => name in lower)];
  const signingString = covered.map((name) => `${name}: ${lower[name]}`).join('\n');
  const signature =
    signing.signatureOf?.(signingString) ??
    execFileSync('openssl', ['dgst', '-sha256', '-sign', signer.keyFile], { input: signingString }).toString('base64');
  const keyId = signing.keyId ?? `SN=${signer.serialNumber.toUpperCase()},CA=CN=PSD2 Sandbox Test CA,O=PSD2 Sandbox`;
  const result: Record<string, string> = {
    ...all,
    Signature: `keyId="${keyId}",algorithm="rsa-sha256",headers="${covered.join(' ')}",signature="${signature}"`,
    'TPP-Signature-Certificate': base64Der(signer.certificate),
  };
  if (signing.digest === null) delete result.Digest;
  else if (signing.digest !== undefined) result.Digest = signing.digest;
  if (signing.certificate === null) delete result['TPP-Signature-Certificate'];
  else if (signing.certificate !== undefined) result['TPP-Signature-Certificate'] = signing.certificate;
  return result;
}
