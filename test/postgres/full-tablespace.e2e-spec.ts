import request from 'supertest';
import type { DataSource } from 'typeorm';
import { CREATED } from '../support/profile';
import { prepareDatabase, secondConnection } from '../support/engine';
import { sepaPayment } from '../support/fixtures';
import { removeDatabase, Sandbox, startSandbox, temporaryDatabase, tppError, tppHeaders } from '../support/sandbox';

const SEPA = '/v1/payments/sepa-credit-transfers';
const paymentHeaders = () => tppHeaders({ 'PSU-IP-Address': '192.0.2.10' });
/** A remittance that fills pages quickly. */
const bulky = (index: number) => sepaPayment('1.00', { remittanceInformationStructured: { reference: `R${index}`.padEnd(35, 'x') }, endToEndIdentification: `E2E-${index}` });

/**
 * A full disk on PostgreSQL: the database lives in a tablespace on a small tmpfs
 * (TEST_POSTGRES_SMALL_TABLESPACE, made by .ci/run), which a filler table fills up. As on SQLite
 * (test/disk-full.e2e-spec.ts): what cannot be committed answers 503, every 2xx is committed, and
 * once there is room again writes commit again without a restart.
 */
describe('a full tablespace on PostgreSQL', () => {
  const database = temporaryDatabase();
  let sandbox: Sandbox;
  let committed: DataSource;
  beforeAll(async () => {
    await prepareDatabase(database, process.env.TEST_POSTGRES_SMALL_TABLESPACE);
    sandbox = await startSandbox({ SCA_MODE: 'redirect' }, database);
    committed = await secondConnection(database);
  });
  afterAll(async () => {
    await committed.destroy();
    await sandbox.close();
    await removeDatabase(database);
  });

  /** 200 rows of incompressible text, about 200 KB. */
  const ROWS = "SELECT string_agg(md5(random()::text), '') FROM generate_series(1, 30) CROSS JOIN generate_series(1, 200) AS row GROUP BY row";

  /**
   * Fills the tablespace with a filler table until it refuses a row (53100 disk_full), then drops
   * a reserve made before it: the sandbox finds about 200 KB of room, and then none.
   */
  async function fill(): Promise<void> {
    await committed.query(`CREATE TABLE reserve AS ${ROWS}`);
    await committed.query('CREATE TABLE filler (pad text)');
    for (;;) {
      try {
        await committed.query(`INSERT INTO filler ${ROWS}`);
      } catch (error) {
        expect((error as { driverError?: { code?: string } }).driverError?.code).toBe('53100');
        break;
      }
    }
    await committed.query('DROP TABLE reserve');
  }

  it('answers 503 to what it cannot commit, never 2xx, and commits again once there is room', async () => {
    await fill();
    const acknowledged: string[] = [];
    const refused: request.Response[] = [];
    // Rounds of concurrent POSTs, as a busy client sends them: the pages left with room fill first.
    for (let round = 0; round < 60 && refused.length < 20; round += 1) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, index) => request(sandbox.http).post(SEPA).set(paymentHeaders()).send(bulky(round * 10 + index))));
      for (const answer of answers) {
        if (answer.status === CREATED) acknowledged.push(answer.body.paymentId);
        else refused.push(answer);
      }
    }
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThanOrEqual(20);
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqualBody(tppError('SERVICE_UNAVAILABLE', "{sensitive} XS2A029E: the sandbox's database is full or unavailable: nothing was changed, try again later"));
    }
    const stored: { id: string; status: string }[] = await committed.query('SELECT id, status FROM payments WHERE id = ANY($1)', [acknowledged]);
    expect(stored.map(({ id }) => id).sort()).toEqual([...acknowledged].sort());
    expect(new Set(stored.map(({ status }) => status))).toEqual(new Set(['RCVD']));

    // Room again: the next writes commit, with no restart.
    await committed.query('DROP TABLE filler');
    const after = await Promise.all(Array.from({ length: 5 }, (_, index) => request(sandbox.http).post(SEPA).set(paymentHeaders()).send(bulky(1000 + index))));
    for (const answer of after) {
      expect(answer.status).toBe(CREATED);
      expect(await committed.query('SELECT status FROM payments WHERE id = $1', [answer.body.paymentId])).toEqual([{ status: 'RCVD' }]);
    }
  });
});
