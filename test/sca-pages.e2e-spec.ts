import request from 'supertest';
import { FRANZ, GEORG, MARIANNE, UNKNOWN_CONSENT } from './support/fixtures';
import { tppHeaders, useSandbox } from './support/sandbox';

const consentRequest = (access: object) => ({ access, recurringIndicator: false, validUntil: '2026-06-30', frequencyPerDay: 2 });
const sepa = (extra: object = {}) => ({
  debtorAccount: { iban: MARIANNE },
  instructedAmount: { currency: 'EUR', amount: '42.00' },
  creditorAccount: { iban: GEORG },
  creditorName: 'Georg Mustermann',
  ...extra,
});
/** The text of the page, tags removed, for assertions on what the account holder reads. */
const visible = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))
    .replace(/\s+/g, ' ');

describe('the SCA pages', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });
  const createConsent = async (access: object, redirectUri?: string): Promise<string> =>
    (
      await request(sandbox.http)
        .post('/v1/consents')
        .set(tppHeaders(redirectUri ? { 'TPP-Redirect-URI': redirectUri } : {}))
        .send(consentRequest(access))
        .expect(200)
    ).body.consentId;
  const initiate = async (path: string, body: object, redirectUri?: string): Promise<string> =>
    (
      await request(sandbox.http)
        .post(path)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', ...(redirectUri ? { 'TPP-Redirect-URI': redirectUri } : {}) }))
        .send(body)
        .expect(200)
    ).body.paymentId;
  const submit = (action: string, form: Record<string, string>) => request(sandbox.http).post(action).type('form').send(form);
  const consentStatus = async (consentId: string) =>
    (await request(sandbox.http).get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(200)).body.consentStatus;

  it('shows a consent: accounts with their access types, validity and frequency; opening it starts the authorisation', async () => {
    const consentId = await createConsent({ balances: [{ iban: MARIANNE }], transactions: [{ iban: MARIANNE }, { iban: GEORG }] });
    const response = await request(sandbox.http).get(`/sca/consents?consent_id=${consentId}`).expect(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const page = visible(response.text);
    expect(page).toContain('Authorise access to your accounts');
    expect(page).toContain('AT099900000000001511 (Marianne Mustermann) account details, balances, transactions');
    expect(page).toContain('AT439900000000010017 (Georg Mustermann) account details, transactions');
    expect(page).toContain('Valid until 2026-06-30');
    expect(page).toContain('Accesses per day 2');
    expect(page).toContain('Recurring no (one-off)');
    expect(response.text).toContain(`<input type="hidden" name="id" value="${consentId}">`);
    expect(response.text).toContain('<button type="submit" name="decision" value="approve">Approve</button>');
    const [authorisationId] = (await request(sandbox.http).get(`/v1/consents/${consentId}/authorisations`).set(tppHeaders())).body.authorisationIds;
    const status = await request(sandbox.http).get(`/v1/consents/${consentId}/authorisations/${authorisationId}`).set(tppHeaders()).expect(200);
    expect(status.body).toEqual({ scaStatus: 'started' });
  });

  it('shows an allAccounts consent as all the holder\'s accounts', async () => {
    const consentId = await createConsent({ availableAccounts: 'allAccounts' });
    const page = visible((await request(sandbox.http).get(`/sca/consents?consent_id=${consentId}`).expect(200)).text);
    expect(page).toContain('All your accounts account details, balances, transactions');
  });

  it('approval sends the browser back to the TPP-Redirect-URI stored with the request, never to one from the query', async () => {
    const consentId = await createConsent({ availableAccounts: 'allAccounts' }, 'https://tpp.example/callback?state=42');
    await request(sandbox.http).get(`/sca/consents?consent_id=${consentId}&redirectBackUrl=https%3A%2F%2Fevil.example`).expect(200);
    const response = await submit('/sca/consents', { id: consentId, psuId: 'susanne.mustermann', password: 'sandbox', decision: 'approve', redirectBackUrl: 'https://evil.example' }).expect(303);
    expect(response.headers.location).toBe('https://tpp.example/callback?state=42');
    expect(await consentStatus(consentId)).toBe('valid');
  });

  it('without a redirect address, a result page shows the outcome', async () => {
    const consentId = await createConsent({ availableAccounts: 'allAccounts' });
    const response = await submit('/sca/consents', { id: consentId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'deny' }).expect(200);
    expect(visible(response.text)).toContain('Consent denied: its status is now rejected.');
    expect(await consentStatus(consentId)).toBe('rejected');
  });

  it.each([
    ['a wrong password', { psuId: 'georg.mustermann', password: 'secret' }, 401],
    ['an unknown PSU', { psuId: 'max.mustermann', password: 'sandbox' }, 401],
    ['a PSU who does not hold the accounts', { psuId: 'susanne.mustermann', password: 'sandbox' }, 401],
    ['no password', { psuId: 'georg.mustermann', password: '' }, 400],
  ])('%s: the page again, with a message; nothing changes', async (_, login, status) => {
    const consentId = await createConsent({ balances: [{ iban: MARIANNE }] });
    const response = await submit('/sca/consents', { id: consentId, decision: 'approve', ...login }).expect(status);
    expect(response.text).toMatch(/<p class="message" role="alert">(The PSU ID or password is wrong|Enter your PSU ID and password)/);
    expect(response.text).toContain('<form method="post" action="/sca/consents">');
    expect(await consentStatus(consentId)).toBe('received');
  });

  it('an already decided consent: a clear message, no form', async () => {
    const consentId = await createConsent({ availableAccounts: 'allAccounts' });
    await submit('/sca/consents', { id: consentId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'approve' }).expect(200);
    for (const response of [
      await request(sandbox.http).get(`/sca/consents?consent_id=${consentId}`).expect(409),
      await submit('/sca/consents', { id: consentId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'deny' }).expect(409),
    ]) {
      expect(visible(response.text)).toContain(`Consent ${consentId} is valid, not waiting for the account holder. Nothing has been changed.`);
      expect(response.text).not.toContain('<form');
    }
    expect(await consentStatus(consentId)).toBe('valid');
  });

  it.each([
    [`/sca/consents?consent_id=${UNKNOWN_CONSENT}`, 403, `Consent ${UNKNOWN_CONSENT} unknown.`],
    ['/sca/consents', 400, 'This link is incomplete: it names nothing to authorise.'],
    ['/sca/payments?payment_id=3d9a81b3-a47d-4130-8765-a9c0ff861b99', 404, 'Payment 3d9a81b3-a47d-4130-8765-a9c0ff861b99 unknown.'],
  ])('an unknown resource (%s): %i, a clear message', async (path, status, message) => {
    const response = await request(sandbox.http).get(path).expect(status);
    expect(visible(response.text)).toContain(`${message} Nothing has been changed.`);
  });

  it('shows a payment: debtor, creditor, amount, currency, execution date', async () => {
    const paymentId = await initiate('/v1/payments/sepa-credit-transfers', sepa({ requestedExecutionDate: '2026-04-01' }));
    const page = visible((await request(sandbox.http).get(`/sca/payments?payment_id=${paymentId}&service=payments&product=sepa-credit-transfers`).expect(200)).text);
    expect(page).toContain('Authorise a payment');
    expect(page).toContain(`From account ${MARIANNE}`);
    expect(page).toContain(`To Georg Mustermann, ${GEORG}`);
    expect(page).toContain('Amount 42.00 EUR');
    expect(page).toContain('Execution date 2026-04-01');
  });

  it('shows every payment of a bulk and its total, and the schedule of a periodic payment', async () => {
    const bulk = await initiate('/v1/bulk-payments/sepa-credit-transfers', {
      debtorAccount: { iban: MARIANNE },
      payments: [
        { instructedAmount: { currency: 'EUR', amount: '10.00' }, creditorName: 'Georg Mustermann', creditorAccount: { iban: GEORG } },
        { instructedAmount: { currency: 'EUR', amount: '5.50' }, creditorName: 'Franz Mustermann', creditorAccount: { iban: FRANZ } },
      ],
    });
    const bulkPage = visible((await request(sandbox.http).get(`/sca/payments?payment_id=${bulk}`).expect(200)).text);
    expect(bulkPage).toContain(`To Georg Mustermann, ${GEORG} Amount 10.00 EUR To Franz Mustermann, ${FRANZ} Amount 5.50 EUR Total 15.50 EUR Execution date immediately`);
    const periodic = await initiate('/v1/periodic-payments/sepa-credit-transfers', { ...sepa(), startDate: '2026-04-01', frequency: 'Monthly' });
    const periodicPage = visible((await request(sandbox.http).get(`/sca/payments?payment_id=${periodic}`).expect(200)).text);
    expect(periodicPage).toContain('First execution 2026-04-01 Frequency Monthly Last execution until cancelled');
  });

  it('escapes what the TPP sent: a script in a creditor name is shown as text', async () => {
    const paymentId = await initiate('/v1/payments/sepa-credit-transfers', sepa({ creditorName: '<script>alert("x")</script>' }));
    const response = await request(sandbox.http).get(`/sca/payments?payment_id=${paymentId}`).expect(200);
    expect(response.text).not.toContain('<script>');
    expect(response.text).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
  });

  it('a payment decision: approve applies the funds rule, the browser goes back to the TPP', async () => {
    const paymentId = await initiate('/v1/payments/sepa-credit-transfers', sepa({ instructedAmount: { currency: 'EUR', amount: '9999.00' } }), 'https://tpp.example/paid');
    const response = await submit('/sca/payments', { id: paymentId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'approve' }).expect(303);
    expect(response.headers.location).toBe('https://tpp.example/paid');
    const status = await request(sandbox.http).get(`/v1/payments/sepa-credit-transfers/${paymentId}/status`).set(tppHeaders()).expect(200);
    expect(status.body).toEqual({ transactionStatus: 'RJCT' });
  });

  it('a cancellation: the page shows the payment, approval cancels it', async () => {
    const paymentId = await initiate('/v1/payments/sepa-credit-transfers', sepa({ requestedExecutionDate: '2026-05-01' }));
    await request(sandbox.http).post(`/sandbox/sca/payments/${paymentId}`).send({ psuId: 'georg.mustermann', decision: 'approve' }).expect(200);
    await request(sandbox.http).post(`/v1/payments/sepa-credit-transfers/${paymentId}/cancellation-authorisations`).set(tppHeaders()).expect(201);
    const page = visible((await request(sandbox.http).get(`/sca/payments/cancellation?payment_id=${paymentId}`).expect(200)).text);
    expect(page).toContain('Authorise the cancellation of a payment');
    expect(page).toContain('Execution date 2026-05-01');
    const response = await submit('/sca/payments/cancellation', { id: paymentId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'approve' }).expect(200);
    expect(visible(response.text)).toContain("Cancellation authorised: the payment's status is now CANC.");
  });
});
