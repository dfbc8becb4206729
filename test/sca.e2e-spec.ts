import request from 'supertest';
import { CREATED, locationOf, PROFILE } from './support/profile';
import {
  cardReference,
  FIXTURE_CARDS,
  ERWIN,
  FRANZ,
  GEORG,
  MARIANNE,
  NEW_RESOURCE_ID,
  reference,
  SUSANNE,
  UNKNOWN_CONSENT,
  VALID_CONSENT,
} from './support/fixtures';
import { tppError, tppHeaders, useSandbox } from './support/sandbox';

const consentRequest = (access: object) => ({
  access,
  recurringIndicator: true,
  combinedServiceIndicator: false,
  validUntil: '2026-06-30',
  frequencyPerDay: 4,
});
const payment = (amount: string, extra: object = {}) => ({
  debtorAccount: { iban: MARIANNE },
  instructedAmount: { currency: 'EUR', amount },
  creditorAccount: { iban: GEORG },
  creditorName: 'Georg Mustermann',
  ...extra,
});
const SEPA = '/v1/payments/sepa-credit-transfers';

describe('headless SCA and authorisations (SCA_MODE=redirect)', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect', PUBLIC_BASE_URL: 'http://sandbox.test' });
  const createConsent = async (access: object, headers: Record<string, string> = {}): Promise<string> =>
    (await request(sandbox.http).post('/v1/consents').set(tppHeaders(headers)).send(consentRequest(access)).expect(CREATED)).body.consentId;
  const initiate = async (body: object): Promise<string> =>
    (
      await request(sandbox.http)
        .post(SEPA)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(body)
        .expect(CREATED)
    ).body.paymentId;
  const decide = (path: string, psuId: string, decision: string) =>
    request(sandbox.http).post(`/sandbox/sca/${path}`).send({ psuId, decision });
  const get = (path: string, headers: Record<string, string> = {}) => request(sandbox.http).get(path).set(tppHeaders(headers));

  describe('consents', () => {
    it('an access list sent as null counts as absent', async () => {
      const consentId = await createConsent({ balances: null, transactions: [{ iban: GEORG }] });
      const consent = await get(`/v1/consents/${consentId}`).expect(200);
      expect(consent.body).toMatchBody({ access: { balances: [], transactions: [reference(GEORG, null)] } });
    });

    it('approve: received -> valid; the data becomes readable; the authorisation is finalised', async () => {
      const consentId = await createConsent({ balances: [{ iban: MARIANNE }], transactions: [{ iban: GEORG }] });
      const [authorisationId] = (await get(`/v1/consents/${consentId}/authorisations`).expect(200)).body.authorisationIds;
      expect((await get(`/v1/consents/${consentId}/authorisations/${authorisationId}`).expect(200)).body).toEqualBody({
        scaStatus: 'received',
      });
      await get('/v1/accounts', { 'Consent-ID': consentId }).expect(401);

      const response = await decide(`consents/${consentId}`, 'georg.mustermann', 'approve').expect(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toEqualBody({ consentStatus: 'valid' });
      expect((await get(`/v1/consents/${consentId}/status`).expect(200)).body).toEqualBody({ consentStatus: 'valid' });
      expect((await get(`/v1/consents/${consentId}/authorisations/${authorisationId}`).expect(200)).body).toEqualBody({
        scaStatus: 'finalised',
      });
      await get(`/v1/accounts/${MARIANNE}/balances`, { 'Consent-ID': consentId }).expect(200);
      await get(`/v1/accounts/${GEORG}/transactions?bookingStatus=booked`, { 'Consent-ID': consentId }).expect(200);
      await get(`/v1/accounts/${GEORG}/balances`, { 'Consent-ID': consentId }).expect(401);
    });

    it('approve an allAccounts consent: it binds exactly the accounts the PSU holds', async () => {
      const consentId = await createConsent({ availableAccounts: 'allAccounts' });
      await decide(`consents/${consentId}`, 'susanne.mustermann', 'approve').expect(200);
      const consent = await get(`/v1/consents/${consentId}`).expect(200);
      // The seed bank reads back the accounts chosen; Berlin Group the consent as asked (docs/behaviour.md, "Consent access").
      const chosen = [
        reference(FRANZ),
        reference(SUSANNE),
        ...(FIXTURE_CARDS['susanne.mustermann'] ?? []).map((maskedPan) => cardReference(maskedPan)),
      ];
      if (PROFILE === 'bank') expect(consent.body.access).toMatchObject({ accounts: chosen, availableAccounts: null });
      else expect(consent.body.access).toEqual({ availableAccounts: 'allAccounts' });
      const accounts = await get('/v1/accounts', { 'Consent-ID': consentId }).expect(200);
      expect(accounts.body.accounts.map((account: { iban: string }) => account.iban)).toEqual([FRANZ, SUSANNE]);
    });

    it('deny: received -> rejected, which reads nothing; the authorisation failed', async () => {
      const consentId = await createConsent({ availableAccounts: 'allAccounts' });
      expect((await decide(`consents/${consentId}`, 'erwin.mustermann', 'deny').expect(200)).body).toEqualBody({
        consentStatus: 'rejected',
      });
      const [authorisationId] = (await get(`/v1/consents/${consentId}/authorisations`).expect(200)).body.authorisationIds;
      expect((await get(`/v1/consents/${consentId}/authorisations/${authorisationId}`).expect(200)).body).toEqualBody({
        scaStatus: 'failed',
      });
      const data = await get('/v1/accounts', { 'Consent-ID': consentId }).expect(401);
      expect(data.body).toEqualBody(tppError('CONSENT_INVALID', `{sensitive} XS2A008E: consent ${consentId} is rejected, not valid`));
    });

    it('a decision on a consent already decided is 409 STATUS_INVALID and changes nothing', async () => {
      const consentId = await createConsent({ availableAccounts: 'allAccounts' });
      await decide(`consents/${consentId}`, 'georg.mustermann', 'approve').expect(200);
      const response = await decide(`consents/${consentId}`, 'georg.mustermann', 'deny').expect(409);
      expect(response.body).toEqualBody(
        tppError('STATUS_INVALID', `{sensitive} XS2A021E: consent ${consentId} is valid, not waiting for the account holder`),
      );
      expect((await get(`/v1/consents/${consentId}/status`).expect(200)).body).toEqualBody({ consentStatus: 'valid' });
      await decide(`consents/${VALID_CONSENT}`, 'georg.mustermann', 'deny').expect(409);
    });

    it.each([
      ['an unknown PSU', 'max.mustermann', '{sensitive} XS2A022E: unknown PSU ID or wrong password'],
      [
        'a PSU who does not hold the accounts',
        'susanne.mustermann',
        '{sensitive} XS2A022E: the PSU does not hold the accounts of consent <id>',
      ],
    ])('%s is 401 PSU_CREDENTIALS_INVALID and changes nothing', async (_, psuId, text) => {
      const consentId = await createConsent({ balances: [{ iban: MARIANNE }] });
      for (const decision of ['approve', 'deny']) {
        const response = await decide(`consents/${consentId}`, psuId, decision).expect(401);
        expect(response.body).toEqualBody(tppError('PSU_CREDENTIALS_INVALID', text.replace('<id>', consentId)));
      }
      expect((await get(`/v1/consents/${consentId}/status`).expect(200)).body).toEqualBody({ consentStatus: 'received' });
    });

    it('an unknown consent is 403 CONSENT_UNKNOWN', async () => {
      const response = await decide(`consents/${UNKNOWN_CONSENT}`, 'georg.mustermann', 'approve').expect(403);
      expect(response.body).toEqualBody(tppError('CONSENT_UNKNOWN', `{sensitive} XS2A017E: consent ${UNKNOWN_CONSENT} unknown`));
    });

    it.each([
      [{ decision: 'approve' }, 'psuId', 'psuId is required'],
      [{ psuId: 'georg.mustermann', decision: 'maybe' }, 'decision', 'decision must be one of the following values: approve, deny'],
    ])('a bad body %j is 400 FORMAT_ERROR', async (body, path, description) => {
      const consentId = await createConsent({ availableAccounts: 'allAccounts' });
      const response = await request(sandbox.http).post(`/sandbox/sca/consents/${consentId}`).send(body).expect(400);
      expect(response.body).toEqualBody(tppError('FORMAT_ERROR', `{sensitive} XS2A001E: ${description}`, path));
    });

    it('start authorisation: 201, a further authorisation with its links; decisions finalise every open one', async () => {
      const consentId = await createConsent({ availableAccounts: 'allAccounts' }, { 'TPP-Redirect-URI': 'https://tpp.example/first' });
      const response = await request(sandbox.http)
        .post(`/v1/consents/${consentId}/authorisations`)
        .set(tppHeaders({ 'TPP-Redirect-URI': 'https://tpp.example/second' }))
        .expect(201);
      const { authorisationId } = response.body;
      expect(response.body).toEqualBody({
        scaStatus: 'received',
        authorisationId: expect.stringMatching(NEW_RESOURCE_ID),
        _links: {
          scaRedirect: {
            href: `http://sandbox.test/sca/consents?consent_id=${consentId}&redirectBackUrl=https%3A%2F%2Ftpp.example%2Fsecond`,
          },
          scaStatus: { href: `/v1/consents/${consentId}/authorisations/${authorisationId}` },
        },
      });
      const ids = (await get(`/v1/consents/${consentId}/authorisations`).expect(200)).body.authorisationIds;
      expect(ids).toHaveLength(2);
      expect(ids[1]).toBe(authorisationId);
      await decide(`consents/${consentId}`, 'erwin.mustermann', 'approve').expect(200);
      for (const id of ids)
        expect((await get(`/v1/consents/${consentId}/authorisations/${id}`).expect(200)).body).toEqualBody({ scaStatus: 'finalised' });
      const again = await request(sandbox.http).post(`/v1/consents/${consentId}/authorisations`).set(tppHeaders()).expect(409);
      expect(again.body.tppMessages[0].code).toBe('STATUS_INVALID');
    });

    it("authorisation sub-resources: unknown consent 403, unknown authorisation 404, a fixture's is its finalised one", async () => {
      await get(`/v1/consents/${UNKNOWN_CONSENT}/authorisations`).expect(403);
      const consentId = await createConsent({ availableAccounts: 'allAccounts' });
      const response = await get(`/v1/consents/${consentId}/authorisations/3d9a81b3-a47d-4130-8765-a9c0ff861b99`).expect(404);
      expect(response.body).toEqualBody(
        tppError('RESOURCE_UNKNOWN', '{sensitive} XS2A020E: authorisation 3d9a81b3-a47d-4130-8765-a9c0ff861b99 unknown'),
      );
      const [fixture] = (await get(`/v1/consents/${VALID_CONSENT}/authorisations`).expect(200)).body.authorisationIds;
      expect((await get(`/v1/consents/${VALID_CONSENT}/authorisations/${fixture}`).expect(200)).body).toEqualBody({
        scaStatus: 'finalised',
      });
    });
  });

  describe('payments', () => {
    it.each([
      ['funded, at once', payment('100.00'), 'ACSP'],
      ['future-dated', payment('100.00', { requestedExecutionDate: '2026-04-01' }), 'PDNG'],
      ['over the funds', payment('2850.50'), 'RJCT'],
    ])('approve %s: %s', async (_, body, status) => {
      const paymentId = await initiate(body);
      expect((await get(`${SEPA}/${paymentId}/status`).expect(200)).body).toEqualBody({ transactionStatus: 'RCVD' });
      const response = await decide(`payments/${paymentId}`, 'georg.mustermann', 'approve').expect(200);
      expect(response.body).toEqualBody({ transactionStatus: status });
      expect((await get(`${SEPA}/${paymentId}/status`).expect(200)).body).toEqualBody({ transactionStatus: status });
      expect((await get(`${SEPA}/${paymentId}/authorisations/authorization_not_yet_available`).expect(200)).body).toEqualBody({
        scaStatus: 'finalised',
      });
    });

    it('deny: RJCT, the authorisation failed', async () => {
      const paymentId = await initiate(payment('10.00'));
      expect((await decide(`payments/${paymentId}`, 'georg.mustermann', 'deny').expect(200)).body).toEqualBody({
        transactionStatus: 'RJCT',
      });
      expect((await get(`${SEPA}/${paymentId}/authorisations/authorization_not_yet_available`).expect(200)).body).toEqualBody({
        scaStatus: 'failed',
      });
    });

    it('the scaStatus link of the initiation answer reads the SCA status: received until decided', async () => {
      const created = await request(sandbox.http)
        .post(SEPA)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(payment('1.00'))
        .expect(CREATED);
      expect((await get(created.body._links.scaStatus.href).expect(200)).body).toEqualBody({ scaStatus: 'received' });
    });

    it('only the holder of the debtor account decides; an already decided payment is 409', async () => {
      const paymentId = await initiate(payment('10.00'));
      const stranger = await decide(`payments/${paymentId}`, 'susanne.mustermann', 'approve').expect(401);
      expect(stranger.body).toEqualBody(
        tppError('PSU_CREDENTIALS_INVALID', `{sensitive} XS2A022E: the PSU does not hold the debtor account of payment ${paymentId}`),
      );
      await decide(`payments/${paymentId}`, 'nobody', 'approve').expect(401);
      await decide(`payments/${paymentId}`, 'georg.mustermann', 'approve').expect(200);
      const again = await decide(`payments/${paymentId}`, 'georg.mustermann', 'deny').expect(409);
      expect(again.body).toEqualBody(
        tppError('STATUS_INVALID', `{sensitive} XS2A021E: payment ${paymentId} is ACSP, not waiting for the account holder`),
      );
      expect((await get(`${SEPA}/${paymentId}/status`).expect(200)).body).toEqualBody({ transactionStatus: 'ACSP' });
    });

    it('an unknown payment is 404 RESOURCE_UNKNOWN', async () => {
      const response = await decide('payments/3d9a81b3-a47d-4130-8765-a9c0ff861b99', 'georg.mustermann', 'approve').expect(404);
      expect(response.body).toEqualBody(
        tppError('RESOURCE_UNKNOWN', '{sensitive} XS2A015E: payment 3d9a81b3-a47d-4130-8765-a9c0ff861b99 unknown'),
      );
    });

    it('start authorisation of a RCVD payment: 201 with links; of a decided one: 409', async () => {
      const paymentId = await initiate(payment('10.00'));
      const response = await request(sandbox.http).post(`${SEPA}/${paymentId}/authorisations`).set(tppHeaders()).expect(201);
      const { authorisationId } = response.body;
      expect(response.body).toEqualBody({
        scaStatus: 'received',
        authorisationId,
        _links: {
          scaRedirect: { href: `http://sandbox.test/sca/payments?payment_id=${paymentId}&service=payments&product=sepa-credit-transfers` },
          scaStatus: { href: `${SEPA}/${paymentId}/authorisations/${authorisationId}` },
        },
      });
      const ids = (await get(`${SEPA}/${paymentId}/authorisations`).expect(200)).body.authorisationIds;
      expect(ids).toEqual([expect.any(String), authorisationId]);
      await decide(`payments/${paymentId}`, 'georg.mustermann', 'approve').expect(200);
      expect((await get(`${SEPA}/${paymentId}/authorisations/${authorisationId}`).expect(200)).body).toEqualBody({
        scaStatus: 'finalised',
      });
      await request(sandbox.http).post(`${SEPA}/${paymentId}/authorisations`).set(tppHeaders()).expect(409);
      await get(`${SEPA}/${paymentId}/authorisations/3d9a81b3-a47d-4130-8765-a9c0ff861b99`).expect(404);
    });

    describe('cancellation of a PDNG payment', () => {
      const pending = async () => {
        const paymentId = await initiate(payment('100.00', { requestedExecutionDate: '2026-04-01' }));
        await decide(`payments/${paymentId}`, 'georg.mustermann', 'approve').expect(200);
        await request(sandbox.http).delete(`${SEPA}/${paymentId}`).set(tppHeaders()).expect(202);
        return paymentId;
      };

      it('start the cancellation authorisation, approve it: CANC', async () => {
        const paymentId = await pending();
        const started = await request(sandbox.http)
          .post(`${SEPA}/${paymentId}/cancellation-authorisations`)
          .set(tppHeaders({ 'TPP-Redirect-URI': 'https://tpp.example/cancelled' }))
          .expect(201);
        const { authorisationId } = started.body;
        expect(started.headers['location']).toBe(
          locationOf(`${SEPA}/${paymentId}/cancellation-authorisations/${authorisationId}`, 'http://sandbox.test'),
        );
        expect(started.headers['aspsp-sca-approach']).toBe('REDIRECT');
        expect(started.body).toEqualBody({
          scaStatus: 'received',
          authorisationId,
          _links: {
            scaRedirect: {
              href: `http://sandbox.test/sca/payments/cancellation?payment_id=${paymentId}&service=payments&product=sepa-credit-transfers&redirectBackUrl=https%3A%2F%2Ftpp.example%2Fcancelled`,
            },
            scaStatus: { href: `${SEPA}/${paymentId}/cancellation-authorisations/${authorisationId}` },
          },
        });
        expect((await get(`${SEPA}/${paymentId}/cancellation-authorisations`).expect(200)).body).toEqualBody({
          authorisationIds: [authorisationId],
        });
        const response = await decide(`payments/${paymentId}/cancellation`, 'georg.mustermann', 'approve').expect(200);
        expect(response.body).toEqualBody({ transactionStatus: 'CANC' });
        expect((await get(`${SEPA}/${paymentId}/status`).expect(200)).body).toEqualBody({ transactionStatus: 'CANC' });
        expect((await get(`${SEPA}/${paymentId}/cancellation-authorisations/${authorisationId}`).expect(200)).body).toEqualBody({
          scaStatus: 'finalised',
        });
      });

      it('deny it: the payment stays PDNG, the cancellation authorisation failed', async () => {
        const paymentId = await pending();
        const { authorisationId } = (
          await request(sandbox.http).post(`${SEPA}/${paymentId}/cancellation-authorisations`).set(tppHeaders()).expect(201)
        ).body;
        expect((await decide(`payments/${paymentId}/cancellation`, 'georg.mustermann', 'deny').expect(200)).body).toEqualBody({
          transactionStatus: 'PDNG',
        });
        expect((await get(`${SEPA}/${paymentId}/cancellation-authorisations/${authorisationId}`).expect(200)).body).toEqualBody({
          scaStatus: 'failed',
        });
      });

      it('a payment that is not PDNG has no cancellation to authorise', async () => {
        const paymentId = await initiate(payment('10.00'));
        const start = await request(sandbox.http).post(`${SEPA}/${paymentId}/cancellation-authorisations`).set(tppHeaders()).expect(409);
        expect(start.body).toEqualBody(
          tppError('STATUS_INVALID', `{sensitive} XS2A021E: payment ${paymentId} is RCVD, not waiting for the account holder`),
        );
        const decision = await decide(`payments/${paymentId}/cancellation`, 'georg.mustermann', 'approve').expect(409);
        expect(decision.body.tppMessages[0].code).toBe('STATUS_INVALID');
        expect((await get(`${SEPA}/${paymentId}/status`).expect(200)).body).toEqualBody({ transactionStatus: 'RCVD' });
      });

      it('an instant payment offers no cancellation authorisation at all: 405 SERVICE_INVALID', async () => {
        const instant = '/v1/payments/instant-sepa-credit-transfers';
        const { paymentId } = (
          await request(sandbox.http)
            .post(instant)
            .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
            .send(payment('10.00'))
            .expect(CREATED)
        ).body;
        const start = await request(sandbox.http).post(`${instant}/${paymentId}/cancellation-authorisations`).set(tppHeaders()).expect(405);
        expect(start.body).toEqualBody(
          tppError('SERVICE_INVALID', `{sensitive} XS2A030E: payment ${paymentId} is an instant payment and can never be cancelled`),
        );
        expect((await get(`${instant}/${paymentId}/cancellation-authorisations`).expect(200)).body).toEqualBody({ authorisationIds: [] });
      });
    });
  });

  it.each([
    ['a consent', async () => `/v1/consents/${await createConsent({ availableAccounts: 'allAccounts' })}/authorisations`],
    ['a payment', async () => `${SEPA}/${await initiate(payment('10.00'))}/authorisations`],
    ['a cancellation', async () => `${SEPA}/${await initiate(payment('10.00'))}/cancellation-authorisations`],
  ])('PUT on an authorisation of %s (update PSU data) answers 405 SERVICE_INVALID: the redirect approach takes none', async (_, path) => {
    const base = await path();
    const response = await request(sandbox.http)
      .put(`${base}/authorization_not_yet_available`)
      .set(tppHeaders())
      .send({ psuData: { password: 'sandbox' } })
      .expect(405);
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    expect(response.body).toEqualBody(
      tppError(
        'SERVICE_INVALID',
        '{sensitive} XS2A031E: PUT on an authorisation is not offered: the sandbox uses the redirect approach, follow scaRedirect',
      ),
    );
  });

  it('the Erwin fixture PSU holds only Erwin', async () => {
    const consentId = await createConsent({ availableAccounts: 'allAccounts' });
    await decide(`consents/${consentId}`, 'erwin.mustermann', 'approve').expect(200);
    if (PROFILE === 'bank')
      expect((await get(`/v1/consents/${consentId}`).expect(200)).body.access.accounts).toEqualBody([reference(ERWIN)]);
    const accounts = await get('/v1/accounts', { 'Consent-ID': consentId }).expect(200);
    expect(accounts.body.accounts.map((account: { iban: string }) => account.iban)).toEqual([ERWIN]);
  });
});

describe('sandbox control switched off (SANDBOX_CONTROL=false)', () => {
  const sandbox = useSandbox({ SANDBOX_CONTROL: 'false' });

  it.each([
    ['post', '/sandbox/sca/consents/e6151d43-dca8-4fe1-b139-3a89bfeb57a2'],
    ['get', '/sandbox/clock'],
    ['put', '/sandbox/clock'],
  ])('%s %s is an unknown route', async (method, path) => {
    const response = await request(sandbox.http)[method as 'get'](path).send({ today: '2027-01-01' }).expect(404);
    expect(response.body).toEqualBody(tppError('RESOURCE_UNKNOWN', `{sensitive} XS2A012E: no route ${method.toUpperCase()} ${path}`));
  });

  it('leaves the control endpoints out of the OpenAPI document', async () => {
    const document = await request(sandbox.http).get('/docs-json').expect(200);
    expect(Object.keys(document.body.paths).filter((path) => path.startsWith('/sandbox'))).toEqual([]);
  });
});
