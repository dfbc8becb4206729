import request from 'supertest';
import { cancellationStart, CREATED } from './support/profile';
import { Consent } from '../src/consent/consent.entity';
import { Payment } from '../src/payment-initiation/payment.entity';
import { MARIANNE, sepaPayment } from './support/fixtures';
import { removeDatabase, startSandbox, TODAY, tppError, tppHeaders, useSandbox } from './support/sandbox';
import { SandboxClock } from '../src/clock/sandbox-clock.entity';

const consentRequest = {
  access: { availableAccounts: 'allAccounts' },
  recurringIndicator: true,
  combinedServiceIndicator: false,
  validUntil: '2026-03-20',
  frequencyPerDay: 4,
};
const payment = (extra: object) => sepaPayment('100.00', extra);

describe('the sandbox clock', () => {
  const sandbox = useSandbox();
  const setClock = (today: string) => request(sandbox.http).put('/sandbox/clock').send({ today }).expect(200);
  const advance = (days: number) => request(sandbox.http).post('/sandbox/clock/advance').send({ days }).expect(200);
  const get = (path: string, headers: Record<string, string> = {}) => request(sandbox.http).get(path).set(tppHeaders(headers));
  const stored = <T extends Consent | Payment>(entity: new () => T, id: string) =>
    sandbox.dataSource.getRepository(entity).findOneByOrFail({ id } as never);

  it('starts at SANDBOX_DATE, is set by PUT and moved by advance', async () => {
    expect((await request(sandbox.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: TODAY });
    expect((await setClock('2026-03-17')).body).toEqualBody({ today: '2026-03-17' });
    expect((await advance(15)).body).toEqualBody({ today: '2026-04-01' });
    expect((await request(sandbox.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-04-01' });
    await setClock(TODAY);
  });

  it('expires a consent exactly after its validUntil, without waiting for a read', async () => {
    await setClock(TODAY);
    const { consentId } = (await request(sandbox.http).post('/v1/consents').set(tppHeaders()).send(consentRequest).expect(CREATED)).body;
    await setClock('2026-03-20');
    expect((await stored(Consent, consentId)).status).toBe('valid');
    await get('/v1/accounts', { 'Consent-ID': consentId }).expect(200);

    await advance(1);
    expect(await stored(Consent, consentId)).toMatchObject({ status: 'expired', lastActionDate: '2026-03-21' });
    expect((await get(`/v1/consents/${consentId}/status`).expect(200)).body).toEqualBody({ consentStatus: 'expired' });
    const accounts = await get('/v1/accounts', { 'Consent-ID': consentId }).expect(401);
    expect(accounts.body).toEqualBody(tppError('CONSENT_EXPIRED', `{sensitive} XS2A005E: consent ${consentId} expired`));
    const transactions = await get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=both`, { 'Consent-ID': consentId }).expect(401);
    expect(transactions.body).toEqualBody(tppError('CONSENT_EXPIRED', `{sensitive} XS2A004E: consent ${consentId} expired`));

    await setClock(TODAY); // back in time: expired stays expired
    expect((await get(`/v1/consents/${consentId}/status`).expect(200)).body).toEqualBody({ consentStatus: 'expired' });
  });

  it.each([
    // Executed, a single payment can no longer be cancelled; a periodic one can while instalments are to come (docs/living-bank.md).
    ['/v1/payments/sepa-credit-transfers', payment({ requestedExecutionDate: '2026-03-20' }), 405],
    ['/v1/periodic-payments/sepa-credit-transfers', { ...payment({}), startDate: '2026-03-20', frequency: 'Monthly' }, 202],
  ])('executes a future-dated payment on its date (%s)', async (path, body, cancelStatus) => {
    await setClock(TODAY);
    const { paymentId } = (
      await request(sandbox.http)
        .post(path)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(body)
        .expect(CREATED)
    ).body;
    expect((await get(`${path}/${paymentId}/status`).expect(200)).body).toEqualBody({ transactionStatus: 'PDNG' });

    await setClock('2026-03-19');
    expect((await stored(Payment, paymentId)).status).toBe('PDNG');
    await advance(1);
    expect((await stored(Payment, paymentId)).status).toBe('ACSP');
    expect((await get(`${path}/${paymentId}/status`).expect(200)).body).toEqualBody({ transactionStatus: 'ACSP' });
    const cancel = await request(sandbox.http).delete(`${path}/${paymentId}`).set(tppHeaders()).expect(cancelStatus);
    if (cancelStatus === 405) expect(cancel.body.tppMessages[0].code).toBe('CANCELLATION_INVALID');
    else expect(cancel.body).toEqualBody({ transactionStatus: 'ACSP', scaMethods: [], _links: cancellationStart(`${path}/${paymentId}`) });
  });

  it('a payment read after its date has come executes on that read too', async () => {
    await setClock(TODAY);
    const path = '/v1/payments/sepa-credit-transfers';
    const { paymentId } = (
      await request(sandbox.http)
        .post(path)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(payment({ requestedExecutionDate: '2026-03-16' }))
        .expect(CREATED)
    ).body;
    await setClock('2026-03-16'); // read first on the day itself: SCA and execution in one go
    expect((await get(`${path}/${paymentId}/status`).expect(200)).body).toEqualBody({ transactionStatus: 'ACSP' });
  });

  it('every date rule reads it: an execution date before the sandbox date is refused', async () => {
    await setClock('2026-04-01');
    const response = await request(sandbox.http)
      .post('/v1/payments/sepa-credit-transfers')
      .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
      .send(payment({ requestedExecutionDate: '2026-03-31' }))
      .expect(400);
    expect(response.body).toEqualBody(
      tppError(
        'EXECUTION_DATE_INVALID',
        '{sensitive} XS2A019E: requestedExecutionDate 2026-03-31 is before today (2026-04-01)',
        'requestedExecutionDate',
      ),
    );
    await setClock(TODAY);
  });

  it.each([
    [
      'put',
      '/sandbox/clock',
      { today: '2026-02-30' },
      'today',
      'today must be a real date written YYYY-MM-DD, from 1000-01-01 to 9999-12-31',
    ],
    ['put', '/sandbox/clock', {}, 'today', 'today is required'],
    ['post', '/sandbox/clock/advance', { days: 0 }, 'days', 'days must not be less than 1'],
    ['post', '/sandbox/clock/advance', { days: '3' }, 'days', 'days must be an integer number'],
  ])('%s %s %j: 400 FORMAT_ERROR, the clock unchanged', async (method, path, body, field, description) => {
    const before = (await request(sandbox.http).get('/sandbox/clock').expect(200)).body;
    const response = await request(sandbox.http)[method as 'put'](path).send(body).expect(400);
    expect(response.body).toEqualBody(tppError('FORMAT_ERROR', `{sensitive} XS2A001E: ${description}`, field));
    expect((await request(sandbox.http).get('/sandbox/clock').expect(200)).body).toEqualBody(before);
  });

  it('150 concurrent one-day advances move the clock 150 days: each moves it from where the one before left it', async () => {
    await setClock(TODAY);
    const answers = await Promise.all(
      Array.from({ length: 150 }, () => request(sandbox.http).post('/sandbox/clock/advance').send({ days: 1 })),
    );
    expect(answers.map(({ status }) => status)).toEqual(Array(150).fill(200));
    // Every answer names the date its own move reached: 150 different days, one after another.
    const reached = answers.map(({ body }) => body.today as string).sort();
    expect(new Set(reached).size).toBe(150);
    expect(reached.at(-1)).toBe('2026-08-12');
    expect((await request(sandbox.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-08-12' });
    const [{ today }] = await sandbox.dataSource.getRepository(SandboxClock).find();
    expect(today).toBe('2026-08-12');
    await setClock(TODAY);
  });

  it('a body sent as a form, not as JSON: 400 FORMAT_ERROR naming Content-Type, the clock unchanged', async () => {
    const before = (await request(sandbox.http).get('/sandbox/clock').expect(200)).body;
    const response = await request(sandbox.http).post('/sandbox/clock/advance').type('form').send({ days: 3 }).expect(400);
    expect(response.body).toEqualBody(
      tppError('FORMAT_ERROR', '{sensitive} XS2A001E: the body must be JSON, sent with Content-Type: application/json', 'Content-Type'),
    );
    expect((await request(sandbox.http).get('/sandbox/clock').expect(200)).body).toEqualBody(before);
  });
});

describe('the sandbox clock in SCA_MODE=redirect', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });

  it('a consent that expires before the holder decides: expired, its authorisation failed, nothing left to approve', async () => {
    const { consentId } = (await request(sandbox.http).post('/v1/consents').set(tppHeaders()).send(consentRequest).expect(CREATED)).body;
    await request(sandbox.http).post('/sandbox/clock/advance').send({ days: 6 }).expect(200);
    const status = await request(sandbox.http).get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(200);
    expect(status.body).toEqualBody({ consentStatus: 'expired' });
    const [authorisationId] = (await request(sandbox.http).get(`/v1/consents/${consentId}/authorisations`).set(tppHeaders())).body
      .authorisationIds;
    const sca = await request(sandbox.http)
      .get(`/v1/consents/${consentId}/authorisations/${authorisationId}`)
      .set(tppHeaders())
      .expect(200);
    expect(sca.body).toEqualBody({ scaStatus: 'failed' });
    await request(sandbox.http)
      .post(`/sandbox/sca/consents/${consentId}`)
      .send({ psuId: 'georg.mustermann', decision: 'approve' })
      .expect(409);
  });
});

describe('the sandbox clock across a restart', () => {
  it('keeps the date it was set to, whatever SANDBOX_DATE says', async () => {
    const first = await startSandbox();
    await request(first.http).put('/sandbox/clock').send({ today: '2027-01-31' }).expect(200);
    await first.close();
    const again = await startSandbox({ SANDBOX_DATE: '2026-01-01' }, first.database);
    try {
      expect((await request(again.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2027-01-31' });
    } finally {
      await again.close();
      await removeDatabase(first.database);
    }
  });
});

// A sandbox of its own: a jump of 8,000 years in the one above would run its standing orders past the bound of a move (docs/scenarios-and-clock.md).
describe("the sandbox clock's calendar", () => {
  const calendar = useSandbox();

  it('the calendar ends with 9999-12-31: an advance past it is 400 FORMAT_ERROR, the clock unchanged', async () => {
    await request(calendar.http).put('/sandbox/clock').send({ today: '9999-12-01' }).expect(200);
    const response = await request(calendar.http).post('/sandbox/clock/advance').send({ days: 36500 }).expect(400);
    expect(response.body).toEqualBody(
      tppError('FORMAT_ERROR', '{sensitive} XS2A001E: the clock cannot move past 9999-12-31 (it is 9999-12-01)', 'days'),
    );
    expect((await request(calendar.http).post('/sandbox/clock/advance').send({ days: 30 }).expect(200)).body).toEqualBody({
      today: '9999-12-31',
    });
    await request(calendar.http).post('/sandbox/clock/advance').send({ days: 1 }).expect(400);
    expect((await request(calendar.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '9999-12-31' });
  });
});
