import request from 'supertest';
import { CREATED } from './support/profile';
import { GEORG, MARIANNE, sepaPayment } from './support/fixtures';
import { allAccountsConsent, tppError, tppHeaders, useSandbox } from './support/sandbox';

const SEPA = '/v1/payments/sepa-credit-transfers';
const MAINTENANCE = tppError('SERVICE_UNAVAILABLE', '{sensitive} XS2A037E: the bank is in maintenance, try again later');

/** docs/failures.md: every failure a TPP can trigger, one test each. */
describe('failures on demand (SCA_MODE=redirect)', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });
  const get = (path: string, headers: Record<string, string> = {}) => request(sandbox.http).get(path).set(tppHeaders(headers));
  const initiate = async (body: object, headers: Record<string, string> = {}): Promise<string> =>
    (
      await request(sandbox.http)
        .post(SEPA)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', ...headers }))
        .send(body)
        .expect(CREATED)
    ).body.paymentId;
  const decide = (path: string, psuId: string, decision = 'approve') =>
    request(sandbox.http).post(`/sandbox/sca/${path}`).send({ psuId, decision });
  /** A consent over Georg's account, made valid by Georg. */
  const validConsent = async (): Promise<string> => {
    const consentId = await allAccountsConsent(sandbox.http);
    await decide(`consents/${consentId}`, 'georg.mustermann').expect(200);
    return consentId;
  };
  /** As a browser does: opens the page (keeping its cookie), then posts the form with the page's CSRF token. */
  const submit = async (page: string, query: string, form: Record<string, string>) => {
    const browser = request.agent(sandbox.http);
    const shown = await browser.get(`${page}?${query}`).expect(200);
    const token = /name="_csrf" value="([^"]+)"/.exec(shown.text)?.[1] ?? '';
    return browser
      .post(page)
      .type('form')
      .send({ _csrf: token, ...form });
  };

  it('a blocked PSU: every channel refuses the authorisation with 403 SERVICE_BLOCKED, and nothing changes', async () => {
    const consentId = await allAccountsConsent(sandbox.http);
    const blocked = tppError('SERVICE_BLOCKED', '{sensitive} XS2A033E: PSU blocked.mustermann is blocked by the bank');
    expect((await decide(`consents/${consentId}`, 'blocked.mustermann').expect(403)).body).toEqualBody(blocked);
    const [authorisationId] = (await get(`/v1/consents/${consentId}/authorisations`).expect(200)).body.authorisationIds;
    const started = await request(sandbox.http)
      .post(`/v1/consents/${consentId}/authorisations`)
      .set(tppHeaders({ 'TPP-Redirect-Preferred': 'false', 'PSU-ID': 'blocked.mustermann' }))
      .send({ psuData: { password: 'sandbox' } })
      .expect(403);
    expect(started.body).toEqualBody(blocked);
    expect((await get(`/v1/consents/${consentId}/authorisations`).expect(200)).body).toEqualBody({ authorisationIds: [authorisationId] });
    expect((await get(`/v1/consents/${consentId}/status`).expect(200)).body).toEqualBody({ consentStatus: 'received' });
    expect((await get(`/v1/consents/${consentId}/authorisations/${authorisationId}`).expect(200)).body).toEqualBody({
      scaStatus: 'received',
    });
  });

  it.each([
    ['AC01', 'AT899900009990000001', 'the creditor account number is wrong'],
    ['AC04', 'AT629900009990000002', 'the creditor account is closed'],
    ['AC06', 'AT359900009990000003', 'the creditor account is blocked'],
    ['AM04', 'AT089900009990000004', 'insufficient funds'],
    ['MS03', 'AT789900009990000005', 'the reason is not specified'],
  ])('a payment to the refused creditor of %s (%s) is RJCT once authorised, the reason on its status', async (reason, iban, meaning) => {
    const paymentId = await initiate(sepaPayment('10.00', { creditorAccount: { iban } }));
    expect((await get(`${SEPA}/${paymentId}/status`).expect(200)).body).toEqualBody({ transactionStatus: 'RCVD' });
    expect((await decide(`payments/${paymentId}`, 'georg.mustermann').expect(200)).body).toEqualBody({ transactionStatus: 'RJCT' });
    expect((await get(`${SEPA}/${paymentId}/status`).expect(200)).body).toEqualBody({
      transactionStatus: 'RJCT',
      transactionStatusReason: reason,
      psuMessage: `Rejected (${reason}): ${meaning}.`,
    });
  });

  it('a bulk with one refused creditor among its entries is rejected whole', async () => {
    const bulk = {
      debtorAccount: { iban: MARIANNE },
      payments: [GEORG, 'AT629900009990000002'].map((iban) => ({
        instructedAmount: { currency: 'EUR', amount: '1.00' },
        creditorAccount: { iban },
        creditorName: 'Creditor',
      })),
    };
    const response = await request(sandbox.http)
      .post('/v1/bulk-payments/sepa-credit-transfers')
      .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
      .send(bulk)
      .expect(CREATED);
    await decide(`payments/${response.body.paymentId}`, 'georg.mustermann').expect(200);
    const status = await get(`/v1/bulk-payments/sepa-credit-transfers/${response.body.paymentId}/status`).expect(200);
    expect(status.body).toEqualBody({
      transactionStatus: 'RJCT',
      transactionStatusReason: 'AC04',
      psuMessage: 'Rejected (AC04): the creditor account is closed.',
    });
  });

  it('maintenance switched on by the control API: every /v1 request answers 503 until switched back; the control API still answers', async () => {
    const consentId = await validConsent();
    expect((await request(sandbox.http).get('/sandbox/conditions').expect(200)).body).toEqual({ maintenance: false, delayMs: 0 });
    expect((await request(sandbox.http).put('/sandbox/conditions').send({ maintenance: true, delayMs: 0 }).expect(200)).body).toEqual({
      maintenance: true,
      delayMs: 0,
    });
    const refused = await get('/v1/accounts', { 'Consent-ID': consentId }).expect(503);
    expect(refused.headers['x-request-id']).toEqual(expect.any(String));
    expect(refused.body).toEqualBody(MAINTENANCE);
    // Nothing is taken in: an initiation is refused too, and stores nothing.
    expect(
      (
        await request(sandbox.http)
          .post(SEPA)
          .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
          .send(sepaPayment('1.00'))
          .expect(503)
      ).body,
    ).toEqualBody(MAINTENANCE);
    expect((await request(sandbox.http).get('/sandbox/conditions').expect(200)).body).toEqual({ maintenance: true, delayMs: 0 });
    await request(sandbox.http).put('/sandbox/conditions').send({ maintenance: false, delayMs: 0 }).expect(200);
    await get('/v1/accounts', { 'Consent-ID': consentId }).expect(200);
  });

  it('maintenance for one request: the X-Sandbox-Maintenance header', async () => {
    const consentId = await validConsent();
    expect((await get('/v1/accounts', { 'Consent-ID': consentId, 'X-Sandbox-Maintenance': 'true' }).expect(503)).body).toEqualBody(
      MAINTENANCE,
    );
    await get('/v1/accounts', { 'Consent-ID': consentId }).expect(200);
  });

  it('a slow bank: X-Sandbox-Delay delays one answer, the control API every answer; both bounded to 10 s', async () => {
    const consentId = await validConsent();
    const timed = async (headers: Record<string, string>) => {
      const started = Date.now();
      await get('/v1/accounts', { 'Consent-ID': consentId, ...headers }).expect(200);
      return Date.now() - started;
    };
    expect(await timed({ 'X-Sandbox-Delay': '300' })).toBeGreaterThanOrEqual(300);
    await request(sandbox.http).put('/sandbox/conditions').send({ maintenance: false, delayMs: 250 }).expect(200);
    expect(await timed({})).toBeGreaterThanOrEqual(250);
    await request(sandbox.http).put('/sandbox/conditions').send({ maintenance: false, delayMs: 0 }).expect(200);
    const tooLong = await get('/v1/accounts', { 'Consent-ID': consentId, 'X-Sandbox-Delay': '10001' }).expect(400);
    expect(tooLong.body).toEqualBody(
      tppError(
        'FORMAT_ERROR',
        '{sensitive} XS2A001E: X-Sandbox-Delay must be a whole number of milliseconds from 0 to 10000',
        'X-Sandbox-Delay',
      ),
    );
    const refused = await request(sandbox.http).put('/sandbox/conditions').send({ maintenance: false, delayMs: 60000 }).expect(400);
    expect(refused.body.tppMessages[0]).toMatchObject({ code: 'FORMAT_ERROR', path: 'delayMs' });
    expect((await request(sandbox.http).get('/sandbox/conditions').expect(200)).body).toEqual({ maintenance: false, delayMs: 0 });
  });

  it('a consent revoked by the PSU through the control API: revokedByPsu, data requests answer 401 CONSENT_INVALID', async () => {
    const consentId = await validConsent();
    await get('/v1/accounts', { 'Consent-ID': consentId }).expect(200);
    // Only the holder of its accounts revokes it.
    await request(sandbox.http).post(`/sandbox/consents/${consentId}/revocation`).send({ psuId: 'susanne.mustermann' }).expect(401);
    const revoked = await request(sandbox.http)
      .post(`/sandbox/consents/${consentId}/revocation`)
      .send({ psuId: 'georg.mustermann' })
      .expect(200);
    expect(revoked.body).toEqualBody({ consentStatus: 'revokedByPsu' });
    expect((await get(`/v1/consents/${consentId}/status`).expect(200)).body).toEqualBody({ consentStatus: 'revokedByPsu' });
    const refused = await get('/v1/accounts', { 'Consent-ID': consentId }).expect(401);
    expect(refused.body).toEqualBody(tppError('CONSENT_INVALID', `{sensitive} XS2A008E: consent ${consentId} is revokedByPsu, not valid`));
    const again = await request(sandbox.http)
      .post(`/sandbox/consents/${consentId}/revocation`)
      .send({ psuId: 'georg.mustermann' })
      .expect(409);
    expect(again.body).toEqualBody(
      tppError('STATUS_INVALID', `{sensitive} XS2A021E: consent ${consentId} is revokedByPsu, not a valid consent the holder can revoke`),
    );
  });

  it("a consent revoked by the PSU at the SCA page; the bank's fixtures cannot be", async () => {
    const consentId = await validConsent();
    const revoked = await submit('/sca/consents/revocation', `consent_id=${consentId}`, {
      id: consentId,
      psuId: 'georg.mustermann',
      password: 'sandbox',
      decision: 'approve',
    });
    expect(revoked.status).toBe(200);
    expect(revoked.text).toContain('Access revoked: the consent&#39;s status is now revokedByPsu.');
    await get('/v1/accounts', { 'Consent-ID': consentId }).expect(401);
    const fixture = await request(sandbox.http).get('/sca/consents/revocation?consent_id=e6151d43-dca8-4fe1-b139-3a89bfeb57a2').expect(409);
    // A fixture stays as it is, and the page says what to do instead.
    expect(fixture.text).toContain(
      'one of the bank&#39;s fixtures, which stay as they are: create a consent of your own (POST /v1/consents with availableAccounts) to try this',
    );
  });

  it('TPP-Nok-Redirect-URI receives the browser after a denial; TPP-Redirect-URI after an approval', async () => {
    const uris = { 'TPP-Redirect-URI': 'https://tpp.example/ok', 'TPP-Nok-Redirect-URI': 'https://tpp.example/nok' };
    const denied = await initiate(sepaPayment('2.00'), uris);
    const deny = await submit('/sca/payments', `payment_id=${denied}`, {
      id: denied,
      psuId: 'georg.mustermann',
      password: 'sandbox',
      decision: 'deny',
    });
    expect(deny.status).toBe(303);
    expect(deny.headers.location).toBe('https://tpp.example/nok');
    const approved = await initiate(sepaPayment('2.00'), uris);
    const approve = await submit('/sca/payments', `payment_id=${approved}`, {
      id: approved,
      psuId: 'georg.mustermann',
      password: 'sandbox',
      decision: 'approve',
    });
    expect(approve.status).toBe(303);
    expect(approve.headers.location).toBe('https://tpp.example/ok');
    // Without a Nok address, a denial goes back to TPP-Redirect-URI, as before.
    const plain = await initiate(sepaPayment('2.00'), { 'TPP-Redirect-URI': 'https://tpp.example/ok' });
    const back = await submit('/sca/payments', `payment_id=${plain}`, {
      id: plain,
      psuId: 'georg.mustermann',
      password: 'sandbox',
      decision: 'deny',
    });
    expect(back.headers.location).toBe('https://tpp.example/ok');
  });
});
