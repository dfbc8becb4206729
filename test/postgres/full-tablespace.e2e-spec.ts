import type { DataSource } from 'typeorm';
import { CREATED } from '../support/profile';
import { prepareDatabase, secondConnection } from '../support/engine';
import { postPayments, postUntilFull } from '../support/full-disk';
import { removeDatabase, Sandbox, startSandbox, temporaryDatabase } from '../support/sandbox';

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
    await prepareDatabase(database, { tablespace: process.env.TEST_POSTGRES_SMALL_TABLESPACE });
    // Errors only: a 500 here prints its stack in the run's output (a 503 is a warning).
    sandbox = await startSandbox({ SCA_MODE: 'redirect', LOG_LEVEL: 'error' }, database);
    committed = await secondConnection(database);
  });
  afterAll(async () => {
    await committed.destroy();
    await sandbox.close();
    await removeDatabase(database);
  });

  /** 200 rows of incompressible text, about 200 KB. */
  const ROWS =
    "SELECT string_agg(md5(random()::text), '') FROM generate_series(1, 30) CROSS JOIN generate_series(1, 200) AS row GROUP BY row";

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
    // A serving instance's pool is warm. A connection opened after the fill cannot start (its
    // relcache file, which the fill's DROP TABLE invalidated, cannot be written): it answers 503,
    // and a cold pool would leave the room the fill left unused.
    await postPayments(sandbox.http, 10_000, 10);
    // Another suite's database, dropped while the tablespace is full: the drop waits for the room (engine.ts).
    const other = temporaryDatabase();
    await prepareDatabase(other);
    await fill();
    const dropped = removeDatabase(other);
    const acknowledged = await postUntilFull(sandbox.http);
    const stored: { id: string; status: string }[] = await committed.query('SELECT id, status FROM payments WHERE id = ANY($1)', [
      acknowledged,
    ]);
    expect(stored.map(({ id }) => id).sort()).toEqual([...acknowledged].sort());
    expect(new Set(stored.map(({ status }) => status))).toEqual(new Set(['RCVD']));

    // Room again: the next writes commit, with no restart, and the other database is gone.
    await committed.query('DROP TABLE filler');
    await dropped;
    expect(await committed.query('SELECT 1 FROM pg_database WHERE datname = $1', [new URL(other).pathname.slice(1)])).toEqual([]);
    for (const answer of await postPayments(sandbox.http, 1000, 5)) {
      expect(answer.status).toBe(CREATED);
      expect(await committed.query('SELECT status FROM payments WHERE id = $1', [answer.body.paymentId])).toEqual([{ status: 'RCVD' }]);
    }
  });
});
