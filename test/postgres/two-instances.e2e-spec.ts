import request from 'supertest';
import { CREATED } from '../support/profile';
import { sepaPayment } from '../support/fixtures';
import { removeDatabase, Sandbox, startSandbox, temporaryDatabase, tppHeaders } from '../support/sandbox';

const SEPA = '/v1/payments/sepa-credit-transfers';
const paymentHeaders = () => tppHeaders({ 'PSU-IP-Address': '192.0.2.10' });
const consentRequest = { access: { availableAccounts: 'allAccounts' }, recurringIndicator: true, validUntil: '2026-06-30', frequencyPerDay: 4 };

/**
 * Two instances of the app on one PostgreSQL database, as replicas behind a load balancer run:
 * each has its own process state (clock, token memo, pools), and they must behave as one sandbox.
 */
describe('two instances on one PostgreSQL database', () => {
  const database = temporaryDatabase();
  const settings = { SCA_MODE: 'redirect' };
  let one: Sandbox;
  let other: Sandbox;
  beforeAll(async () => {
    one = await startSandbox(settings, database);
    other = await startSandbox(settings, database);
  });
  afterAll(async () => {
    await one.close();
    await other.close();
    await removeDatabase(database);
  });

  it('a consent made on one reads on the other, with the same body', async () => {
    const { consentId } = (await request(one.http).post('/v1/consents').set(tppHeaders()).send(consentRequest).expect(CREATED)).body;
    const there = await request(other.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
    const here = await request(one.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
    expect(there.body).toEqual(here.body);
    expect(there.body.consentStatus).toBe('received');
  });

  it('a clock set on one holds on the other at once, and so do its effects', async () => {
    const { paymentId } = (await request(one.http).post(SEPA).set(paymentHeaders()).send(sepaPayment('10.00', { requestedExecutionDate: '2026-03-20' })).expect(CREATED)).body;
    await request(one.http).post(`/sandbox/sca/payments/${paymentId}`).send({ psuId: 'georg.mustermann', decision: 'approve' }).expect(200);
    await request(one.http).put('/sandbox/clock').send({ today: '2026-03-20' }).expect(200);
    expect((await request(other.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-03-20' });
    expect((await request(other.http).get(`${SEPA}/${paymentId}/status`).set(tppHeaders()).expect(200)).body).toEqualBody({ transactionStatus: 'ACSP' });
    // The other way round, and back to where the other tests start.
    await request(other.http).put('/sandbox/clock').send({ today: '2026-03-15' }).expect(200);
    expect((await request(one.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-03-15' });
  });

  it('of 20 cancellations of one payment spread over both, exactly one wins', async () => {
    const { paymentId } = (await request(one.http).post(SEPA).set(paymentHeaders()).send(sepaPayment('10.00')).expect(CREATED)).body;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => request((i % 2 ? other : one).http).delete(`${SEPA}/${paymentId}`).set(tppHeaders())));
    const statuses = answers.map(({ status }) => status).sort();
    // The winner cancels (204); the others find the payment CANC, which cannot be cancelled (405).
    expect(statuses).toEqual([204, ...Array(19).fill(405)]);
    for (const sandbox of [one, other]) {
      expect((await request(sandbox.http).get(`${SEPA}/${paymentId}/status`).set(tppHeaders()).expect(200)).body).toEqualBody({ transactionStatus: 'CANC' });
    }
  });

  it('a token issued by one is honoured by the other (AUTH_MODE=strict)', async () => {
    const strictDatabase = temporaryDatabase();
    const first = await startSandbox({ AUTH_MODE: 'strict' }, strictDatabase);
    const second = await startSandbox({ AUTH_MODE: 'strict' }, strictDatabase);
    try {
      const token = (await request(first.http).post('/oauth2/token').auth('sandbox-tpp', 'sandbox-secret').type('form').send('grant_type=client_credentials').expect(200)).body.access_token;
      const { consentId } = (await request(first.http).post('/v1/consents').set(tppHeaders({ Authorization: `Bearer ${token}` })).send(consentRequest).expect(CREATED)).body;
      await request(second.http).get(`/v1/consents/${consentId}/status`).set(tppHeaders({ Authorization: `Bearer ${token}` })).expect(200);
    } finally {
      await first.close();
      await second.close();
      await removeDatabase(strictDatabase);
    }
  });

  it('a restart of both keeps everything', async () => {
    const { consentId } = (await request(one.http).post('/v1/consents').set(tppHeaders()).send(consentRequest).expect(CREATED)).body;
    const { paymentId } = (await request(other.http).post(SEPA).set(paymentHeaders()).send(sepaPayment('12.00')).expect(CREATED)).body;
    await request(one.http).put('/sandbox/clock').send({ today: '2026-03-18' }).expect(200);
    const before = {
      consent: (await request(one.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200)).body,
      payment: (await request(other.http).get(`${SEPA}/${paymentId}`).set(tppHeaders()).expect(200)).body,
    };
    await one.close();
    await other.close();
    one = await startSandbox(settings, database);
    other = await startSandbox(settings, database);
    for (const sandbox of [other, one]) {
      expect((await request(sandbox.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200)).body).toEqual(before.consent);
      expect((await request(sandbox.http).get(`${SEPA}/${paymentId}`).set(tppHeaders()).expect(200)).body).toEqual(before.payment);
      expect((await request(sandbox.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-03-18' });
    }
  });
});
