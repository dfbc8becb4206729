import { createHash } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AccessToken } from '../src/oauth/client.entity';
import { Authorisation } from '../src/authorisation/authorisation.entity';
import { SandboxClock } from '../src/clock/sandbox-clock.entity';
import { Store } from '../src/database/store';
import { Payment } from '../src/payment-initiation/payment.entity';
import { secondConnection } from './support/engine';
import { CREATED } from './support/profile';
import { sepaPayment } from './support/fixtures';
import { tppHeaders, useSandbox } from './support/sandbox';

/**
 * On SQLite the app has one connection, and a GroupCommit batch keeps a transaction open on it
 * across awaits. A write made beside it, rather than through it, would land in that batch's
 * open savepoint: answered before the batch commits, and undone if the batch's write fails.
 * Here each write is made while another write is held open (as a write that waited for
 * something else would hold it), which then fails; on PostgreSQL the two are transactions apart.
 */
describe('every write answered 2xx is committed, whatever a concurrent write does', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });
  const http = () => request(sandbox.http);
  /** A second connection sees only what is committed. */
  let committed: DataSource;
  beforeAll(async () => {
    committed = await secondConnection(sandbox.database);
  });
  afterAll(() => committed.destroy());
  afterEach(() => jest.restoreAllMocks());

  const paymentHeaders = () => tppHeaders({ 'PSU-IP-Address': '192.0.2.10' });

  /**
   * Sends `write` while a batch is open in its savepoint, and makes that batch's write fail once
   * `write` is answered, or has queued its own write (which then waits for the batch).
   */
  async function besideFailingBatch(write: () => request.Test): Promise<request.Response> {
    const writes = sandbox.app.get(Store);
    let inside!: () => void;
    let release!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const failing = writes.write(async () => {
      inside();
      await released;
      throw new Error('this write is refused');
    });
    await entered;
    const queued = new Promise<void>((resolve) => {
      const run = writes.write.bind(writes);
      jest.spyOn(writes, 'write').mockImplementation((work) => {
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
    expect(await committed.getRepository(AccessToken).findOne({ select: { clientId: true }, where: { tokenHash } })).toEqual({
      clientId: 'sandbox-tpp',
    });
  });

  const SEPA = '/v1/payments/sepa-credit-transfers';
  const consentBody = {
    access: { availableAccounts: 'allAccounts' },
    recurringIndicator: true,
    combinedServiceIndicator: false,
    validUntil: '2026-06-30',
    frequencyPerDay: 4,
  };
  it.each([
    [
      'consent',
      async () => `/v1/consents/${(await http().post('/v1/consents').set(tppHeaders()).send(consentBody).expect(CREATED)).body.consentId}`,
    ],
    [
      'payment',
      async () => `${SEPA}/${(await http().post(SEPA).set(paymentHeaders()).send(sepaPayment('10.00')).expect(CREATED)).body.paymentId}`,
    ],
  ])('an authorisation of a %s started', async (kind, create) => {
    const resource = await create();
    const response = await besideFailingBatch(() => http().post(`${resource}/authorisations`).set(tppHeaders()).send({}));
    expect(response.status).toBe(201);
    const id = response.body.authorisationId;
    expect(
      await committed.getRepository(Authorisation).findOne({ select: { kind: true, resourceId: true, status: true }, where: { id } }),
    ).toEqual({
      kind,
      resourceId: resource.split('/').at(-1),
      status: 'received',
    });
  });

  it('the clock moved, and the pending payment that came due with it executed', async () => {
    const body = sepaPayment('10.00', { requestedExecutionDate: '2026-03-20' });
    const { paymentId } = (await http().post(SEPA).set(paymentHeaders()).send(body).expect(CREATED)).body;
    await http().post(`/sandbox/sca/payments/${paymentId}`).send({ psuId: 'georg.mustermann', decision: 'approve' }).expect(200);
    const payment = () => committed.getRepository(Payment).findOne({ select: { status: true }, where: { id: paymentId } });
    expect(await payment()).toEqual({ status: 'PDNG' });
    const response = await besideFailingBatch(() => http().put('/sandbox/clock').send({ today: '2026-03-20' }));
    expect(response.status).toBe(200);
    expect(await committed.getRepository(SandboxClock).find({ select: { today: true } })).toEqual([{ today: '2026-03-20' }]);
    expect(await payment()).toEqual({ status: 'ACSP' });
  });
});
