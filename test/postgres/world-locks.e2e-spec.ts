import request from 'supertest';
import type { App } from 'supertest/types';
import type { DataSource } from 'typeorm';
import { secondConnection } from '../support/engine';
import { sepaPayment } from '../support/fixtures';
import { registerClient, removeDatabase, Sandbox, startSandbox, temporaryDatabase, tppHeaders } from '../support/sandbox';

/** A registered client with a scenario account, and a way to send its requests. */
async function world(http: App, name: string) {
  const { clientId, token } = await registerClient(http, name);
  const as = tppHeaders({ Authorization: `Bearer ${token}`, 'PSU-IP-Address': '192.0.2.10' });
  const send = (method: 'post' | 'put', path: string, body: object) => request(http)[method](path).set(as).send(body);
  const scenario = (
    await send('post', '/sandbox/scenarios', {
      accounts: [{ name, balances: { interimAvailable: '100000.00', forwardAvailable: '100000.00' } }],
    }).expect(201)
  ).body;
  /** A payment from the scenario account (a periodic one with `terms`), waiting for the holder. */
  const pay = async (path = '/v1/payments/sepa-credit-transfers', terms: object = {}) =>
    (await send('post', path, { ...sepaPayment('10.00', { debtorAccount: { iban: scenario.accounts[0].iban } }), ...terms }).expect(200))
      .body.paymentId as string;
  const read = (path: string) => request(http).get(path).set(as);
  /** The holder's approval, which books the payment. */
  const approve = (paymentId: string) => send('post', `/sandbox/sca/payments/${paymentId}`, { psuId: scenario.psuId, decision: 'approve' });
  return { clientId, send, read, pay, approve };
}

/**
 * A fair share on PostgreSQL (docs/scenarios-and-clock.md, "The sandbox clock"): a world's clock
 * moves are bounded under the clock's row lock, from what is pending when each really starts; each
 * world books under a ledger lock of its own, so one world's held ledger (a long catch-up; here a
 * transaction that holds its lock) holds no other world's bookings.
 */
describe("a world's clock moves sent at once are bounded one after the other (PostgreSQL)", () => {
  const database = temporaryDatabase();
  let sandbox: Sandbox;
  let holder: DataSource;
  beforeAll(async () => {
    sandbox = await startSandbox({ AUTH_MODE: 'strict', SCA_MODE: 'redirect' }, database);
    holder = await secondConnection(database);
  });
  afterAll(async () => {
    await holder.destroy();
    await sandbox.close();
    await removeDatabase(database);
  });

  /** Holds `sql` in a transaction of another connection until `work` has seen what it needs. */
  async function holding<T>(sql: string, parameters: unknown[], work: () => Promise<T>): Promise<T> {
    const session = holder.createQueryRunner();
    await session.startTransaction();
    await session.query(sql, parameters);
    try {
      return await work();
    } finally {
      await session.commitTransaction();
      await session.release();
    }
  }

  it('refuses the move that would take what is pending past the bound: each is bounded when it takes the clock, not when it was sent', async () => {
    const mover = await world(sandbox.http, 'Mover');
    await mover.send('put', '/sandbox/clock', { today: '2026-04-03' }).expect(200);
    // Two daily orders: a move of 3,000 days executes 6,000 instalments; three such moves fit the bound (20,000), four do not.
    for (let count = 0; count < 2; count++)
      await mover
        .approve(await mover.pay('/v1/periodic-payments/sepa-credit-transfers', { startDate: '2026-04-03', frequency: 'Daily' }))
        .expect(200);
    // The clock's row held: the moves pass their checks of the request and wait for it, as moves sent at once do.
    const moves = await holding('SELECT * FROM sandbox_clock WHERE world = $1 FOR UPDATE', [mover.clientId], async () => {
      const sent = [0, 1, 2, 3].map(() => mover.send('post', '/sandbox/clock/advance', { days: 3000 }).then((answer) => answer));
      while (Number((await holder.query('SELECT count(*) AS waiting FROM pg_locks WHERE NOT granted'))[0].waiting) < 4)
        await new Promise((resolve) => setTimeout(resolve, 20));
      return sent;
    });
    // Each is bounded from what is pending when it takes the row: the fourth would take it to 24,000. Before, all four were
    // bounded from the date they all saw, and ran 24,000 instalments in one catch-up.
    expect((await Promise.all(moves)).map(({ status }) => status).sort()).toEqual([200, 200, 200, 400]);
  });
});

/** The ledger: SCA_MODE=auto, where a payment's first read authorises and books it (docs/behaviour.md). */
describe("one world's held ledger holds no other world's bookings (PostgreSQL)", () => {
  const database = temporaryDatabase();
  let sandbox: Sandbox;
  let holder: DataSource;
  beforeAll(async () => {
    sandbox = await startSandbox({ AUTH_MODE: 'strict', SCA_MODE: 'auto' }, database);
    holder = await secondConnection(database);
  });
  afterAll(async () => {
    await holder.destroy();
    await sandbox.close();
    await removeDatabase(database);
  });

  it("books B's payment while A's ledger is held, and A's once it is released", async () => {
    const [a, b] = [await world(sandbox.http, 'A'), await world(sandbox.http, 'B')];
    const [ours, theirs] = [await a.pay(), await b.pay()];
    const status = (of: typeof a, paymentId: string) => of.read(`/v1/payments/sepa-credit-transfers/${paymentId}/status`);
    const session = holder.createQueryRunner();
    await session.startTransaction();
    await session.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`world:${a.clientId}`]);
    let aAnswered = false;
    const aBooks = status(a, ours).then((answer) => ((aAnswered = true), answer.body));
    // B's first read authorises and books its payment under B's lock: answered while A's is held.
    expect((await status(b, theirs).expect(200)).body).toEqual({ transactionStatus: 'ACSP' });
    expect(aAnswered).toBe(false);
    await session.commitTransaction();
    await session.release();
    expect(await aBooks).toEqual({ transactionStatus: 'ACSP' });
  });
});
