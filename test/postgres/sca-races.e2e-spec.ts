import request from 'supertest';
import type { App } from 'supertest/types';
import { PooledTransactions } from '../../src/database/write-strategy';
import { balancesConsent, SUSANNE } from '../support/fixtures';
import { tppHeaders, useTwoInstances } from '../support/sandbox';

const EMBEDDED = { 'TPP-Redirect-Preferred': 'false' };

/**
 * Decisions sent at once over two PostgreSQL instances (issue 73, findings 1 and 2), on every path
 * a decision takes: the SCA page, PUT …/authorisations/{id} (embedded), the headless control
 * route, on consents and on a payment from a scenario account (which books, under its world's
 * lock). No answer is a 5xx, what is decided ends one way or the other, and no write ran twice:
 * every path takes its locks in one order (docs/development.md, "Lock order"), so none deadlocked.
 */
describe('SCA decisions racing over two instances', () => {
  const instances = useTwoInstances({ PROFILE: 'berlin-group', SCA_MODE: 'redirect' });
  let runs: jest.SpyInstance;
  let attempts: jest.SpyInstance;
  beforeAll(() => {
    runs = jest.spyOn(PooledTransactions.prototype, 'run');
    attempts = jest.spyOn(PooledTransactions.prototype as unknown as { attempt: () => Promise<unknown> }, 'attempt');
  });
  beforeEach(() => jest.clearAllMocks());
  // A write PostgreSQL rolled back (a deadlock, a serialisation failure) runs again: one more attempt than writes.
  afterEach(() => expect(attempts.mock.calls.length).toBe(runs.mock.calls.length));
  afterAll(() => jest.restoreAllMocks());

  /** Opens the SCA page of `kind` on `http` and posts its form with `password`. */
  const submit = async (http: App, kind: 'consents' | 'payments', id: string, password: string, psuId = 'georg.mustermann') => {
    const browser = request.agent(http);
    const page = await browser.get(`/sca/${kind}?${kind === 'consents' ? 'consent_id' : 'payment_id'}=${id}`);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    return browser.post(`/sca/${kind}`).type('form').send({ _csrf: token, id, decision: 'approve', psuId, password });
  };
  const newConsent = async (headers: Record<string, string> = {}, body: object = balancesConsent()) =>
    (
      await request(instances.one.http)
        .post('/v1/consents')
        .set(tppHeaders({ 'TPP-Redirect-URI': 'https://tpp.example/cb', ...headers }))
        .send(body)
        .expect(201)
    ).body.consentId as string;
  const consentStatus = async (consentId: string) =>
    (await request(instances.other.http).get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(200)).body.consentStatus;
  const noServerErrors = (answers: request.Response[]) =>
    expect(answers.filter(({ status }) => status >= 500).map(({ status, text }) => `${status} ${text.slice(0, 200)}`)).toEqual([]);

  /**
   * `rounds` consents, each refused two wrong passwords on the SCA page, then the third sent on
   * one instance at once with `decision` on the other: no 5xx, and each consent ends valid or rejected.
   */
  const thirdWrongRacing = async (rounds: number, decision: (consentId: string) => PromiseLike<request.Response>) => {
    for (let round = 0; round < rounds; round++) {
      const consentId = await newConsent();
      for (const guess of [1, 2]) expect((await submit(instances.one.http, 'consents', consentId, `guess-${guess}`)).status).toBe(401);
      noServerErrors(await Promise.all([submit(instances.one.http, 'consents', consentId, 'guess-3'), decision(consentId)]));
      expect(['valid', 'rejected']).toContain(await consentStatus(consentId));
    }
  };

  it('the SCA page: the third wrong password racing the right one, ten rounds; the consent ends valid or rejected', async () => {
    await thirdWrongRacing(10, (consentId) => submit(instances.other.http, 'consents', consentId, 'sandbox'));
  }, 60_000);

  it('ten wrong passwords at once spread over both, then the right one: none is lost, the consent is rejected, never valid', async () => {
    const consentId = await newConsent();
    const guesses = await Promise.all(
      Array.from({ length: 10 }, (_, guess) =>
        submit(guess % 2 ? instances.one.http : instances.other.http, 'consents', consentId, `guess-${guess}`),
      ),
    );
    // 401 while the authorisation still counts, 409 once it has failed: exactly one is the third.
    expect(guesses.map(({ status }) => status).filter((status) => ![401, 409].includes(status))).toEqual([]);
    expect(guesses.filter(({ text }) => text.includes('was wrong 3 times')).length).toBe(1);
    expect((await submit(instances.one.http, 'consents', consentId, 'sandbox')).status).toBe(409);
    expect(await consentStatus(consentId)).toBe('rejected');
  });

  it('PUT …/authorisations/{id}, embedded: the third wrong TAN racing the right one, five rounds', async () => {
    const put = (http: App, path: string, body: object) => request(http).put(path).set(tppHeaders(EMBEDDED)).send(body);
    for (let round = 0; round < 5; round++) {
      const consentId = await newConsent(
        { ...EMBEDDED, 'PSU-ID': 'susanne.mustermann' },
        { ...balancesConsent(), access: { balances: [{ iban: SUSANNE }] } },
      );
      const [authorisationId] = (
        await request(instances.one.http).get(`/v1/consents/${consentId}/authorisations`).set(tppHeaders()).expect(200)
      ).body.authorisationIds;
      const path = `/v1/consents/${consentId}/authorisations/${authorisationId}`;
      await put(instances.one.http, path, { psuData: { password: 'sandbox' } }).expect(200);
      for (const guess of ['000001', '000002']) await put(instances.one.http, path, { scaAuthenticationData: guess }).expect(401);
      noServerErrors(
        await Promise.all([
          put(instances.one.http, path, { scaAuthenticationData: '000003' }),
          put(instances.other.http, path, { scaAuthenticationData: '123456' }),
        ]),
      );
      expect(['valid', 'rejected']).toContain(await consentStatus(consentId));
    }
  }, 60_000);

  it('the headless route racing the third wrong password on the page, five rounds', async () => {
    await thirdWrongRacing(5, (consentId) =>
      request(instances.other.http).post(`/sandbox/sca/consents/${consentId}`).send({ psuId: 'georg.mustermann', decision: 'approve' }),
    );
  }, 60_000);

  it('a payment that books: the third wrong password racing the right one and the headless approval, five rounds; it executes once or not at all', async () => {
    const scenario = (
      await request(instances.one.http)
        .post('/sandbox/scenarios')
        .send({
          accounts: [
            { name: 'Payer', balances: { interimAvailable: '1000.00', forwardAvailable: '1000.00' } },
            { name: 'Payee', balances: { interimAvailable: '0.00', forwardAvailable: '0.00' } },
          ],
        })
        .expect(201)
    ).body;
    const [payer, payee] = scenario.accounts.map(({ iban }: { iban: string }) => iban);
    for (let round = 0; round < 5; round++) {
      const { paymentId } = (
        await request(instances.one.http)
          .post('/v1/payments/sepa-credit-transfers')
          .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', 'TPP-Redirect-URI': 'https://tpp.example/cb' }))
          .send({
            debtorAccount: { iban: payer },
            instructedAmount: { currency: 'EUR', amount: '10.00' },
            creditorAccount: { iban: payee },
            creditorName: 'Payee',
          })
          .expect(201)
      ).body;
      for (const guess of [1, 2])
        expect((await submit(instances.one.http, 'payments', paymentId, `guess-${guess}`, scenario.psuId)).status).toBe(401);
      noServerErrors(
        await Promise.all([
          submit(instances.one.http, 'payments', paymentId, 'guess-3', scenario.psuId),
          submit(instances.other.http, 'payments', paymentId, 'sandbox', scenario.psuId),
          request(instances.one.http).post(`/sandbox/sca/payments/${paymentId}`).send({ psuId: scenario.psuId, decision: 'approve' }),
        ]),
      );
      const { transactionStatus } = (
        await request(instances.other.http).get(`/v1/payments/sepa-credit-transfers/${paymentId}/status`).set(tppHeaders()).expect(200)
      ).body;
      expect(['ACSP', 'RJCT']).toContain(transactionStatus);
    }
    // Each executed payment booked once: what left the payer is what the payee got.
    const balance = async (iban: string) =>
      (
        await request(instances.one.http)
          .get(`/v1/accounts/${iban}/balances`)
          .set(tppHeaders({ 'Consent-ID': scenario.consentId }))
          .expect(200)
      ).body.balances.find(({ balanceType }: { balanceType: string }) => balanceType === 'interimAvailable').balanceAmount.amount;
    const [left, got] = [Number(await balance(payer)), Number(await balance(payee))];
    expect(left + got).toBe(1000);
  }, 60_000);
});
