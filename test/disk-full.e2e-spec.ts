import Database from 'better-sqlite3';
import request from 'supertest';
import { CREATED } from './support/profile';
import { DataSource } from 'typeorm';
import { postPayments, postUntilFull } from './support/full-disk';
import { tppHeaders, useSandbox } from './support/sandbox';

/**
 * A full disk, made on demand: SQLite's max_page_count caps the database file, and a write that
 * needs a page beyond it fails with SQLITE_FULL as on a full disk. A write that could not be
 * committed answers 503; every write answered 2xx is committed (a second connection reads it);
 * once there is room again, writes commit again without a restart (docs/operations.md).
 */
// It posts until the file is full, some hundreds of writes: more than the default 5 s on a loaded CI machine.
jest.setTimeout(20_000);

describe('a full disk', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });
  const SEPA = '/v1/payments/sepa-credit-transfers';
  /** A second connection sees only what is committed. */
  let committed: Database.Database;
  beforeAll(() => {
    committed = new Database(sandbox.database, { readonly: true });
  });
  afterAll(() => committed.close());

  const pragma = (sql: string) => sandbox.app.get(DataSource).query(sql) as Promise<Record<string, number>[]>;
  const stored = (paymentId: string) => committed.prepare('SELECT status FROM payments WHERE id = ?').get(paymentId);

  it('answers 503 to what it cannot commit, never 2xx, and commits again once there is room', async () => {
    const [{ page_count: pages }] = await pragma('PRAGMA page_count');
    // The cap is the connection's own: after a failed commit the sandbox opens a new connection,
    // so the disk is made full again for every round, as a real one would stay.
    const acknowledged = await postUntilFull(sandbox.http, () => pragma(`PRAGMA max_page_count = ${pages + 8}`));
    for (const paymentId of acknowledged) expect(stored(paymentId)).toEqual({ status: 'RCVD' });

    // Room again: the next writes commit, with no restart.
    await pragma('PRAGMA max_page_count = 1073741823');
    const after = await postPayments(sandbox.http, 1000, 5);
    for (const answer of after) {
      expect(answer.status).toBe(CREATED);
      expect(stored(answer.body.paymentId)).toEqual({ status: 'RCVD' });
    }
    // And each is read back by the sandbox itself, through the connection it recovered.
    const { body } = await request(sandbox.http).get(`${SEPA}/${after[0].body.paymentId}/status`).set(tppHeaders()).expect(200);
    expect(body).toEqual({ transactionStatus: 'RCVD' });
  });
});
