import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import request from 'supertest';
import { CREATED } from './support/profile';
import { GroupCommit } from '../src/database/group-commit';
import { sepaPayment } from './support/fixtures';
import { tppHeaders, useSandbox } from './support/sandbox';

/**
 * The app has one SQLite connection, and a GroupCommit batch keeps a transaction open on it
 * across awaits. A write made beside it, rather than through it, would land in that batch's
 * open savepoint: answered before the batch commits, and undone if the batch's write fails.
 * Here each write is made while a batch is held open (as a write that waited for something
 * else would hold it), whose own write then fails.
 */
describe('every write answered 2xx is committed, whatever a concurrent write does', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });
  const http = () => request(sandbox.http);
  /** A second connection sees only what is committed. */
  let committed: Database.Database;
  beforeAll(() => {
    committed = new Database(sandbox.databasePath, { readonly: true });
  });
  afterAll(() => committed.close());
  afterEach(() => jest.restoreAllMocks());

  const paymentHeaders = () => tppHeaders({ 'PSU-IP-Address': '192.0.2.10' });
  const row = (sql: string, ...values: string[]) => committed.prepare(sql).get(...values);

  /**
   * Sends `write` while a batch is open in its savepoint, and makes that batch's write fail once
   * `write` is answered, or has queued its own write (which then waits for the batch).
   */
  async function besideFailingBatch(write: () => request.Test): Promise<request.Response> {
    const writes = sandbox.app.get(GroupCommit);
    let inside!: () => void;
    let release!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const failing = writes.run(async () => {
      inside();
      await released;
      throw new Error('this write is refused');
    });
    await entered;
    const queued = new Promise<void>((resolve) => {
      const run = writes.run.bind(writes);
      jest.spyOn(writes, 'run').mockImplementation((work) => {
        resolve();
        return run(work);
      });
    });
    const answer = write().then((response) => response);
    await Promise.race([answer, queued]);
    release();
    await expect(failing).rejects.toThrow('this write is refused');
    return answer;
  }

  it('a token issued', async () => {
    const response = await besideFailingBatch(() =>
      http().post('/oauth2/token').auth('sandbox-tpp', 'sandbox-secret').type('form').send('grant_type=client_credentials'),
    );
    expect(response.status).toBe(200);
    const tokenHash = createHash('sha256').update(response.body.access_token).digest('hex');
    expect(row('SELECT clientId FROM access_tokens WHERE tokenHash = ?', tokenHash)).toEqual({ clientId: 'sandbox-tpp' });
  });

  const SEPA = '/v1/payments/sepa-credit-transfers';
  const consentBody = { access: { availableAccounts: 'allAccounts' }, recurringIndicator: true, validUntil: '2026-06-30', frequencyPerDay: 4 };
  it.each([
    ['consent', async () => `/v1/consents/${(await http().post('/v1/consents').set(tppHeaders()).send(consentBody).expect(CREATED)).body.consentId}`],
    ['payment', async () => `${SEPA}/${(await http().post(SEPA).set(paymentHeaders()).send(sepaPayment('10.00')).expect(CREATED)).body.paymentId}`],
  ])('an authorisation of a %s started', async (kind, create) => {
    const resource = await create();
    const response = await besideFailingBatch(() => http().post(`${resource}/authorisations`).set(tppHeaders()).send({}));
    expect(response.status).toBe(201);
    expect(row('SELECT kind, resourceId, status FROM authorisations WHERE id = ?', response.body.authorisationId)).toEqual({
      kind,
      resourceId: resource.split('/').at(-1),
      status: 'received',
    });
  });

  it('the clock moved, and the pending payment that came due with it executed', async () => {
    const body = sepaPayment('10.00', { requestedExecutionDate: '2026-03-20' });
    const { paymentId } = (await http().post(SEPA).set(paymentHeaders()).send(body).expect(CREATED)).body;
    await http().post(`/sandbox/sca/payments/${paymentId}`).send({ psuId: 'georg.mustermann', decision: 'approve' }).expect(200);
    expect(row('SELECT status FROM payments WHERE id = ?', paymentId)).toEqual({ status: 'PDNG' });
    const response = await besideFailingBatch(() => http().put('/sandbox/clock').send({ today: '2026-03-20' }));
    expect(response.status).toBe(200);
    expect(row('SELECT today FROM sandbox_clock')).toEqual({ today: '2026-03-20' });
    expect(row('SELECT status FROM payments WHERE id = ?', paymentId)).toEqual({ status: 'ACSP' });
  });
});
