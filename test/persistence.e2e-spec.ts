import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import request from 'supertest';
import { CREATED, PROFILE } from './support/profile';
import { Account, Balance, Psu, Transaction } from '../src/bank/account.entity';
import { Consent } from '../src/consent/consent.entity';
import { Payment } from '../src/payment-initiation/payment.entity';
import { MARIANNE, sepaPayment, UNKNOWN_CONSENT, VALID_CONSENT } from './support/fixtures';
import { allowUpdates, databaseSettings, prepareDatabase, refuseUpdates } from './support/engine';
import { removeDatabase, Sandbox, startSandbox, temporaryDatabase, tppError, tppHeaders, useSandbox } from './support/sandbox';
import { schemaOf } from '../src/schema/schema';
import { builtServer } from './support/server-process';
import { SERVICES } from '../src/services';

/** Every migration runs once: the core's and the registered services'. */
const MIGRATIONS = schemaOf(SERVICES).migrations.length;

// The seed script runs as a process of its own: a test of it takes seconds, more on a loaded machine (a CI run passed the 5 s default).
jest.setTimeout(30_000);

const run = promisify(execFile);
const consentBody = {
  access: { availableAccounts: 'allAccounts' },
  recurringIndicator: true,
  combinedServiceIndicator: false,
  validUntil: '2026-06-30',
  frequencyPerDay: 4,
};

async function rowCounts(sandbox: Sandbox) {
  const manager = sandbox.dataSource.manager;
  return {
    consents: await manager.count(Consent),
    fixtureConsents: await manager.count(Consent, { where: { fixture: true } }),
    accounts: await manager.count(Account),
    balances: await manager.count(Balance),
    transactions: await manager.count(Transaction),
    payments: await manager.count(Payment),
    migrations: Number((await sandbox.dataSource.query('SELECT COUNT(*) AS n FROM migrations'))[0].n),
  };
}

/** The seed script as `npm run seed` / `npm run db:reset` run it (built: the run's build), on the given file. */
async function seed(database: string, ...args: string[]) {
  await prepareDatabase(database);
  const build = builtServer();
  return run(process.execPath, [build.script('seeds/seed.js'), ...args], {
    env: { ...process.env, NODE_PATH: build.nodePath, ...databaseSettings(database), PROFILE },
  });
}

describe('persistence', () => {
  const databasePath = temporaryDatabase();
  afterAll(() => removeDatabase(databasePath));

  it('keeps every consent across restarts and never duplicates the fixtures', async () => {
    const first = await startSandbox({}, databasePath);
    const kept = await request(first.http).post('/v1/consents').set(tppHeaders()).send(consentBody).expect(CREATED);
    const deleted = await request(first.http).post('/v1/consents').set(tppHeaders()).send(consentBody).expect(CREATED);
    await request(first.http).delete(`/v1/consents/${deleted.body.consentId}`).set(tppHeaders()).expect(204);
    const before = await Promise.all(
      [kept, deleted].map(
        async (created) => (await request(first.http).get(`/v1/consents/${created.body.consentId}`).set(tppHeaders()).expect(200)).body,
      ),
    );
    const countsBefore = await rowCounts(first);
    expect(countsBefore).toEqual({
      consents: 5,
      fixtureConsents: 3,
      accounts: 5,
      balances: 10,
      transactions: 30,
      payments: 0,
      migrations: MIGRATIONS,
    });
    await first.close();

    for (let restart = 0; restart < 2; restart++) {
      const again = await startSandbox({}, databasePath);
      try {
        expect(await rowCounts(again)).toEqual(countsBefore);
        const after = await Promise.all(
          [kept, deleted].map(
            async (created) => (await request(again.http).get(`/v1/consents/${created.body.consentId}`).set(tppHeaders()).expect(200)).body,
          ),
        );
        expect(after).toEqual(before);
        expect(after.map((consent) => consent.consentStatus)).toEqual(['valid', 'terminatedByTpp']);
        await request(again.http)
          .get('/v1/accounts')
          .set(tppHeaders({ 'Consent-ID': kept.body.consentId }))
          .expect(200);
      } finally {
        await again.close();
      }
    }
  });
});

describe('a status change and the authorisations it moves', () => {
  // Redirect mode: in auto mode a read would complete SCA, itself moving the authorisations.
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });
  const headers = () => tppHeaders({ 'PSU-IP-Address': '192.0.2.10' });

  it('are committed together: a cancellation whose authorisations cannot move is rolled back whole', async () => {
    const created = await request(sandbox.http)
      .post('/v1/payments/sepa-credit-transfers')
      .set(headers())
      .send(sepaPayment('1.00'))
      .expect(CREATED);
    const path = `/v1/payments/sepa-credit-transfers/${created.body.paymentId}`;
    const read = async () => ({
      transactionStatus: (await request(sandbox.http).get(`${path}/status`).set(headers()).expect(200)).body.transactionStatus,
      scaStatus: (await request(sandbox.http).get(`${path}/authorisations/authorization_not_yet_available`).set(headers()).expect(200)).body
        .scaStatus,
    });

    // A real fault in the second step: the database refuses to move any authorisation.
    await refuseUpdates(sandbox.dataSource, 'authorisations');
    const sent = headers();
    const refused = await request(sandbox.http).delete(path).set(sent).expect(500);
    expect(refused.headers['x-request-id']).toBe(sent['X-Request-ID']);
    expect(refused.body).toEqualBody(tppError('INTERNAL_SERVER_ERROR', '{sensitive} XS2A013E: unexpected error'));
    expect(await read()).toEqual({ transactionStatus: 'RCVD', scaStatus: 'received' });

    await allowUpdates(sandbox.dataSource, 'authorisations');
    await request(sandbox.http).delete(path).set(headers()).expect(204);
    expect(await read()).toEqual({ transactionStatus: 'CANC', scaStatus: 'failed' });
  });
});

describe('the schema the migrations build', () => {
  const sandbox = useSandbox();

  it('builds every index the entities declare, and indexes a set of columns of a table once (a second index only costs every write)', async () => {
    const runner = sandbox.dataSource.createQueryRunner();
    try {
      const tables = await runner.getTables();
      const built = tables.flatMap(({ name, indices, uniques }) =>
        [...indices, ...uniques].map(({ columnNames }) => `${name} (${columnNames.join()})`),
      );
      const declared = sandbox.dataSource.entityMetadatas.flatMap(({ tableName, indices }) =>
        indices.map(({ columns }) => `${tableName} (${columns.map(({ databaseName }) => databaseName).join()})`),
      );
      expect(declared.filter((index) => !built.includes(index))).toEqual([]);
      expect(built.filter((index, at) => built.indexOf(index) !== at)).toEqual([]);
    } finally {
      await runner.release();
    }
  });
});

describe('the seed script', () => {
  const databasePath = temporaryDatabase();
  afterAll(() => removeDatabase(databasePath));

  it('migrates and seeds an empty file, then restores altered fixtures and leaves TPP consents alone', async () => {
    const { stdout } = await seed(databasePath);
    expect(stdout).toContain(`Seeded the fixtures of profile ${PROFILE} into ${databasePath}.`);

    const sandbox = await startSandbox({}, databasePath);
    const created = await request(sandbox.http).post('/v1/consents').set(tppHeaders()).send(consentBody).expect(CREATED);
    await sandbox.dataSource.getRepository(Account).update({ iban: MARIANNE }, { name: 'Someone Else' });
    await sandbox.dataSource.getRepository(Consent).update({ id: VALID_CONSENT }, { status: 'expired' });
    await sandbox.close();

    await seed(databasePath);
    const reseeded = await startSandbox({}, databasePath);
    try {
      const accounts = await request(reseeded.http)
        .get('/v1/accounts')
        .set(tppHeaders({ 'Consent-ID': VALID_CONSENT }))
        .expect(200);
      expect(accounts.body.accounts[0].name).toBe('Marianne Mustermann');
      const status = await request(reseeded.http).get(`/v1/consents/${created.body.consentId}/status`).set(tppHeaders()).expect(200);
      expect(status.body).toEqualBody({ consentStatus: 'valid' });
      expect(await rowCounts(reseeded)).toMatchObject({ consents: 4, accounts: 5, transactions: 30, migrations: MIGRATIONS });
    } finally {
      await reseeded.close();
    }
  });

  it('--reset (npm run db:reset) deletes the consents and payments TPPs created and keeps the fixtures', async () => {
    const sandbox = await startSandbox({}, databasePath);
    const created = await request(sandbox.http).post('/v1/consents').set(tppHeaders()).send(consentBody).expect(CREATED);
    const payment = await request(sandbox.http)
      .post('/v1/payments/sepa-credit-transfers')
      .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
      .send({
        debtorAccount: { iban: MARIANNE },
        instructedAmount: { currency: 'EUR', amount: '1.00' },
        creditorAccount: { iban: MARIANNE },
        creditorName: 'Me',
      })
      .expect(CREATED);
    const scenario = await request(sandbox.http)
      .post('/sandbox/scenarios')
      .send({ accounts: [{ name: 'Reset Test', balances: { interimAvailable: '1.00', forwardAvailable: '1.00' } }] })
      .expect(201);
    await sandbox.close();

    const { stdout } = await seed(databasePath, '--reset');
    expect(stdout).toContain(`Reset ${databasePath}: everything deleted, the fixtures of profile ${PROFILE} loaded.`);

    const reset = await startSandbox({}, databasePath);
    try {
      await request(reset.http).get(`/v1/consents/${created.body.consentId}`).set(tppHeaders()).expect(403);
      await request(reset.http).get(`/v1/consents/${UNKNOWN_CONSENT}`).set(tppHeaders()).expect(403);
      await request(reset.http).get(`/v1/payments/sepa-credit-transfers/${payment.body.paymentId}`).set(tppHeaders()).expect(404);
      await request(reset.http)
        .get('/v1/accounts')
        .set(tppHeaders({ 'Consent-ID': scenario.body.consentId }))
        .expect(403);
      expect(await reset.dataSource.getRepository(Psu).count()).toBe(4);
      expect(await rowCounts(reset)).toEqual({
        consents: 3,
        fixtureConsents: 3,
        accounts: 5,
        balances: 10,
        transactions: 30,
        payments: 0,
        migrations: MIGRATIONS,
      });
    } finally {
      await reset.close();
    }
  });
});
