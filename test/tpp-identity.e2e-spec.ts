import { createHash, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types';
import { MutualTlsListener } from '../src/tpp-identity/mutual-tls-listener';
import { createAuthority, issueCertificate, newSerial } from '../src/tpp-identity/certificate-issuer';
import { GEORG, MARIANNE, sepaPayment, VALID_CONSENT } from './support/fixtures';
import { CREATED, PROFILE } from './support/profile';
import { databaseSettings } from './support/engine';
import { issueToken, startSandbox, tppError, tppHeaders, useSandbox } from './support/sandbox';
import { base64Der, type Issued, issuedCertificate, type Signing, signedHeaders } from './support/signing';

jest.setTimeout(60_000);

const folder = mkdtempSync(join(tmpdir(), 'psd2-identity-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A profile folder extending the run's profile with these tpp keys. */
function profileWith(name: string, tpp: string): string {
  const path = join(folder, name);
  execFileSync('mkdir', ['-p', path]);
  writeFileSync(join(path, 'profile.yaml'), `extends: ${PROFILE}\ntpp:\n${tpp}`);
  return path;
}

const issue = (http: App, body: object, token?: string): Promise<Issued> => issuedCertificate(http, folder, body, token);

/** A certificate of a CA that is not the sandbox's, made by openssl. */
function foreignCertificate(): Issued {
  const keyFile = join(folder, 'foreign.key');
  const certificate = execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-subj', '/CN=Another CA/O=Elsewhere', '-days', '3650'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  ).toString();
  return { serialNumber: 'foreign', certificate, privateKey: '', keyFile };
}

const refusal = (code: string, id: string, description: string, path: string | null = null) =>
  tppError(code, `{sensitive} ${id}: ${description}`, path);

describe('signed requests (tpp.signatures: required)', () => {
  const sandbox = useSandbox({ PROFILE: profileWith('required', '  signatures: required\n'), SCA_MODE: 'redirect' });
  let both: Issued;
  let aisOnly: Issued;
  let pisOnly: Issued;
  beforeAll(async () => {
    both = await issue(sandbox.http, {
      type: 'QSEAL',
      organisationName: 'Both Roles TPP',
      roles: ['PSP_AI', 'PSP_PI'],
      organisationIdentifier: 'PSDAT-FMA-12345',
    });
    aisOnly = await issue(sandbox.http, { type: 'QSEAL', organisationName: 'AIS TPP', roles: ['PSP_AI'] });
    pisOnly = await issue(sandbox.http, { type: 'QSEAL', organisationName: 'PIS TPP', roles: ['PSP_PI'], validDays: 30 });
  });

  /** A request of `method` to `path`, signed by `signer` (as changed by `signing`). */
  const send = (
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    signer: Issued,
    body?: object,
    extra: Record<string, string> = {},
    signing: Signing = {},
  ) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    const headers = signedHeaders(signer, text, tppHeaders(extra), signing);
    const call = request(sandbox.http)[method](path).set(headers);
    return body === undefined ? call : call.set('Content-Type', 'application/json').send(text);
  };

  it('issues a QSealC: the sandbox CA signs it, with the organisation and the PSD2 roles inside, valid from the sandbox today', async () => {
    const ca = (await request(sandbox.http).get('/sandbox/certificates/ca').expect(200)).body.certificate;
    const caFile = join(folder, 'ca.pem');
    const certificateFile = join(folder, 'both.pem');
    writeFileSync(caFile, ca);
    writeFileSync(certificateFile, both.certificate);
    expect(execFileSync('openssl', ['verify', '-CAfile', caFile, certificateFile]).toString()).toBe(`${certificateFile}: OK\n`);
    const text = execFileSync('openssl', [
      'x509',
      '-in',
      certificateFile,
      '-noout',
      '-subject',
      '-startdate',
      '-enddate',
      '-serial',
    ]).toString();
    expect(text).toContain('CN = Both Roles TPP, O = Both Roles TPP, organizationIdentifier = PSDAT-FMA-12345');
    expect(text).toContain('notBefore=Mar 15 00:00:00 2026 GMT');
    expect(text).toContain('notAfter=Mar 15 00:00:00 2027 GMT');
    expect(text).toContain(`serial=${both.serialNumber.toUpperCase()}`);
    expect(execFileSync('openssl', ['pkey', '-in', both.keyFile, '-noout', '-text']).toString()).toContain('Private-Key: (2048 bit');
    // The PSD2 statement: roles by object identifier and name (ETSI TS 119 495), in the qcStatements.
    const der = execFileSync('openssl', ['x509', '-in', certificateFile, '-outform', 'DER']);
    const lines = execFileSync('openssl', ['asn1parse', '-inform', 'DER'], { input: der }).toString().split('\n');
    const value = lines.slice(lines.findIndex((line) => line.includes(':qcStatements'))).find((line) => line.includes('OCTET STRING'))!;
    const dump = execFileSync('openssl', ['asn1parse', '-inform', 'DER', '-strparse', value.split(':')[0].trim()], {
      input: der,
    }).toString();
    expect(dump).toContain('0.4.0.19495.2');
    expect(dump).toContain('0.4.0.19495.1.3');
    expect(dump).toContain('0.4.0.19495.1.2');
    expect(dump).toContain(':PSP_AI');
  });

  it('accepts a correctly signed GET, POST, PUT and DELETE, and the history names the certificate', async () => {
    await send('get', '/v1/accounts?withBalance=true', both, undefined, { 'Consent-ID': VALID_CONSENT }).expect(200);
    const consent = {
      access: { availableAccounts: 'allAccounts' },
      recurringIndicator: true,
      combinedServiceIndicator: false,
      validUntil: '2026-06-30',
      frequencyPerDay: 4,
    };
    const created = await send('post', '/v1/consents', both, consent, {
      'PSU-ID': 'georg.mustermann',
      'TPP-Redirect-URI': 'https://tpp.example/back',
    }).expect(CREATED);
    const { consentId } = created.body;
    const payment = await send(
      'post',
      '/v1/payments/sepa-credit-transfers',
      both,
      sepaPayment('1.00', { creditorName: 'Goerg Mustermann' }),
      { 'PSU-IP-Address': '192.0.2.10', 'Client-VOP-Requested': 'true' },
    ).expect(CREATED);
    await send('put', `/v1/payments/sepa-credit-transfers/${payment.body.paymentId}/creditor-confirmation`, both).expect(200);
    await send('delete', `/v1/consents/${consentId}`, both).expect(204);
    const events = (await request(sandbox.http).get(`/sandbox/events?resourceId=${consentId}&kind=consent`).expect(200)).body.events as {
      event: string;
      certificate?: string;
    }[];
    expect(events.map(({ event, certificate }) => [event, certificate])).toEqual([
      ['TERMINATE', both.serialNumber],
      ['CREATED', both.serialNumber],
    ]);
    // The cockpit's request log names it too.
    expect((await request(sandbox.http).get('/cockpit/requests').expect(200)).text).toContain(`<td>${both.serialNumber}</td>`);
  });

  it('a request without Signature: 401 SIGNATURE_MISSING', async () => {
    const response = await request(sandbox.http)
      .get('/v1/accounts')
      .set(tppHeaders({ 'Consent-ID': VALID_CONSENT }))
      .expect(401);
    expect(response.body).toEqualBody(
      refusal(
        'SIGNATURE_MISSING',
        'XS2A043E',
        'every request to this bank is signed (Signature, Digest, TPP-Signature-Certificate)',
        'Signature',
      ),
    );
  });

  it.each<[string, Signing, object]>([
    [
      'no certificate',
      { certificate: null },
      refusal(
        'CERTIFICATE_MISSING',
        'XS2A046E',
        'a signed request carries its certificate in TPP-Signature-Certificate',
        'TPP-Signature-Certificate',
      ),
    ],
    [
      'a certificate that is not one',
      { certificate: 'bm90IGEgY2VydGlmaWNhdGU=' },
      refusal('CERTIFICATE_INVALID', 'XS2A047E', 'the header holds no single X.509 certificate (base64 DER, or one PEM block)'),
    ],
    [
      'no Digest',
      { digest: null },
      refusal(
        'SIGNATURE_INVALID',
        'XS2A045E',
        'Digest must be SHA-256=<base64> or SHA-512=<base64> of the exact body (of nothing, when there is none)',
        'Digest',
      ),
    ],
    [
      'a Digest of another body',
      { digest: `SHA-256=${createHash('sha256').update('{}').digest('base64')}` },
      refusal(
        'SIGNATURE_INVALID',
        'XS2A045E',
        'Digest must be SHA-256=<base64> or SHA-512=<base64> of the exact body (of nothing, when there is none)',
        'Digest',
      ),
    ],
    [
      'a signature that leaves out x-request-id',
      { covered: ['digest', 'psu-id'] },
      refusal('SIGNATURE_INVALID', 'XS2A044E', 'the signature must cover x-request-id', 'Signature'),
    ],
    [
      'a signature that leaves out the PSU-ID sent',
      { covered: ['digest', 'x-request-id'] },
      refusal('SIGNATURE_INVALID', 'XS2A044E', 'the signature must cover psu-id', 'Signature'),
    ],
    [
      'a keyId of another certificate',
      { keyId: 'SN=1234,CA=CN=PSD2 Sandbox Test CA' },
      refusal(
        'SIGNATURE_INVALID',
        'XS2A044E',
        'keyId SN=1234,CA=CN=PSD2 Sandbox Test CA does not name the certificate sent (SN=@)',
        'Signature',
      ),
    ],
    [
      'a signature of another string',
      {
        signatureOf: (text) =>
          execFileSync('openssl', ['dgst', '-sha256', '-sign', join(folder, 'sign.key')], { input: `${text}x` }).toString('base64'),
      },
      refusal('SIGNATURE_INVALID', 'XS2A044E', 'the signature does not verify with the certificate over the covered headers', 'Signature'),
    ],
  ])('%s: 401 and nothing stored', async (_, signing, body) => {
    writeFileSync(join(folder, 'sign.key'), both.privateKey);
    const consents = await sandbox.dataSource.query('SELECT COUNT(*) AS n FROM consents');
    const consent = {
      access: { availableAccounts: 'allAccounts' },
      recurringIndicator: true,
      combinedServiceIndicator: false,
      validUntil: '2026-06-30',
      frequencyPerDay: 4,
    };
    const response = await send('post', '/v1/consents', both, consent, { 'PSU-ID': 'georg.mustermann' }, signing).expect(401);
    expect(response.body).toEqualBody(JSON.parse(JSON.stringify(body).replace('SN=@', `SN=${both.serialNumber}`)));
    expect(await sandbox.dataSource.query('SELECT COUNT(*) AS n FROM consents')).toEqual(consents);
  });

  describe('a signature binds its request (docs/tpp-identity.md)', () => {
    const consent = {
      access: { availableAccounts: 'allAccounts' },
      recurringIndicator: true,
      combinedServiceIndicator: false,
      validUntil: '2026-06-30',
      frequencyPerDay: 4,
    };
    const spent = (requestId: string) =>
      refusal(
        'SIGNATURE_INVALID',
        'XS2A044E',
        `X-Request-ID ${requestId} was signed for an earlier request with this certificate: a signature is good for one request`,
        'Signature',
      );
    const count = async () => (await sandbox.dataSource.query('SELECT COUNT(*) AS n FROM consents'))[0].n;
    const created = async () => (await send('post', '/v1/consents', both, consent).expect(CREATED)).body.consentId as string;

    it("a signed GET's headers sent again as a DELETE of the same consent: refused, the consent stays", async () => {
      const consentId = await created();
      const headers = signedHeaders(both, '', tppHeaders());
      await request(sandbox.http).get(`/v1/consents/${consentId}/status`).set(headers).expect(200);
      const replayed = await request(sandbox.http).delete(`/v1/consents/${consentId}`).set(headers).expect(401);
      expect(replayed.body).toEqualBody(spent(headers['X-Request-ID']));
      expect((await send('get', `/v1/consents/${consentId}/status`, both).expect(200)).body).toEqual({ consentStatus: 'received' });
      // Another certificate's X-Request-IDs are its own: the same ID signed by another is a new request.
      await request(sandbox.http)
        .get(`/v1/consents/${consentId}/status`)
        .set(signedHeaders(aisOnly, '', tppHeaders({ 'X-Request-ID': headers['X-Request-ID'] })))
        .expect(200);
    });

    it('the same signed POST twice, one after the other and at once: one consent each time', async () => {
      const text = JSON.stringify(consent);
      const headers = signedHeaders(both, text, tppHeaders({ 'Content-Type': 'application/json' }));
      const before = Number(await count());
      await request(sandbox.http).post('/v1/consents').set(headers).send(text).expect(CREATED);
      expect((await request(sandbox.http).post('/v1/consents').set(headers).send(text).expect(401)).body).toEqualBody(
        spent(headers['X-Request-ID']),
      );
      const twice = signedHeaders(both, text, tppHeaders({ 'Content-Type': 'application/json' }));
      const statuses = await Promise.all(
        [1, 2].map(async () => (await request(sandbox.http).post('/v1/consents').set(twice).send(text)).status),
      );
      expect(statuses.sort()).toEqual([CREATED, 401]);
      expect(Number(await count())).toBe(before + 2);
    });

    it('the same signed GET twice at once: one answered, the other refused as spent (a GET spends alone, before its answer)', async () => {
      const consentId = await created();
      const headers = signedHeaders(both, '', tppHeaders());
      const answers = await Promise.all([1, 2].map(() => request(sandbox.http).get(`/v1/consents/${consentId}/status`).set(headers)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
      expect(answers.find((answer) => answer.status === 200)!.body).toEqualBody({ consentStatus: 'received' });
      expect(answers.find((answer) => answer.status === 401)!.body).toEqualBody(spent(headers['X-Request-ID']));
    });

    it('signed GETs at once, each its own X-Request-ID twice among them: the spends of a moment go together, each ID answered once', async () => {
      const consentId = await created();
      const signed = Array.from({ length: 8 }, () => signedHeaders(both, '', tppHeaders()));
      const answers = await Promise.all(
        [...signed, ...signed].map((headers) => request(sandbox.http).get(`/v1/consents/${consentId}/status`).set(headers)),
      );
      for (const [index, headers] of signed.entries()) {
        const pair = [answers[index], answers[index + signed.length]];
        expect(pair.map((answer) => answer.status).sort()).toEqual([200, 401]);
        expect(pair.find((answer) => answer.status === 200)!.body).toEqualBody({ consentStatus: 'received' });
        expect(pair.find((answer) => answer.status === 401)!.body).toEqualBody(spent(headers['X-Request-ID']));
      }
      const stored = await sandbox.dataSource.query(
        `SELECT COUNT(*) AS n FROM signed_requests WHERE "requestId" IN (${signed.map((headers) => `'${headers['X-Request-ID']}'`).join(', ')})`,
      );
      expect(Number(stored[0].n)).toBe(signed.length);
    });

    it('a refused request spends its X-Request-ID too: sent again, it is the spent signature that answers', async () => {
      const text = JSON.stringify({ ...consent, frequencyPerDay: 0 });
      const headers = signedHeaders(both, text, tppHeaders({ 'Content-Type': 'application/json' }));
      const before = Number(await count());
      const refused = await request(sandbox.http).post('/v1/consents').set(headers).send(text).expect(400);
      expect(refused.body).toEqualBody(refusal('FORMAT_ERROR', 'XS2A001E', 'frequencyPerDay must not be less than 1', 'frequencyPerDay'));
      expect((await request(sandbox.http).post('/v1/consents').set(headers).send(text).expect(401)).body).toEqualBody(
        spent(headers['X-Request-ID']),
      );
      expect(Number(await count())).toBe(before);
    });

    it.each([
      ['TPP-Notification-URI', 'https://attacker.example/hook'],
      ['TPP-Notification-Content-Preferred', 'status=SCA'],
      ['TPP-Nok-Redirect-URI', 'https://attacker.example/nok'],
      ['Date', 'Fri, 27 Nov 2026 18:00:00 GMT'],
    ])('%s added outside the signature: 401, nothing stored; signed, it is taken', async (name, value) => {
      const text = JSON.stringify(consent);
      const before = Number(await count());
      const unsigned = { ...signedHeaders(both, text, tppHeaders({ 'Content-Type': 'application/json' })), [name]: value };
      const refused = await request(sandbox.http).post('/v1/consents').set(unsigned).send(text).expect(401);
      expect(refused.body).toEqualBody(
        refusal('SIGNATURE_INVALID', 'XS2A044E', `the signature must cover ${name.toLowerCase()}`, 'Signature'),
      );
      expect(Number(await count())).toBe(before);
      const extra: Record<string, string> =
        name === 'TPP-Notification-Content-Preferred' ? { 'TPP-Notification-URI': 'https://tpp.example/hook' } : {};
      await request(sandbox.http)
        .post('/v1/consents')
        .set(signedHeaders(both, text, tppHeaders({ 'Content-Type': 'application/json', ...extra, [name]: value })))
        .send(text)
        .expect(CREATED);
    });

    it('(request-target), when signed, is checked: the signed path taken, another refused', async () => {
      const consentId = await created();
      const covered = ['(request-target)', 'digest', 'x-request-id'];
      const target =
        (path: string, method = 'get') =>
        (signingString: string) =>
          execFileSync('openssl', ['dgst', '-sha256', '-sign', both.keyFile], {
            input: signingString.replace('(request-target): undefined', `(request-target): ${method} ${path}`),
          }).toString('base64');
      const path = `/v1/consents/${consentId}/status`;
      await request(sandbox.http)
        .get(path)
        .set(signedHeaders(both, '', tppHeaders(), { covered, signatureOf: target(path) }))
        .expect(200);
      const moved = await request(sandbox.http)
        .get(`/v1/consents/${consentId}`)
        .set(signedHeaders(both, '', tppHeaders(), { covered, signatureOf: target(path) }))
        .expect(401);
      expect(moved.body).toEqualBody(
        refusal(
          'SIGNATURE_INVALID',
          'XS2A044E',
          'the signature does not verify with the certificate over the covered headers',
          'Signature',
        ),
      );
    });
  });

  it('a certificate of another CA: 401 CERTIFICATE_INVALID', async () => {
    const foreign = foreignCertificate();
    const response = await send('get', '/v1/accounts', foreign, undefined, { 'Consent-ID': VALID_CONSENT }).expect(401);
    const serial = execFileSync('openssl', ['x509', '-noout', '-serial'], { input: foreign.certificate })
      .toString()
      .trim()
      .replace('serial=', '');
    expect(response.body).toEqualBody(
      refusal(
        'CERTIFICATE_INVALID',
        'XS2A047E',
        `the certificate ${serial} is issued neither by the sandbox CA nor by a CA the profile trusts`,
      ),
    );
  });

  it('a role missing: account information without PSP_AI, a payment without PSP_PI: 401 ROLE_INVALID', async () => {
    const ais = await send('get', '/v1/accounts', pisOnly, undefined, { 'Consent-ID': VALID_CONSENT }).expect(401);
    expect(ais.body).toEqualBody(refusal('ROLE_INVALID', 'XS2A050E', `the certificate ${pisOnly.serialNumber} grants PSP_PI, not PSP_AI`));
    const pis = await send('post', '/v1/payments/sepa-credit-transfers', aisOnly, sepaPayment('1.00'), {
      'PSU-IP-Address': '192.0.2.10',
    }).expect(401);
    expect(pis.body).toEqualBody(refusal('ROLE_INVALID', 'XS2A050E', `the certificate ${aisOnly.serialNumber} grants PSP_AI, not PSP_PI`));
    await send('post', '/v1/payee-verifications', aisOnly, { partyAccount: { iban: GEORG }, party: { name: 'Georg Mustermann' } }).expect(
      401,
    );
    await send('post', '/v1/payee-verifications', pisOnly, { partyAccount: { iban: GEORG }, party: { name: 'Georg Mustermann' } }).expect(
      200,
    );
  });

  it("ETSI TS 119 495 V1.8.1's roles: a central bank's and a public authority's call every TPP route and name no competent authority; VOP_RS the payee checks only; VOP_VS nothing", async () => {
    const payee = { partyAccount: { iban: GEORG }, party: { name: 'Georg Mustermann' } };
    const payment = () =>
      send('post', '/v1/payments/sepa-credit-transfers', centralBank, sepaPayment('1.00'), { 'PSU-IP-Address': '192.0.2.10' });
    const centralBank = await issue(sandbox.http, { type: 'QSEAL', organisationName: 'Central Bank', roles: ['PSP_CB'] });
    expect(centralBank.organisationIdentifier).toMatch(/^PSDXX-NA-/);
    // The PSD2 statement ends with the authority's name and ID, two UTF8Strings: "NA" and "NA".
    const namesNoAuthority = ({ certificate }: Issued) =>
      Buffer.from(base64Der(certificate), 'base64').includes(Buffer.from([0x0c, 0x02, 0x4e, 0x41, 0x0c, 0x02, 0x4e, 0x41]));
    expect([namesNoAuthority(centralBank), namesNoAuthority(aisOnly)]).toEqual([true, false]);
    await send('get', '/v1/accounts', centralBank, undefined, { 'Consent-ID': VALID_CONSENT }).expect(200);
    expect((await payment()).status).toBe(CREATED);
    const authority = await issue(sandbox.http, { type: 'QSEAL', organisationName: 'Public Authority', roles: ['PSP_PA'] });
    await send('post', '/v1/payee-verifications', authority, payee).expect(200);
    const requester = await issue(sandbox.http, { type: 'QSEAL', organisationName: 'VoP Requester', roles: ['VOP_RS'] });
    await send('post', '/v1/payee-verifications', requester, payee).expect(200);
    const refusedPayment = await send('post', '/v1/payments/sepa-credit-transfers', requester, sepaPayment('1.00'), {
      'PSU-IP-Address': '192.0.2.10',
    }).expect(401);
    expect(refusedPayment.body).toEqualBody(
      refusal('ROLE_INVALID', 'XS2A050E', `the certificate ${requester.serialNumber} grants VOP_RS, not PSP_PI`),
    );
    const responder = await issue(sandbox.http, { type: 'QSEAL', organisationName: 'VoP Responder', roles: ['VOP_VS'] });
    const refusedCheck = await send('post', '/v1/payee-verifications', responder, payee).expect(401);
    expect(refusedCheck.body.tppMessages ?? refusedCheck.body.apiClientMessages).toEqual([
      expect.objectContaining({ code: 'ROLE_INVALID' }),
    ]);
    const mixed = await request(sandbox.http)
      .post('/sandbox/certificates')
      .send({ type: 'QSEAL', organisationName: 'Both', roles: ['PSP_CB', 'PSP_AI'] })
      .expect(400);
    expect(mixed.body).toEqualBody(
      tppError(
        'FORMAT_ERROR',
        '{sensitive} XS2A001E: PSP_CB name no competent authority (NA) and cannot stand beside PSP_AI, whose certificates name theirs (ETSI TS 119 495 V1.8.1)',
        'roles',
      ),
    );
  });

  it('expiry follows the sandbox clock: valid on its last day, expired the day after, valid again when the clock goes back', async () => {
    const path = '/v1/payments/sepa-credit-transfers';
    await request(sandbox.http).put('/sandbox/clock').send({ today: '2026-04-13' }).expect(200);
    await send('post', path, pisOnly, sepaPayment('1.00', { debtorAccount: { iban: MARIANNE } }), {
      'PSU-IP-Address': '192.0.2.10',
    }).expect(CREATED);
    await request(sandbox.http).put('/sandbox/clock').send({ today: '2026-04-14' }).expect(200);
    const expired = await send('post', path, pisOnly, sepaPayment('1.00'), { 'PSU-IP-Address': '192.0.2.10' }).expect(401);
    expect(expired.body).toEqualBody(
      refusal(
        'CERTIFICATE_EXPIRED',
        'XS2A048E',
        `the certificate ${pisOnly.serialNumber.toUpperCase()} is valid from 2026-03-15 until 2026-04-14, and today is 2026-04-14`,
      ),
    );
    await request(sandbox.http).put('/sandbox/clock').send({ today: '2026-03-15' }).expect(200);
    await send('post', path, pisOnly, sepaPayment('1.00'), { 'PSU-IP-Address': '192.0.2.10' }).expect(CREATED);
  });

  it('a revoked certificate: 401 CERTIFICATE_REVOKE; an unknown serial is 404', async () => {
    const revoked = await issue(sandbox.http, { type: 'QSEAL', organisationName: 'Revoked TPP', roles: ['PSP_AI'] });
    await send('get', '/v1/accounts', revoked, undefined, { 'Consent-ID': VALID_CONSENT }).expect(200);
    const spent = () => sandbox.dataSource.getRepository('signed_requests').countBy({ serialNumber: revoked.serialNumber });
    expect(await spent()).toBe(1);
    expect(
      (await request(sandbox.http).post(`/sandbox/certificates/00${revoked.serialNumber.toUpperCase()}/revocation`).expect(200)).body,
    ).toEqual({ serialNumber: revoked.serialNumber, revoked: true });
    // What it signed no longer matters: nothing it signs is taken any more.
    expect(await spent()).toBe(0);
    const response = await send('get', '/v1/accounts', revoked, undefined, { 'Consent-ID': VALID_CONSENT }).expect(401);
    expect(response.body).toEqualBody(
      refusal('CERTIFICATE_REVOKE', 'XS2A049E', `the certificate ${revoked.serialNumber.toUpperCase()} is revoked`),
    );
    expect((await request(sandbox.http).post('/sandbox/certificates/abcdef/revocation').expect(404)).body).toEqualBody(
      refusal('RESOURCE_UNKNOWN', 'XS2A051E', 'certificate abcdef unknown'),
    );
  });

  it('npm run certificate issues from the same CA, for a CI: the server accepts what it signs', async () => {
    const out = join(folder, 'cli');
    const environment = {
      ...process.env,
      ...databaseSettings(sandbox.database),
      PROFILE: profileWith('required', '  signatures: required\n'),
      SANDBOX_DATE: '2026-03-15',
      LOG_LEVEL: 'silent',
    };
    const printed = execFileSync(
      'npx',
      ['ts-node', '--transpile-only', 'seeds/certificate.ts', '--roles', 'PSP_AI', '--name', 'CLI TPP', '--out', out],
      { env: environment },
    ).toString();
    expect(printed).toMatch(
      /^Issued QSEAL [0-9a-f]{32} to CLI TPP \(PSDXX-SBX-CLITPP\), roles PSP_AI, valid 2026-03-15 until 2027-03-15: /,
    );
    const cli: Issued = {
      serialNumber: printed.split(' ')[2],
      certificate: readFileSync(join(out, 'qseal.pem'), 'utf8'),
      privateKey: '',
      keyFile: join(out, 'qseal.key'),
    };
    expect(readFileSync(join(out, 'ca.pem'), 'utf8')).toBe(
      (await request(sandbox.http).get('/sandbox/certificates/ca').expect(200)).body.certificate,
    );
    await send('get', '/v1/accounts', cli, undefined, { 'Consent-ID': VALID_CONSENT }).expect(200);
  });

  it('refuses a malformed issuance with 400: no roles, an unknown role, a bad organisationIdentifier', async () => {
    for (const body of [
      { type: 'QSEAL', organisationName: 'X', roles: [] },
      { type: 'QSEAL', organisationName: 'X', roles: ['PSP_XX'] },
      { type: 'QSEAL', organisationName: 'X', roles: ['PSP_AI'], organisationIdentifier: 'FMA-12345' },
      { type: 'QSEAL', organisationName: 'X', roles: ['PSP_AI'], validDays: 0 },
      { type: 'QSEAL', organisationName: '\ud800', roles: ['PSP_AI'] },
      { type: 'QSEAL', organisationName: 'tab\there', roles: ['PSP_AI'] },
    ]) {
      expect((await request(sandbox.http).post('/sandbox/certificates').send(body).expect(400)).body.tppMessages[0].code).toBe(
        'FORMAT_ERROR',
      );
    }
  });
});

describe("tpp.trustedCAs: a CA of the bank's own beside the sandbox's", () => {
  // The bank's test CA and a QSealC of it, made before the sandbox starts, as a bank team would bring them.
  const path = profileWith('trusted', '  signatures: required\n  trustedCAs: [bank-test-ca.pem]\n');
  let bankIssued: Issued;
  beforeAll(async () => {
    const authority = await createAuthority();
    writeFileSync(join(path, 'bank-test-ca.pem'), authority.certificate);
    const serialNumber = newSerial();
    const terms = {
      type: 'QSEAL' as const,
      organisationName: 'Bank Test TPP',
      organisationIdentifier: 'PSDDE-BAFIN-987654',
      roles: ['PSP_AI' as const, 'PSP_PI' as const],
      notBefore: '2026-01-01',
      notAfter: '2027-01-01',
    };
    const { certificate, privateKey } = await issueCertificate(authority, serialNumber, terms);
    const keyFile = join(folder, 'bank-issued.key');
    writeFileSync(keyFile, privateKey);
    bankIssued = { serialNumber, certificate, privateKey, keyFile };
  });
  const sandbox = useSandbox({ PROFILE: path, SCA_MODE: 'redirect' });

  it("accepts a certificate of the trusted CA as one of the sandbox's, and the history names it; the sandbox cannot revoke it", async () => {
    const own = await issue(sandbox.http, { type: 'QSEAL', organisationName: 'Sandbox TPP', roles: ['PSP_AI', 'PSP_PI'] });
    const accounts = (signer: Issued) =>
      request(sandbox.http)
        .get('/v1/accounts?withBalance=true')
        .set(signedHeaders(signer, '', tppHeaders({ 'Consent-ID': VALID_CONSENT })));
    const trusted = await accounts(bankIssued).expect(200);
    expect(trusted.body).toEqual((await accounts(own).expect(200)).body);
    expect(trusted.body.accounts.length).toBeGreaterThan(0);

    const consent = {
      access: { availableAccounts: 'allAccounts' },
      recurringIndicator: true,
      combinedServiceIndicator: false,
      validUntil: '2026-06-30',
      frequencyPerDay: 4,
    };
    const text = JSON.stringify(consent);
    const created = await request(sandbox.http)
      .post('/v1/consents')
      .set(signedHeaders(bankIssued, text, tppHeaders({ 'Content-Type': 'application/json' })))
      .send(text)
      .expect(CREATED);
    const events = (await request(sandbox.http).get(`/sandbox/events?resourceId=${created.body.consentId}&kind=consent`).expect(200)).body
      .events as { event: string; certificate?: string }[];
    expect(events.map(({ event, certificate }) => [event, certificate])).toEqual([['CREATED', bankIssued.serialNumber]]);

    const revocation = await request(sandbox.http).post(`/sandbox/certificates/${bankIssued.serialNumber}/revocation`).expect(404);
    expect(revocation.body).toEqualBody(refusal('RESOURCE_UNKNOWN', 'XS2A051E', `certificate ${bankIssued.serialNumber} unknown`));
  });
});

describe('tpp.signatures: optional, tpp.qwac: header', () => {
  // The proxy that forwards the QWAC is the test's loopback connection.
  const sandbox = useSandbox({ PROFILE: profileWith('optional', '  signatures: optional\n  qwac: header\n'), TRUST_PROXY: 'loopback' });
  let qwac: Issued;
  beforeAll(async () => {
    qwac = await issue(sandbox.http, { type: 'QWAC', organisationName: 'Proxied TPP', roles: ['PSP_AI', 'PSP_PI'] });
  });
  const withQwac = (extra: Record<string, string> = {}) =>
    tppHeaders({ 'Consent-ID': VALID_CONSENT, 'X-SSL-Client-Cert': encodeURIComponent(qwac.certificate), ...extra });

  it('an unsigned request with its QWAC is served; a signed one is checked', async () => {
    await request(sandbox.http).get('/v1/accounts').set(withQwac()).expect(200);
    const response = await request(sandbox.http)
      .get('/v1/accounts')
      .set(withQwac({ Signature: 'keyId="x"' }))
      .expect(401);
    expect(response.body.tppMessages[0].code).toBe('CERTIFICATE_MISSING');
  });

  it('a request without its QWAC: 401 CERTIFICATE_MISSING; a header that is no certificate: CERTIFICATE_INVALID', async () => {
    const missing = await request(sandbox.http)
      .get('/v1/accounts')
      .set(tppHeaders({ 'Consent-ID': VALID_CONSENT }))
      .expect(401);
    expect(missing.body).toEqualBody(refusal('CERTIFICATE_MISSING', 'XS2A046E', 'no QWAC in X-SSL-Client-Cert'));
    const broken = await request(sandbox.http)
      .get('/v1/accounts')
      .set(withQwac({ 'X-SSL-Client-Cert': '%E0%A4%A' }))
      .expect(401);
    expect(broken.body).toEqualBody(
      refusal('CERTIFICATE_INVALID', 'XS2A047E', 'X-SSL-Client-Cert is not a URL-encoded PEM certificate', 'X-SSL-Client-Cert'),
    );
  });

  it('the header from a sender TRUST_PROXY does not name: 401 CERTIFICATE_INVALID, whatever it holds', async () => {
    const direct = await startSandbox({
      PROFILE: profileWith('optional', '  signatures: optional\n  qwac: header\n'),
      TRUST_PROXY: '192.0.2.1',
    });
    try {
      const response = await request(direct.http).get('/v1/accounts').set(withQwac()).expect(401);
      expect(response.body).toEqualBody(
        refusal(
          'CERTIFICATE_INVALID',
          'XS2A047E',
          'X-SSL-Client-Cert is believed only from a proxy TRUST_PROXY names',
          'X-SSL-Client-Cert',
        ),
      );
    } finally {
      await direct.close();
    }
  });

  it('the served document names the headers', async () => {
    const document = (await request(sandbox.http).get('/docs-json').expect(200)).body;
    const parameters = (document.paths['/v1/accounts'].get.parameters as { name: string; required: boolean }[]).filter(({ name }) =>
      ['Digest', 'Signature', 'TPP-Signature-Certificate', 'X-SSL-Client-Cert'].includes(name),
    );
    expect(parameters.map(({ name, required }) => [name, required])).toEqual([
      ['Digest', false],
      ['Signature', false],
      ['TPP-Signature-Certificate', false],
      ['X-SSL-Client-Cert', true],
    ]);
  });
});

describe('tpp.qwac: mtls, AUTH_MODE=strict', () => {
  const sandbox = useSandbox({
    PROFILE: profileWith('mtls', '  qwac: mtls\n  signatures: optional\n'),
    TLS_PORT: '0',
    AUTH_MODE: 'strict',
  });

  /** GET /v1/accounts over the HTTPS listener, with this client certificate (or none). */
  const overTls = (token: string, client: { certificate: string; privateKey: string } | null, ca: string) =>
    new Promise<{ status: number; body: { tppMessages?: { code: string }[]; accounts?: unknown } }>((resolve, reject) => {
      const port = sandbox.app.get(MutualTlsListener).port;
      const call = httpsRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/v1/accounts',
          ca,
          servername: 'localhost',
          ...(client ? { cert: client.certificate, key: client.privateKey } : {}),
          headers: { Authorization: `Bearer ${token}`, 'X-Request-ID': randomUUID(), 'Consent-ID': VALID_CONSENT },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
        },
      );
      call.on('error', reject);
      call.end();
    });

  it("serves a client with an issued QWAC; refuses one without, one of another CA, another client's, and plain HTTP", async () => {
    const [first, second] = [await issueToken(sandbox.http), await issueToken(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2')];
    const ca = (await request(sandbox.http).get('/sandbox/certificates/ca').set('Authorization', `Bearer ${first}`).expect(200)).body
      .certificate;
    const mine = await issue(sandbox.http, { type: 'QWAC', organisationName: 'mTLS TPP', roles: ['PSP_AI'] }, first);
    expect(mine.serialNumber).toMatch(/^[0-9a-f]+$/);
    const served = await overTls(first, mine, ca);
    expect(served.status).toBe(200);
    expect((served.body as { accounts: { iban: string }[] }).accounts.map(({ iban }) => iban)).toEqual([MARIANNE, GEORG]);
    expect((await overTls(first, null, ca)).body.tppMessages?.[0].code).toBe('CERTIFICATE_MISSING');
    const foreign = foreignCertificate();
    expect(
      (await overTls(first, { certificate: foreign.certificate, privateKey: execFileSync('cat', [foreign.keyFile]).toString() }, ca)).body
        .tppMessages?.[0].code,
    ).toBe('CERTIFICATE_INVALID');
    expect((await overTls(second, mine, ca)).body.tppMessages?.[0].code).toBe('CERTIFICATE_INVALID');
    const plain = await request(sandbox.http)
      .get('/v1/accounts')
      .set(tppHeaders({ Authorization: `Bearer ${first}`, 'Consent-ID': VALID_CONSENT }))
      .expect(401);
    expect(plain.body.tppMessages[0].code).toBe('CERTIFICATE_MISSING');
  });
});
