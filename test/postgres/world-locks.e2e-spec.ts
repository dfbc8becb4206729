import request from 'supertest';
import type { App } from 'supertest/types';
import type { DataSource } from 'typeorm';
import { secondConnection } from '../support/engine';
import { sepaPayment } from '../support/fixtures';
import { registerClient, removeDatabase, Sandbox, startSandbox, temporaryDatabase, tppHeaders } from '../support/sandbox';

const SEPA = '/v1/payments/sepa-credit-transfers';

/** A registered client with a scenario account of 100.00 and a payment of 10.00 from it, not yet authorised (the first read authorises it). */
async function worldWithPayment(http: App, name: string): Promise<{ clientId: string; status: () => request.Test }> {
  const { clientId, token } = await registerClient(http, name);
  const as = tppHeaders({ Authorization: `Bearer ${token}`, 'PSU-IP-Address': '192.0.2.10' });
  const scenario = (
    await request(http)
      .post('/sandbox/scenarios')
      .set(as)
      .send({ accounts: [{ name, balances: { interimAvailable: '100.00', forwardAvailable: '100.00' } }] })
      .expect(201)
  ).body;
  const { paymentId } = (
    await request(http)
      .post(SEPA)
      .set(as)
      .send(sepaPayment('10.00', { debtorAccount: { iban: scenario.accounts[0].iban } }))
      .expect(200)
  ).body;
  return {
    clientId,
    status: () =>
      request(http)
        .get(`${SEPA}/${paymentId}/status`)
        .set(tppHeaders({ Authorization: `Bearer ${token}` })),
  };
}

/**
 * A fair share on PostgreSQL (docs/development.md, "Bookings"): each world books under a lock of
 * its own, so a world whose ledger is held (a long catch-up, here a transaction that holds its lock)
 * does not hold another world's bookings.
 */
describe("one world's ledger lock holds no other world's bookings (PostgreSQL)", () => {
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
    const [a, b] = [await worldWithPayment(sandbox.http, 'A'), await worldWithPayment(sandbox.http, 'B')];
    const session = holder.createQueryRunner();
    await session.startTransaction();
    await session.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`ledger:${a.clientId}`]);
    let aAnswered = false;
    const aBooks = a
      .status()
      .expect(200)
      .then((answer) => {
        aAnswered = true;
        return answer.body;
      });
    // B's first read authorises and books its payment under B's lock: answered while A's is held.
    expect((await b.status().expect(200)).body).toEqual({ transactionStatus: 'ACSP' });
    expect(aAnswered).toBe(false);
    await session.commitTransaction();
    await session.release();
    expect(await aBooks).toEqual({ transactionStatus: 'ACSP' });
  });
});
