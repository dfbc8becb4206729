import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types';
import type { DataSource } from 'typeorm';
import { balancesConsent, GEORG, sepaPayment, VALID_CONSENT } from './support/fixtures';
import { CREATED, inProfile } from './support/profile';
import { type Issued, issuedCertificate, signedHeaders } from './support/signing';
import { TppClient } from '../src/oauth/client.entity';
import { CertificatesService } from '../src/tpp-identity/certificates.service';
import { World } from '../src/world/world';
import {
  allAccountsConsent,
  registerClient,
  removeDatabase,
  startSandbox,
  temporaryDatabase,
  TODAY,
  tppError,
  tppHeaders,
  useSandbox,
  worldClient,
  WorldClient,
} from './support/sandbox';

/**
 * A world's life (docs/security.md, "A world's life"): a reset forgets everything the world
 * created and puts its clock back, leaving every other world as it was; the deletion of a
 * registered client (RFC 7592) leaves no row of its world in any table, and neither its tokens nor
 * its certificates speak for anyone after it. On SQLite and PostgreSQL.
 */

const folder = mkdtempSync(join(tmpdir(), 'psd2-world-life-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Berlin Group's profile, where a request signed with a certificate the sandbox issued needs no token (docs/tpp-identity.md). */
function signingProfile(): string {
  mkdirSync(join(folder, 'profile'));
  writeFileSync(join(folder, 'profile', 'profile.yaml'), 'extends: berlin-group\ntpp:\n  oauth: optional\n  signatures: optional\n');
  return join(folder, 'profile');
}

const SEPA = '/v1/payments/sepa-credit-transfers';
const PSU_IP = { 'PSU-IP-Address': '192.0.2.10' };
const consentBody = balancesConsent();

interface Registered {
  clientId: string;
  registrationToken: string;
  client: WorldClient;
  token: string;
}

async function register(http: App, name: string): Promise<Registered> {
  const { clientId, clientSecret, registrationToken, token } = await registerClient(http, name);
  return { clientId, registrationToken, token, client: await worldClient(http, clientId, clientSecret, PSU_IP) };
}

/** The account list signed with `certificate` and sent without a token: the certificate names the client (docs/tpp-identity.md, "Without a token"). */
function tokenless(http: App, certificate: Issued): request.Test {
  const headers = tppHeaders({ 'Consent-ID': VALID_CONSENT, ...PSU_IP });
  delete headers.Authorization;
  return request(http)
    .get('/v1/accounts')
    .set(signedHeaders(certificate, '', headers));
}

/** A request without a token whose certificate is no client's. */
const OF_NO_CLIENT = inProfile(
  'berlin-group',
  tppError(
    'CERTIFICATE_INVALID',
    '{sensitive} XS2A064E: no bearer token, and the certificate was issued to no client of this sandbox: send a token, or a certificate from POST /sandbox/certificates',
  ),
);

/** Every row of every table that names the client in a world column (ownerId, clientId, world), by table. */
async function rowsNaming(dataSource: DataSource, clientId: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const metadata of dataSource.entityMetadatas) {
    for (const column of metadata.columns.filter(({ propertyName }) => ['ownerId', 'clientId', 'world'].includes(propertyName))) {
      const count = await dataSource.getRepository(metadata.target).countBy({ [column.propertyName]: clientId });
      if (count) found[`${metadata.tableName}.${column.propertyName}`] = count;
    }
  }
  return found;
}

describe("a world's life in AUTH_MODE=strict: reset and deletion", () => {
  const sandbox = useSandbox({ PROFILE: signingProfile(), AUTH_MODE: 'strict', SCA_MODE: 'redirect' });
  let a: Registered;
  let b: Registered;
  let scenarioId: string;
  let theirs: { consentId: string; paymentId: string };

  /** A world with something of everything: a consent, a payment, a scenario, conditions, a moved clock, a certificate and their events. */
  async function populate({ client, token }: Registered): Promise<{ consentId: string; paymentId: string; scenarioId: string }> {
    const consentId = (await client.send('post', '/v1/consents', consentBody).expect(201)).body.consentId;
    const paymentId = (await client.send('post', SEPA, sepaPayment('10.00')).expect(201)).body.paymentId;
    const scenario = (
      await client
        .send('post', '/sandbox/scenarios', {
          accounts: [{ name: 'World Holder', balances: { interimAvailable: '10.00', forwardAvailable: '10.00' } }],
        })
        .expect(201)
    ).body;
    await client.send('put', '/sandbox/conditions', { maintenance: false, delayMs: 5 }).expect(200);
    await client.send('post', '/v1/bulk-payee-verifications', {
      partyVerificationRequests: [
        { uetr: '5b0d7f1e-2f5c-4c59-9a8e-6a3c1d2b7e41', partyAccount: { iban: GEORG }, party: { name: 'Georg Mustermann' } },
      ],
    });
    await issuedCertificate(sandbox.http, folder, { type: 'QSEAL', organisationName: 'World TPP', roles: ['PSP_AI', 'PSP_PI'] }, token);
    await client.send('post', '/sandbox/clock/advance', { days: 10 }).expect(200);
    return { consentId, paymentId, scenarioId: scenario.scenarioId };
  }

  beforeAll(async () => {
    a = await register(sandbox.http, 'A');
    b = await register(sandbox.http, 'B');
    ({ scenarioId } = await populate(a));
    const populated = await populate(b);
    theirs = { consentId: populated.consentId, paymentId: populated.paymentId };
  });

  it("a reset forgets everything the world created and puts its clock back; another world's stays as it was", async () => {
    const before = await rowsNaming(sandbox.dataSource, b.clientId);
    const reset = await a.client.send('post', '/sandbox/world/reset').expect(200);
    expect(reset.body).toEqual({ today: TODAY, forgotten: expect.any(Number) });
    expect(reset.body.forgotten).toBeGreaterThan(10);
    // What is left of A's world: its client and its two tokens, gone only with it.
    expect(await rowsNaming(sandbox.dataSource, a.clientId)).toEqual({ 'tpp_clients.clientId': 1, 'access_tokens.clientId': 2 });
    // The scenario's rows, found through its PSU: its accounts (their balances and transactions with them).
    expect(await sandbox.dataSource.getRepository('accounts').countBy({ scenarioId })).toBe(0);
    expect((await a.client.send('get', '/sandbox/clock').expect(200)).body).toEqual({ today: TODAY });
    expect((await a.client.send('get', '/sandbox/conditions').expect(200)).body).toEqual({ maintenance: false, delayMs: 0 });
    await a.client.send('delete', `/sandbox/scenarios/${scenarioId}`).expect(404);
    // The fixtures are still there for A, and B's world is untouched.
    expect((await a.client.send('get', `/v1/consents/${VALID_CONSENT}/status`).expect(200)).body).toEqual({ consentStatus: 'valid' });
    expect(await rowsNaming(sandbox.dataSource, b.clientId)).toEqual(before);
    expect((await b.client.send('get', `/v1/consents/${theirs.consentId}/status`).expect(200)).body).toEqual({ consentStatus: 'received' });
    expect((await b.client.send('get', `${SEPA}/${theirs.paymentId}/status`).expect(200)).body).toEqual({ transactionStatus: 'RCVD' });
    expect((await b.client.send('get', '/sandbox/clock').expect(200)).body).toEqual({ today: '2026-03-25' });
  });

  it('a deletion leaves no row of the world in any table, and neither its token nor its certificate speaks for it', async () => {
    await populate(a);
    const certificate = await issuedCertificate(sandbox.http, folder, { type: 'QSEAL', organisationName: 'A', roles: ['PSP_AI'] }, a.token);
    const signed = () => tokenless(sandbox.http, certificate);
    const before = await signed();
    expect(before.status).toBe(200);
    await request(sandbox.http).delete(`/register/${a.clientId}`).set('Authorization', `Bearer ${a.registrationToken}`).expect(204);
    expect(await rowsNaming(sandbox.dataSource, a.clientId)).toEqual({});
    expect((await a.client.send('get', '/sandbox/clock').expect(401)).body.tppMessages[0].code).toBe('TOKEN_INVALID');
    // Revoked and no one's: not the deleted client's any more (its clock, back at the bank's today, would only find it not yet valid).
    expect((await signed().expect(401)).body).toEqualBody(OF_NO_CLIENT);
    // B goes on as before.
    expect((await b.client.send('get', `/v1/consents/${theirs.consentId}/status`).expect(200)).body).toEqual({ consentStatus: 'received' });
  });

  it("a certificate no client had, used without a token, then named by a registration: the new client's at its next request", async () => {
    // Issued to no one, as `npm run certificate` issues one (the app's own service, as that command calls it).
    const made = await sandbox.app
      .get(CertificatesService)
      .issue({ type: 'QSEAL', organisationName: 'Later TPP', roles: ['PSP_AI'] }, World.open, 'Later TPP');
    const keyFile = join(folder, `${made.serialNumber}.key`);
    writeFileSync(keyFile, made.privateKey);
    const certificate = { ...made, keyFile };
    const signed = () => tokenless(sandbox.http, certificate);
    expect((await signed().expect(401)).body).toEqualBody(OF_NO_CLIENT);
    const registered = (
      await request(sandbox.http)
        .post('/register')
        .send({ client_name: 'Later TPP', redirect_uris: ['https://tpp.example/cb'], certificate: made.certificate })
        .expect(201)
    ).body as { client_id: string; client_secret: string };
    // What the client's token is answered, its certificate is now answered too.
    const client = await worldClient(sandbox.http, registered.client_id, registered.client_secret, PSU_IP);
    const byToken = await client.send('get', '/v1/accounts', undefined, { 'Consent-ID': VALID_CONSENT }).expect(200);
    expect((await signed().expect(200)).body).toEqual(byToken.body);
  });
});

describe('a reset of the open world (AUTH_MODE=open)', () => {
  const sandbox = useSandbox();

  it("forgets what was created, keeps the bank's fixtures, and puts the clock back", async () => {
    const consentId = await allAccountsConsent(sandbox.http);
    await request(sandbox.http).post('/sandbox/clock/advance').send({ days: 3 }).expect(200);
    const reset = await request(sandbox.http).post('/sandbox/world/reset').expect(200);
    expect(reset.body).toEqual({ today: TODAY, forgotten: expect.any(Number) });
    expect(
      (await request(sandbox.http).get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(403)).body.tppMessages[0].code,
    ).toBe('CONSENT_UNKNOWN');
    expect((await request(sandbox.http).get(`/v1/consents/${VALID_CONSENT}/status`).set(tppHeaders()).expect(200)).body).toEqual({
      consentStatus: 'valid',
    });
    await request(sandbox.http)
      .get('/v1/accounts')
      .set(tppHeaders({ 'Consent-ID': VALID_CONSENT }))
      .expect(200);
  });
});

describe('WORLD_MAX_RESOURCES: what one world stores is bounded, another world goes on', () => {
  const sandbox = useSandbox({ AUTH_MODE: 'strict', SCA_MODE: 'redirect', WORLD_MAX_RESOURCES: '4' });

  it('refuses the creation past the quota with 429 naming it and how to make room, stores nothing, and creates again after a reset', async () => {
    const [a, b] = [await register(sandbox.http, 'A'), await register(sandbox.http, 'B')];
    for (let count = 0; count < 3; count++) await a.client.send('post', '/v1/consents', consentBody).expect(CREATED);
    await a.client.send('post', SEPA, sepaPayment('1.00')).expect(CREATED);
    const full = {
      tppMessages: [
        {
          category: 'ERROR',
          code: 'ACCESS_EXCEEDED',
          path: null,
          text: '{sensitive} XS2A075E: this world stores 4 resources, its quota (WORLD_MAX_RESOURCES): make room with POST /sandbox/world/reset, a restore of an earlier snapshot (POST /sandbox/world/snapshots/{snapshotId}/restore), or by deleting what it no longer needs',
        },
      ],
      _links: null,
    };
    expect((await a.client.send('post', '/v1/consents', consentBody).expect(429)).body).toEqual(full);
    expect((await a.client.send('post', SEPA, sepaPayment('1.00')).expect(429)).body).toEqual(full);
    expect((await a.client.send('post', '/sandbox/scenarios', { accounts: [{ name: 'Full' }] }).expect(429)).body).toEqual(full);
    expect(await sandbox.dataSource.getRepository('consents').countBy({ ownerId: a.clientId })).toBe(3);
    await b.client.send('post', '/v1/consents', consentBody).expect(CREATED);
    await a.client.send('post', '/sandbox/world/reset').expect(200);
    await a.client.send('post', '/v1/consents', consentBody).expect(CREATED);
  });
});

describe('WORLD_MAX_RESOURCES in AUTH_MODE=open', () => {
  const sandbox = useSandbox({ WORLD_MAX_RESOURCES: '1' });

  it("bounds no client's world: the open world is its one user's", async () => {
    await allAccountsConsent(sandbox.http);
    await allAccountsConsent(sandbox.http);
  });
});

describe('WORLD_IDLE_DAYS: a registered client whose world is unused that long goes with it', () => {
  const database = temporaryDatabase();
  afterAll(() => removeDatabase(database));

  it('is deleted, world and all, at the next start (and every hour); a client used since, and the fixture clients, stay', async () => {
    let sandbox = await startSandbox({ AUTH_MODE: 'strict', WORLD_IDLE_DAYS: '30' }, database);
    const [idle, busy] = [await register(sandbox.http, 'Idle'), await register(sandbox.http, 'Busy')];
    await idle.client.send('post', '/v1/consents', consentBody).expect(CREATED);
    await busy.client.send('post', '/v1/consents', consentBody).expect(CREATED);
    const used = await sandbox.dataSource.getRepository(TppClient).findOneByOrFail({ clientId: idle.clientId });
    expect(used.lastUsedOn).toBe(new Date().toISOString().slice(0, 10));
    // 31 days on for one of them: as if its world had answered nothing since.
    const longAgo = new Date(Date.now() - 31 * 86_400_000).toISOString();
    await sandbox.dataSource
      .getRepository(TppClient)
      .update({ clientId: idle.clientId }, { lastUsedOn: longAgo.slice(0, 10), registeredAt: longAgo });
    await sandbox.close();
    sandbox = await startSandbox({ AUTH_MODE: 'strict', WORLD_IDLE_DAYS: '30' }, database);
    try {
      expect(await rowsNaming(sandbox.dataSource, idle.clientId)).toEqual({});
      expect(await sandbox.dataSource.getRepository(TppClient).countBy({ clientId: busy.clientId })).toBe(1);
      expect(await sandbox.dataSource.getRepository(TppClient).countBy({ clientId: 'sandbox-tpp' })).toBe(1);
    } finally {
      await sandbox.close();
    }
  });
});

describe('100 CI workers that register, work and delete themselves', () => {
  // Their registrations all come from one address: more than the default allows in an hour.
  const sandbox = useSandbox({ AUTH_MODE: 'strict', REGISTRATIONS_PER_HOUR: '1000' });

  /** Rows of every table some world's rows are in (the registration count by address stays for its hour). */
  const worldRows = async () => {
    let rows = 0;
    for (const { target, tableName } of sandbox.dataSource.entityMetadatas)
      if (tableName !== 'registration_windows') rows += await sandbox.dataSource.getRepository(target).count();
    return rows;
  };

  it("leave the database's row count where it was before them", async () => {
    const before = await worldRows();
    const worker = async (number: number) => {
      const { client, clientId, registrationToken } = await register(sandbox.http, `worker ${number}`);
      await client.send('post', '/v1/consents', consentBody).expect(CREATED);
      await client.send('post', SEPA, sepaPayment('1.00')).expect(CREATED);
      await client
        .send('post', '/sandbox/scenarios', {
          accounts: [{ name: 'Worker', balances: { interimAvailable: '1.00', forwardAvailable: '1.00' } }],
        })
        .expect(201);
      await client.send('post', '/sandbox/clock/advance', { days: 5 }).expect(200);
      await request(sandbox.http).delete(`/register/${clientId}`).set('Authorization', `Bearer ${registrationToken}`).expect(204);
    };
    for (let batch = 0; batch < 100; batch += 20) await Promise.all(Array.from({ length: 20 }, (_, index) => worker(batch + index)));
    expect(await worldRows()).toBe(before);
    // 100 registrations (each secret hashed), tokens and 500 requests: 25 to over 30 s on PostgreSQL beside the Chromium pass (CI run 24).
  }, 120_000);

  it("a deletion racing its own world's requests answers them 2xx or 401, never 5xx, and leaves no row of the world", async () => {
    const before = await worldRows();
    const { client, clientId, registrationToken } = await register(sandbox.http, 'racing');
    await client.send('post', SEPA, sepaPayment('1.00')).expect(CREATED);
    const requests = [
      ...Array.from({ length: 15 }, () => client.send('post', SEPA, sepaPayment('1.00'))),
      ...Array.from({ length: 5 }, () => client.send('post', '/v1/consents', consentBody)),
      client.send('post', '/sandbox/clock/advance', { days: 1 }),
      request(sandbox.http).delete(`/register/${clientId}`).set('Authorization', `Bearer ${registrationToken}`),
      ...Array.from({ length: 10 }, () => client.send('post', SEPA, sepaPayment('1.00'))),
    ];
    const statuses = (await Promise.all(requests)).map(({ status }) => status);
    expect(statuses.filter((status) => ![200, 201, 204, 401].includes(status))).toEqual([]);
    expect(await worldRows()).toBe(before);
  });
});
