import { execFile, execFileSync } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { MutualTlsListener } from '../src/tpp-identity/mutual-tls-listener';
import { Authorisation } from '../src/authorisation/authorisation.entity';
import { Consent } from '../src/consent/consent.entity';
import { GEORG, MARIANNE, VALID_CONSENT } from './support/fixtures';
import { inProfile } from './support/profile';
import { libraryFlow, type LibraryFlowOptions, type LibraryStep } from './support/library-client';
import { type Issued, issuedCertificate, signedHeaders } from './support/signing';
import { issueToken, type Sandbox, tppError, useSandbox, TOKEN_MISSING } from './support/sandbox';

/**
 * A client that follows Berlin Group's yaml works on its first request (docs/conformance.md, "A
 * third-party client"): js-nextgen-psd2 1.0.0, unchanged, drives a whole flow against
 * PROFILE=berlin-group without a token (redirect and auto; in AUTH_MODE=strict known by its QSealC,
 * or by its QWAC over mTLS), and with one against PROFILE=bank; then each of Berlin Group's rules
 * the seed bank's habits broke, one by one (issue 62's table).
 */
jest.setTimeout(60_000);

const folder = mkdtempSync(join(tmpdir(), 'psd2-library-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A profile folder extending berlin-group with these tpp keys. */
function berlinGroupWith(name: string, tpp: string): string {
  const path = join(folder, name);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'profile.yaml'), `extends: berlin-group\ntpp:\n  oauth: optional\n${tpp}`);
  return path;
}

/** The sandbox listening on loopback, as a TPP reaches it (once per sandbox). */
async function listening(sandbox: Sandbox): Promise<string> {
  const server = sandbox.app.getHttpServer() as unknown as Server;
  if (!server.listening) await sandbox.app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const SEAL = { type: 'QSEAL', organisationName: 'Library TPP', roles: ['PSP_AI', 'PSP_PI'] };
const NO_HEADERS = {};

/** The account holder approves on the SCA page (the sandbox's headless decision), with the client's token where strict mode asks for one. */
const approver =
  (sandbox: Sandbox, token?: string): LibraryFlowOptions['approve'] =>
  async (kind, id) => {
    const call = request(sandbox.http).post(`/sandbox/sca/${kind}/${id}`);
    await (token ? call.set('Authorization', `Bearer ${token}`) : call)
      .send({ psuId: 'georg.mustermann', decision: 'approve' })
      .expect(200);
  };

/** Every step of the library's flow with its status, in order: `created` is the profile's, `after` the payment's final status. */
const flowStatuses = (created: number, scaStatus: boolean) => [
  ['create consent', created],
  ['consent status', 200],
  ['accounts', 200],
  ['balances', 200],
  ['transactions', 200],
  ['initiate payment', created],
  ...(scaStatus ? [['payment SCA status', 200]] : []),
  ['payment status', 200],
  ['delete consent', 204],
];

/** Where an answer holds an empty string or an empty list: Berlin Group's answers hold none. */
function emptyValues(value: unknown, path = ''): string[] {
  if (value === '' || (Array.isArray(value) && value.length === 0)) return [path];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => emptyValues(child, `${path}.${key}`));
}

/** An error body as Berlin Group's answers have it, whatever profile the run is in. */
const refusal = (code: string, text: string, path: string | null = null) => inProfile('berlin-group', tppError(code, text, path));

/** The empty values of the steps that answer a body (a 204 answers none). */
const emptyAnswers = (steps: LibraryStep[]) =>
  steps.filter(({ status }) => status !== 204).flatMap(({ step, body }) => emptyValues(body).map((path) => `${step}${path}`));

const bodyOf = (steps: LibraryStep[], step: string) => steps.find((found) => found.step === step)!.body as Record<string, unknown>;

describe('js-nextgen-psd2 on PROFILE=berlin-group, SCA_MODE=redirect, without a token', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'redirect' });
  let steps: LibraryStep[];
  beforeAll(async () => {
    const signing = await issuedCertificate(sandbox.http, folder, SEAL);
    steps = await libraryFlow({ baseUrl: await listening(sandbox), signing, approve: approver(sandbox) });
  });

  it('runs the whole flow: consent, its SCA, accounts, balances, transactions, a payment, its SCA and status, the deletion', () => {
    expect(steps.map(({ step, status }) => [step, status])).toEqual(flowStatuses(201, true));
    const consentId = bodyOf(steps, 'create consent').consentId as string;
    expect(bodyOf(steps, 'create consent')).toEqual({
      consentStatus: 'received',
      consentId,
      _links: {
        scaRedirect: {
          href: `http://localhost:3000/sca/consents?consent_id=${consentId}&redirectBackUrl=https%3A%2F%2Ftpp.example%2Fback`,
        },
        self: { href: `/v1/consents/${consentId}` },
        status: { href: `/v1/consents/${consentId}/status` },
      },
    });
    expect(bodyOf(steps, 'consent status')).toEqual({ consentStatus: 'valid' });
    expect(bodyOf(steps, 'payment SCA status')).toEqual({ scaStatus: 'received' });
    expect(bodyOf(steps, 'payment status')).toEqual({ transactionStatus: 'ACSP' });
  });

  it("links the payment's SCA status by its authorisation's own ID, never a placeholder (row 6)", async () => {
    const paymentId = bodyOf(steps, 'initiate payment').paymentId as string;
    const self = `/v1/payments/sepa-credit-transfers/${paymentId}`;
    const { id } = await sandbox.dataSource.getRepository(Authorisation).findOneByOrFail({ resourceId: paymentId });
    expect(bodyOf(steps, 'initiate payment')).toEqual({
      transactionStatus: 'RCVD',
      paymentId,
      _links: {
        scaRedirect: {
          href: `http://localhost:3000/sca/payments?payment_id=${paymentId}&service=payments&product=sepa-credit-transfers&redirectBackUrl=https%3A%2F%2Ftpp.example%2Fback`,
        },
        self: { href: self },
        status: { href: `${self}/status` },
        scaStatus: { href: `${self}/authorisations/${id}` },
      },
    });
  });

  it("answers no empty string and no empty list on any step: not scaMethods, not tppMessages, not the fixtures' empty creditorId (row 8)", () => {
    expect(emptyAnswers(steps)).toEqual([]);
    expect(JSON.stringify(bodyOf(steps, 'transactions'))).not.toContain('creditorId');
  });
});

describe('js-nextgen-psd2 on PROFILE=berlin-group, SCA_MODE=auto, without a token', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group' });
  const post = (body: object) => request(sandbox.http).post('/v1/consents').set({ 'X-Request-ID': crypto.randomUUID() }).send(body);
  const read = (path: string, consentId: string) =>
    request(sandbox.http).get(path).set({ 'X-Request-ID': crypto.randomUUID(), 'Consent-ID': consentId });
  const terms = { recurringIndicator: true, validUntil: '2026-06-30', frequencyPerDay: 4, combinedServiceIndicator: false };

  it('runs the whole flow, the consent valid at creation and linking no SCA page, as there is nothing to authorise (row 7)', async () => {
    const signing = await issuedCertificate(sandbox.http, folder, SEAL);
    const steps = await libraryFlow({ baseUrl: await listening(sandbox), signing });
    expect(steps.map(({ step, status }) => [step, status])).toEqual(flowStatuses(201, true));
    const consentId = bodyOf(steps, 'create consent').consentId as string;
    expect(bodyOf(steps, 'create consent')).toEqual({
      consentStatus: 'valid',
      consentId,
      _links: { self: { href: `/v1/consents/${consentId}` }, status: { href: `/v1/consents/${consentId}/status` } },
    });
    expect(bodyOf(steps, 'payment status')).toEqual({ transactionStatus: 'ACSP' });
    expect(emptyAnswers(steps)).toEqual([]);
  });

  it('serves a request without Authorization, and refuses a broken one (row 1)', async () => {
    const served = await request(sandbox.http)
      .get(`/v1/consents/${VALID_CONSENT}/status`)
      .set('X-Request-ID', crypto.randomUUID())
      .expect(200);
    expect(served.body).toEqual({ consentStatus: 'valid' });
    const broken = await request(sandbox.http)
      .get(`/v1/consents/${VALID_CONSENT}/status`)
      .set({ 'X-Request-ID': crypto.randomUUID(), Authorization: 'Basic eDp5' })
      .expect(401);
    expect(broken.body).toEqual(refusal('TOKEN_INVALID', TOKEN_MISSING.open));
  });

  it('grants account details alone for `accounts`: balances and transactions are refused under it (row 2)', async () => {
    const created = await post({ access: { accounts: [{ iban: MARIANNE }] }, ...terms }).expect(201);
    const { consentId } = created.body;
    expect((await read(`/v1/accounts/${MARIANNE}`, consentId).expect(200)).body.account.iban).toBe(MARIANNE);
    expect((await read('/v1/accounts', consentId).expect(200)).body.accounts.map(({ iban }: { iban: string }) => iban)).toEqual([MARIANNE]);
    const refused = refusal('CONSENT_INVALID', `{sensitive} XS2A009E: consent ${consentId} does not grant balances on ${MARIANNE}`);
    expect((await read(`/v1/accounts/${MARIANNE}/balances`, consentId).expect(401)).body).toEqual(refused);
    expect((await read(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`, consentId).expect(401)).body).toEqual(
      refusal('CONSENT_INVALID', `{sensitive} XS2A009E: consent ${consentId} does not grant transactions on ${MARIANNE}`),
    );
  });

  it('reads a consent back exactly as it was asked: no list dropped, none added (rows 3 and 4)', async () => {
    const { consentId } = (await post({ access: { accounts: [{ iban: MARIANNE }], balances: [{ iban: MARIANNE }] }, ...terms }).expect(201))
      .body;
    const consent = await read(`/v1/consents/${consentId}`, consentId).expect(200);
    expect(consent.body.access).toEqual({ accounts: [{ iban: MARIANNE }], balances: [{ iban: MARIANNE }] });
    // balances include the account's details; transactions were not asked for.
    await read(`/v1/accounts/${MARIANNE}/balances`, consentId).expect(200);
    await read(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`, consentId).expect(401);
  });

  it('refuses an empty list, which asks for a bank-offered consent, beside a named one, and stores nothing (row 4)', async () => {
    const before = await sandbox.dataSource.getRepository(Consent).count();
    const response = await post({ access: { balances: [{ iban: MARIANNE }], transactions: [] }, ...terms }).expect(400);
    expect(response.body).toEqual(
      refusal(
        'FORMAT_ERROR',
        '{sensitive} XS2A001E: access.transactions is empty: an empty list asks for a consent on the accounts the holder chooses at the bank, which this bank does not offer; name the accounts, or ask for every account (availableAccounts, availableAccountsWithBalance, allPsd2)',
        'access.transactions',
      ),
    );
    expect(await sandbox.dataSource.getRepository(Consent).count()).toBe(before);
  });

  it('requires combinedServiceIndicator, naming it, and stores nothing (row 5)', async () => {
    const before = await sandbox.dataSource.getRepository(Consent).count();
    const response = await post({ access: { balances: [{ iban: MARIANNE }] }, ...terms, combinedServiceIndicator: undefined }).expect(400);
    expect(response.body).toEqual(
      refusal('FORMAT_ERROR', '{sensitive} XS2A001E: combinedServiceIndicator is required', 'combinedServiceIndicator'),
    );
    expect(await sandbox.dataSource.getRepository(Consent).count()).toBe(before);
  });

  it.each([
    ['availableAccounts', { details: 200, balances: 401, transactions: 401 }],
    ['availableAccountsWithBalance', { details: 200, balances: 200, transactions: 401 }],
    ['allPsd2', { details: 200, balances: 200, transactions: 200 }],
  ])('grants %s as the yaml says, and reads it back as asked', async (kind, granted) => {
    const { consentId } = (await post({ access: { [kind]: 'allAccounts' }, ...terms }).expect(201)).body;
    expect((await read(`/v1/consents/${consentId}`, consentId).expect(200)).body.access).toEqual({ [kind]: 'allAccounts' });
    await read(`/v1/accounts/${GEORG}`, consentId).expect(granted.details);
    await read(`/v1/accounts/${GEORG}/balances`, consentId).expect(granted.balances);
    await read(`/v1/accounts/${GEORG}/transactions?bookingStatus=booked`, consentId).expect(granted.transactions);
  });
});

describe('js-nextgen-psd2 on PROFILE=berlin-group, AUTH_MODE=strict, signatures checked: its QSealC names the client', () => {
  const sandbox = useSandbox({ PROFILE: berlinGroupWith('signed', '  signatures: optional\n'), AUTH_MODE: 'strict' });

  it("runs the flow without a token as the client the sandbox issued its QSealC to, in that client's world", async () => {
    const token = await issueToken(sandbox.http);
    const signing = await issuedCertificate(sandbox.http, folder, SEAL, token);
    const steps = await libraryFlow({ baseUrl: await listening(sandbox), signing });
    expect(steps.map(({ step, status }) => [step, status])).toEqual(flowStatuses(201, true));
    const consentId = bodyOf(steps, 'create consent').consentId as string;
    expect((await sandbox.dataSource.getRepository(Consent).findOneByOrFail({ id: consentId })).ownerId).toBe('sandbox-tpp');
    // Another client, with its own token, does not see it.
    const other = await issueToken(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2');
    const hidden = await request(sandbox.http)
      .get(`/v1/consents/${consentId}`)
      .set({ Authorization: `Bearer ${other}`, 'X-Request-ID': crypto.randomUUID() })
      .expect(403);
    expect(hidden.body.tppMessages[0].code).toBe('CONSENT_UNKNOWN');
  });

  it("a hostile client with another client's certificate and a signature that does not verify learns nothing of that world: 401, never its maintenance", async () => {
    const token = await issueToken(sandbox.http);
    const victim = await issuedCertificate(sandbox.http, folder, SEAL, token);
    await request(sandbox.http)
      .put('/sandbox/conditions')
      .set('Authorization', `Bearer ${token}`)
      .send({ maintenance: true, delayMs: 0 })
      .expect(200);
    try {
      const forgedId = crypto.randomUUID();
      const forged = signedHeaders(
        victim,
        '',
        { 'X-Request-ID': forgedId },
        { signatureOf: () => Buffer.from('forged').toString('base64') },
      );
      const response = await request(sandbox.http).get(`/v1/consents/${VALID_CONSENT}/status`).set(forged).expect(401);
      expect(response.body).toEqual(
        refusal(
          'SIGNATURE_INVALID',
          '{sensitive} XS2A044E: the signature does not verify with the certificate over the covered headers',
          'Signature',
        ),
      );
      // The owner itself, signing properly, is in maintenance.
      const steps = await libraryFlow({ baseUrl: await listening(sandbox), signing: victim });
      expect(steps.map(({ step, status }) => [step, status])).toEqual([['create consent', 503]]);
      // Its request log holds its own signed request, and nothing of the forger's (issue 73, finding 8).
      const log = (await request(sandbox.http).get('/cockpit/requests').set('Cookie', `psd2-cockpit-token=${token}`).expect(200)).text;
      expect(log).toContain(`<td>${victim.serialNumber}</td>`);
      expect(log).not.toContain(forgedId);
    } finally {
      await request(sandbox.http)
        .put('/sandbox/conditions')
        .set('Authorization', `Bearer ${token}`)
        .send({ maintenance: false, delayMs: 0 })
        .expect(200);
    }
  });

  it('refuses a request with neither a token nor a certificate, and one signed with a certificate the sandbox issued to no client', async () => {
    const none = await request(sandbox.http)
      .get(`/v1/consents/${VALID_CONSENT}/status`)
      .set('X-Request-ID', crypto.randomUUID())
      .expect(401);
    expect(none.body).toEqual(
      refusal(
        'CERTIFICATE_MISSING',
        '{sensitive} XS2A063E: no bearer token, and no certificate the sandbox issued to a client (a QWAC, or the QSealC of a signed request): send one of them',
      ),
    );
    const keyFile = join(folder, 'foreign.key');
    const certificate = execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-subj', '/CN=Elsewhere', '-days', '30'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    ).toString();
    const steps = await libraryFlow({
      baseUrl: await listening(sandbox),
      signing: { certificate, privateKey: execFileSync('cat', [keyFile]).toString() },
    });
    expect(steps).toEqual([
      {
        step: 'create consent',
        status: 401,
        body: refusal(
          'CERTIFICATE_INVALID',
          '{sensitive} XS2A064E: no bearer token, and the certificate was issued to no client of this sandbox: send a token, or a certificate from POST /sandbox/certificates',
        ),
      },
    ]);
  });
});

describe('js-nextgen-psd2 on PROFILE=berlin-group, AUTH_MODE=strict, over mTLS: its QWAC names the client', () => {
  const sandbox = useSandbox({ PROFILE: berlinGroupWith('mtls', '  qwac: mtls\n'), AUTH_MODE: 'strict', TLS_PORT: '0' });

  it('runs the flow without a token, in a process of its own that trusts the sandbox CA', async () => {
    const token = await issueToken(sandbox.http);
    const ca = join(folder, 'ca.pem');
    writeFileSync(
      ca,
      (await request(sandbox.http).get('/sandbox/certificates/ca').set('Authorization', `Bearer ${token}`).expect(200)).body.certificate,
    );
    const ssl = await issuedCertificate(sandbox.http, folder, { ...SEAL, type: 'QWAC' }, token);
    const signing = await issuedCertificate(sandbox.http, folder, SEAL, token);
    const options: LibraryFlowOptions = { baseUrl: `https://127.0.0.1:${sandbox.app.get(MutualTlsListener).port}`, signing, ssl };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(__dirname, 'support/library-client.ts'), JSON.stringify(options)],
      {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: ca },
      },
    );
    const steps = JSON.parse(stdout) as LibraryStep[];
    expect(steps.map(({ step, status }) => [step, status])).toEqual(flowStatuses(201, true));
    expect(bodyOf(steps, 'payment status')).toEqual({ transactionStatus: 'ACSP' });
    const consentId = bodyOf(steps, 'create consent').consentId as string;
    expect((await sandbox.dataSource.getRepository(Consent).findOneByOrFail({ id: consentId })).ownerId).toBe('sandbox-tpp');
  });
});

describe('js-nextgen-psd2 on PROFILE=bank, with the token the bank requires', () => {
  const sandbox = useSandbox({ PROFILE: 'bank', SCA_MODE: 'redirect' });

  it('runs the whole flow with its token added to every request', async () => {
    const signing: Issued = await issuedCertificate(sandbox.http, folder, SEAL);
    const baseUrl = await listening(sandbox);
    const steps = await libraryFlow({ baseUrl, signing, headers: { Authorization: 'Bearer library-token' }, approve: approver(sandbox) });
    expect(steps.map(({ step, status }) => [step, status])).toEqual(flowStatuses(200, true));
    expect(bodyOf(steps, 'payment status')).toEqual({ transactionStatus: 'ACSP' });
    const without = await libraryFlow({ baseUrl, signing, headers: NO_HEADERS });
    expect(without).toEqual([
      {
        step: 'create consent',
        status: 401,
        body: tppError('TOKEN_INVALID', TOKEN_MISSING.open),
      },
    ]);
  });
});
