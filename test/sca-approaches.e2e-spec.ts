import request from 'supertest';
import { CREATED } from './support/profile';
import { ERWIN, GEORG, MARIANNE, sepaPayment, SUSANNE } from './support/fixtures';
import { tppError, tppHeaders, useSandbox } from './support/sandbox';

const SEPA = '/v1/payments/sepa-credit-transfers';
const EMBEDDED = { 'TPP-Redirect-Preferred': 'false' };
const DECOUPLED = { 'TPP-Decoupled-Preferred': 'true' };
const consentRequest = (access: object) => ({
  access,
  recurringIndicator: true,
  combinedServiceIndicator: false,
  validUntil: '2026-06-30',
  frequencyPerDay: 4,
});
const SMS_SUSANNE = { authenticationType: 'SMS_OTP', authenticationMethodId: 'sms', name: 'SMS OTP on phone +43 660 xxxxx 76' };
const GEORG_METHODS = [
  { authenticationType: 'SMS_OTP', authenticationMethodId: 'sms', name: 'SMS OTP on phone +43 660 xxxxx 17' },
  { authenticationType: 'PUSH_OTP', authenticationMethodId: 'push', name: 'PUSH OTP in the SandboxBank app' },
];
const CHALLENGE = { otpMaxLength: 6, otpFormat: 'integer', additionalInformation: 'Sandbox: the TAN is 123456.' };
const DECOUPLED_MESSAGE = 'Please confirm in your SandboxBank app.';
const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);

describe('every SCA approach (SCA_MODE=redirect)', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect', PUBLIC_BASE_URL: 'http://sandbox.test' });
  const put = (path: string, body: object, headers: Record<string, string> = {}) =>
    request(sandbox.http).put(path).set(tppHeaders(headers)).send(body);
  const get = (path: string, headers: Record<string, string> = {}) => request(sandbox.http).get(path).set(tppHeaders(headers));
  const initiate = async (body: object, headers: Record<string, string> = {}) => {
    const response = await request(sandbox.http)
      .post(SEPA)
      .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', ...headers }))
      .send(body)
      .expect(CREATED);
    return response;
  };
  const status = async (paymentId: string) => (await get(`${SEPA}/${paymentId}/status`).expect(200)).body.transactionStatus;
  /** A PDNG payment of `debtor`, approved through the control API as `psuId`. */
  const pending = async (debtor: string, psuId: string) => {
    const { paymentId } = (await initiate(sepaPayment('5.00', { debtorAccount: { iban: debtor }, requestedExecutionDate: '2026-04-01' })))
      .body;
    await request(sandbox.http).post(`/sandbox/sca/payments/${paymentId}`).send({ psuId, decision: 'approve' }).expect(200);
    expect(await status(paymentId)).toBe('PDNG');
    return paymentId as string;
  };

  describe('embedded', () => {
    it('a consent, PSU with one method: the password selects it implicitly, the TAN makes the consent valid and the data readable', async () => {
      const created = await request(sandbox.http)
        .post('/v1/consents')
        .set(tppHeaders({ ...EMBEDDED, 'PSU-ID': 'susanne.mustermann' }))
        .send(consentRequest({ balances: [{ iban: SUSANNE }], transactions: [{ iban: SUSANNE }] }))
        .expect(CREATED);
      expect(created.headers['aspsp-sca-approach']).toBe('EMBEDDED');
      const { consentId } = created.body;
      const [authorisationId] = (await get(`/v1/consents/${consentId}/authorisations`).expect(200)).body.authorisationIds;
      const path = `/v1/consents/${consentId}/authorisations/${authorisationId}`;
      expect(created.body).toEqualBody({
        consentStatus: 'received',
        consentId,
        scaMethods: null,
        chosenScaMethod: null,
        challengeData: null,
        psuMessage: null,
        _links: {
          updatePsuAuthentication: { href: path },
          scaStatus: { href: path },
          self: { href: `/v1/consents/${consentId}` },
          status: { href: `/v1/consents/${consentId}/status` },
        },
      });

      const authenticated = await put(path, { psuData: { password: 'sandbox' } }, EMBEDDED).expect(200);
      expect(authenticated.headers['aspsp-sca-approach']).toBe('EMBEDDED');
      expect(authenticated.body).toEqualBody({
        scaStatus: 'scaMethodSelected',
        chosenScaMethod: SMS_SUSANNE,
        challengeData: CHALLENGE,
        _links: { authoriseTransaction: { href: path }, scaStatus: { href: path } },
      });
      expect((await get(path).expect(200)).body).toEqualBody({ scaStatus: 'scaMethodSelected' });

      const authorised = await put(path, { scaAuthenticationData: '123456' }).expect(200);
      expect(authorised.headers['aspsp-sca-approach']).toBe('EMBEDDED');
      expect(authorised.body).toEqualBody({ scaStatus: 'finalised', _links: { scaStatus: { href: path } } });
      expect((await get(`/v1/consents/${consentId}/status`).expect(200)).body).toEqualBody({ consentStatus: 'valid' });
      expect((await get(path).expect(200)).body).toEqualBody({ scaStatus: 'finalised' });
      const balances = await get(`/v1/accounts/${SUSANNE}/balances`, { 'Consent-ID': consentId }).expect(200);
      expect(balances.body.balances.map(({ balanceType }: { balanceType: string }) => balanceType)).toEqual([
        'forwardAvailable',
        'interimAvailable',
      ]);
      // What it does not cover stays closed.
      await get(`/v1/accounts/${GEORG}/balances`, { 'Consent-ID': consentId }).expect(404);
    });

    it('a payment, PSU with two methods: the password lists them, the choice brings the TAN, the TAN executes it', async () => {
      const created = await initiate(sepaPayment('12.50'), { ...EMBEDDED, 'PSU-ID': 'georg.mustermann' });
      const { paymentId } = created.body;
      const [authorisationId] = (await get(`${SEPA}/${paymentId}/authorisations`).expect(200)).body.authorisationIds;
      const path = `${SEPA}/${paymentId}/authorisations/${authorisationId}`;
      expect(created.headers['aspsp-sca-approach']).toBe('EMBEDDED');
      expect(created.body).toEqualBody({
        transactionStatus: 'RCVD',
        paymentId,
        scaMethods: [],
        _links: {
          updatePsuAuthentication: { href: path },
          self: { href: `${SEPA}/${paymentId}` },
          status: { href: `${SEPA}/${paymentId}/status` },
          scaStatus: { href: path },
        },
        tppMessages: [],
      });

      expect((await put(path, { psuData: { password: 'sandbox' } }).expect(200)).body).toEqualBody({
        scaStatus: 'psuAuthenticated',
        scaMethods: GEORG_METHODS,
        _links: { selectAuthenticationMethod: { href: path }, scaStatus: { href: path } },
      });
      // A TAN before a method is chosen is out of turn; an unknown method is refused; neither changes anything.
      expect((await put(path, { scaAuthenticationData: '123456' }).expect(409)).body).toEqualBody(
        tppError(
          'STATUS_INVALID',
          `{sensitive} XS2A036E: authorisation ${authorisationId} is psuAuthenticated: this step does not apply to it now`,
        ),
      );
      expect((await put(path, { authenticationMethodId: 'fax' }).expect(400)).body).toEqualBody(
        tppError('SCA_METHOD_UNKNOWN', "{sensitive} XS2A035E: fax is none of the PSU's SCA methods", 'authenticationMethodId'),
      );
      expect((await put(path, { authenticationMethodId: 'push' }).expect(200)).body).toEqualBody({
        scaStatus: 'scaMethodSelected',
        chosenScaMethod: GEORG_METHODS[1],
        challengeData: CHALLENGE,
        _links: { authoriseTransaction: { href: path }, scaStatus: { href: path } },
      });
      expect((await put(path, { scaAuthenticationData: '123456' }).expect(200)).body).toEqualBody({
        scaStatus: 'finalised',
        _links: { scaStatus: { href: path } },
      });
      expect(await status(paymentId)).toBe('ACSP');
      // Finalised: no step applies any more.
      await put(path, { scaAuthenticationData: '123456' }).expect(409);
    });

    it('three wrong TANs: each answers 401 and counts, the third fails the authorisation and rejects the payment', async () => {
      const { paymentId } = (
        await initiate(sepaPayment('3.00', { debtorAccount: { iban: SUSANNE } }), { ...EMBEDDED, 'PSU-ID': 'susanne.mustermann' })
      ).body;
      const [authorisationId] = (await get(`${SEPA}/${paymentId}/authorisations`).expect(200)).body.authorisationIds;
      const path = `${SEPA}/${paymentId}/authorisations/${authorisationId}`;
      await put(path, { psuData: { password: 'sandbox' } }).expect(200);
      for (const attempt of [1, 2]) {
        expect((await put(path, { scaAuthenticationData: '000000' }).expect(401)).body).toEqualBody(
          tppError('PSU_CREDENTIALS_INVALID', `{sensitive} XS2A022E: wrong TAN (${attempt} of 3 attempts)`),
        );
        expect((await get(path).expect(200)).body).toEqualBody({ scaStatus: 'scaMethodSelected' });
        expect(await status(paymentId)).toBe('RCVD');
      }
      expect((await put(path, { scaAuthenticationData: '000000' }).expect(401)).body).toEqualBody(
        tppError(
          'PSU_CREDENTIALS_INVALID',
          '{sensitive} XS2A022E: wrong TAN (3 of 3 attempts): the authorisation failed and the payment is rejected',
        ),
      );
      expect((await get(path).expect(200)).body).toEqualBody({ scaStatus: 'failed' });
      expect(await status(paymentId)).toBe('RJCT');
      expect((await put(path, { scaAuthenticationData: '123456' }).expect(400)).body).toEqualBody(
        tppError('SCA_INVALID', `{sensitive} XS2A034E: authorisation ${authorisationId} failed: start a new one`),
      );
    });

    it('a wrong password counts too; the PSU-ID can come with the password; without one it is a format error', async () => {
      const { paymentId } = (await initiate(sepaPayment('2.00'), EMBEDDED)).body;
      const [authorisationId] = (await get(`${SEPA}/${paymentId}/authorisations`).expect(200)).body.authorisationIds;
      const path = `${SEPA}/${paymentId}/authorisations/${authorisationId}`;
      expect((await put(path, { psuData: { password: 'sandbox' } }).expect(400)).body).toEqualBody(
        tppError('FORMAT_ERROR', '{sensitive} XS2A001E: PSU-ID must name the PSU', 'PSU-ID'),
      );
      expect((await put(path, { psuData: { password: 'wrong' } }, { 'PSU-ID': 'georg.mustermann' }).expect(401)).body).toEqualBody(
        tppError('PSU_CREDENTIALS_INVALID', '{sensitive} XS2A022E: unknown PSU ID or wrong password (1 of 3 attempts)'),
      );
      expect((await put(path, { psuData: { password: 'sandbox' } }, { 'PSU-ID': 'georg.mustermann' }).expect(200)).body.scaStatus).toBe(
        'psuAuthenticated',
      );
    });

    it('an exempted PSU (no SCA method): the password finalises the authorisation', async () => {
      const { paymentId } = (
        await initiate(sepaPayment('1.00', { debtorAccount: { iban: ERWIN } }), { ...EMBEDDED, 'PSU-ID': 'erwin.mustermann' })
      ).body;
      const [authorisationId] = (await get(`${SEPA}/${paymentId}/authorisations`).expect(200)).body.authorisationIds;
      const path = `${SEPA}/${paymentId}/authorisations/${authorisationId}`;
      expect((await put(path, { psuData: { password: 'sandbox' } }).expect(200)).body).toEqualBody({
        scaStatus: 'finalised',
        _links: { scaStatus: { href: path } },
      });
      expect(await status(paymentId)).toBe('ACSP');
    });

    it('a further authorisation started with the password (startAuthorisationWithPsuAuthentication) answers 201 with the next step', async () => {
      const { paymentId } = (await initiate(sepaPayment('4.00', { debtorAccount: { iban: SUSANNE } }), EMBEDDED)).body;
      const started = await request(sandbox.http)
        .post(`${SEPA}/${paymentId}/authorisations`)
        .set(tppHeaders({ 'PSU-ID': 'susanne.mustermann' }))
        .send({ psuData: { password: 'sandbox' } })
        .expect(201);
      const path = `${SEPA}/${paymentId}/authorisations/${started.body.authorisationId}`;
      expect(started.body).toEqualBody({
        scaStatus: 'scaMethodSelected',
        authorisationId: UUID,
        chosenScaMethod: SMS_SUSANNE,
        challengeData: CHALLENGE,
        _links: { authoriseTransaction: { href: path }, scaStatus: { href: path } },
      });
      await put(path, { scaAuthenticationData: '123456' }).expect(200);
      expect(await status(paymentId)).toBe('ACSP');
    });

    it('the cancellation of a PDNG payment: DELETE links the embedded start, the TAN cancels it', async () => {
      const paymentId = await pending(MARIANNE, 'georg.mustermann');
      const deleted = await request(sandbox.http).delete(`${SEPA}/${paymentId}`).set(tppHeaders(EMBEDDED)).expect(202);
      expect(deleted.headers['aspsp-sca-approach']).toBe('EMBEDDED');
      const start = `${SEPA}/${paymentId}/cancellation-authorisations`;
      expect(deleted.body).toEqualBody({
        transactionStatus: 'PDNG',
        scaMethods: [],
        _links: { startAuthorisationWithPsuAuthentication: { href: start } },
      });
      const started = await request(sandbox.http)
        .post(start)
        .set(tppHeaders({ ...EMBEDDED, 'PSU-ID': 'georg.mustermann' }))
        .send({ psuData: { password: 'sandbox' } })
        .expect(201);
      const path = `${start}/${started.body.authorisationId}`;
      expect(started.body).toEqualBody({
        scaStatus: 'psuAuthenticated',
        authorisationId: UUID,
        scaMethods: GEORG_METHODS,
        _links: { selectAuthenticationMethod: { href: path }, scaStatus: { href: path } },
      });
      await put(path, { authenticationMethodId: 'sms' }).expect(200);
      await put(path, { scaAuthenticationData: '123456' }).expect(200);
      expect(await status(paymentId)).toBe('CANC');
      expect((await get(path).expect(200)).body).toEqualBody({ scaStatus: 'finalised' });
    });
  });

  describe('decoupled', () => {
    it('a payment: started with a psuMessage; a persona confirms in the app at the third poll: finalised, executed', async () => {
      const created = await initiate(sepaPayment('6.00', { debtorAccount: { iban: SUSANNE } }), {
        ...DECOUPLED,
        'PSU-ID': 'susanne.mustermann',
      });
      const { paymentId } = created.body;
      const [authorisationId] = (await get(`${SEPA}/${paymentId}/authorisations`).expect(200)).body.authorisationIds;
      const path = `${SEPA}/${paymentId}/authorisations/${authorisationId}`;
      expect(created.headers['aspsp-sca-approach']).toBe('DECOUPLED');
      expect(created.body).toEqualBody({
        transactionStatus: 'RCVD',
        paymentId,
        scaMethods: [],
        _links: { self: { href: `${SEPA}/${paymentId}` }, status: { href: `${SEPA}/${paymentId}/status` }, scaStatus: { href: path } },
        psuMessage: DECOUPLED_MESSAGE,
        tppMessages: [],
      });
      expect((await get(path).expect(200)).body).toEqualBody({ scaStatus: 'started', psuMessage: DECOUPLED_MESSAGE });
      expect((await get(path).expect(200)).body).toEqualBody({ scaStatus: 'started', psuMessage: DECOUPLED_MESSAGE });
      expect(await status(paymentId)).toBe('RCVD');
      expect((await get(path).expect(200)).body).toEqualBody({ scaStatus: 'finalised' });
      expect(await status(paymentId)).toBe('ACSP');
    });

    it('the persona that never confirms: started poll after poll, until the holder decides through the control API', async () => {
      const { paymentId } = (await initiate(sepaPayment('7.00'), { ...DECOUPLED, 'PSU-ID': 'georg.mustermann' })).body;
      const [authorisationId] = (await get(`${SEPA}/${paymentId}/authorisations`).expect(200)).body.authorisationIds;
      const path = `${SEPA}/${paymentId}/authorisations/${authorisationId}`;
      for (let poll = 0; poll < 8; poll++)
        expect((await get(path).expect(200)).body).toEqualBody({ scaStatus: 'started', psuMessage: DECOUPLED_MESSAGE });
      await request(sandbox.http)
        .post(`/sandbox/sca/payments/${paymentId}`)
        .send({ psuId: 'georg.mustermann', decision: 'deny' })
        .expect(200);
      expect((await get(path).expect(200)).body).toEqualBody({ scaStatus: 'failed' });
      expect(await status(paymentId)).toBe('RJCT');
    });

    it('without a PSU-ID: the link to identify the PSU; PUT {} with PSU-ID starts it', async () => {
      const { body } = await initiate(sepaPayment('8.00', { debtorAccount: { iban: SUSANNE } }), DECOUPLED);
      const [authorisationId] = (await get(`${SEPA}/${body.paymentId}/authorisations`).expect(200)).body.authorisationIds;
      const path = `${SEPA}/${body.paymentId}/authorisations/${authorisationId}`;
      expect(body._links).toEqualBody({
        updatePsuIdentification: { href: path },
        self: { href: `${SEPA}/${body.paymentId}` },
        status: { href: `${SEPA}/${body.paymentId}/status` },
        scaStatus: { href: path },
      });
      expect(body.psuMessage).toBeUndefined();
      expect((await put(path, {}, { 'PSU-ID': 'susanne.mustermann' }).expect(200)).body).toEqualBody({
        scaStatus: 'started',
        psuMessage: DECOUPLED_MESSAGE,
        _links: { scaStatus: { href: path } },
      });
    });

    it('the cancellation of a PDNG payment: DELETE links the decoupled start; the persona confirms it at the third poll', async () => {
      const paymentId = await pending(SUSANNE, 'susanne.mustermann');
      const start = `${SEPA}/${paymentId}/cancellation-authorisations`;
      const deleted = await request(sandbox.http).delete(`${SEPA}/${paymentId}`).set(tppHeaders(DECOUPLED)).expect(202);
      expect(deleted.body).toEqualBody({
        transactionStatus: 'PDNG',
        scaMethods: [],
        _links: { startAuthorisationWithPsuIdentification: { href: start } },
      });
      const started = await request(sandbox.http)
        .post(start)
        .set(tppHeaders({ ...DECOUPLED, 'PSU-ID': 'susanne.mustermann' }))
        .expect(201);
      const path = `${start}/${started.body.authorisationId}`;
      expect(started.headers['aspsp-sca-approach']).toBe('DECOUPLED');
      expect(started.body).toEqualBody({
        scaStatus: 'started',
        authorisationId: UUID,
        psuMessage: DECOUPLED_MESSAGE,
        _links: { scaStatus: { href: path } },
      });
      await get(path).expect(200);
      await get(path).expect(200);
      expect((await get(path).expect(200)).body).toEqualBody({ scaStatus: 'finalised' });
      expect(await status(paymentId)).toBe('CANC');
    });
  });

  describe('a client that states no preference', () => {
    it("gets the bank's redirect answers, ASPSP-SCA-Approach: REDIRECT as before; a PUT answers 405 as before", async () => {
      const created = await initiate(sepaPayment('1.50'));
      expect(created.headers['aspsp-sca-approach']).toBe('REDIRECT');
      expect(Object.keys(created.body._links)).toEqual(['scaRedirect', 'self', 'status', 'scaStatus']);
      await put(`${SEPA}/${created.body.paymentId}/authorisations/authorization_not_yet_available`, {
        psuData: { password: 'sandbox' },
      }).expect(405);
    });

    it('TPP-Redirect-Preferred: true is answered with the redirect approach, named', async () => {
      const created = await initiate(sepaPayment('1.60'), { 'TPP-Redirect-Preferred': 'true' });
      expect(created.headers['aspsp-sca-approach']).toBe('REDIRECT');
      expect(Object.keys(created.body._links)).toEqual(['scaRedirect', 'self', 'status', 'scaStatus']);
    });

    it('a preference header that is no boolean is a format error', async () => {
      const response = await request(sandbox.http)
        .post(SEPA)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', 'TPP-Redirect-Preferred': 'no' }))
        .send(sepaPayment('1.00'))
        .expect(400);
      expect(response.body).toEqualBody(
        tppError('FORMAT_ERROR', '{sensitive} XS2A001E: TPP-Redirect-Preferred must be true or false', 'TPP-Redirect-Preferred'),
      );
    });
  });
});

describe('SCA_MODE=auto: no holder to ask, whatever the headers', () => {
  const sandbox = useSandbox();

  it('answers as the bank does: the redirect approach', async () => {
    const response = await request(sandbox.http)
      .post(SEPA)
      .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', ...EMBEDDED, 'PSU-ID': 'georg.mustermann' }))
      .send(sepaPayment('1.00'))
      .expect(CREATED);
    expect(response.headers['aspsp-sca-approach']).toBe('REDIRECT');
    expect(Object.keys(response.body._links)).toEqual(['scaRedirect', 'self', 'status', 'scaStatus']);
  });
});
