import request from 'supertest';
import { GEORG, MARIANNE } from './support/fixtures';
import { startTppServer, TppServer, useBrowserSandbox } from './support/browser';
import { tppHeaders } from './support/sandbox';

jest.setTimeout(60_000);

/** The whole redirect flow in a real browser: the TPP's request, the bank's page, and the way back. */
describe('SCA in headless Chromium (SCA_MODE=redirect)', () => {
  const web = useBrowserSandbox({ SCA_MODE: 'redirect' });
  let tpp: TppServer;
  beforeAll(async () => {
    tpp = await startTppServer();
  });
  afterAll(() => tpp?.close());

  /** Opens the scaRedirect link, logs in as `psuId` and presses the button. */
  async function authorise(scaRedirect: string, psuId: string, button: 'Approve' | 'Deny') {
    const page = await web.browser.context.newPage();
    await page.goto(scaRedirect);
    await page.getByLabel('PSU ID').fill(psuId);
    await page.getByLabel('Password').fill('sandbox');
    await page.getByRole('button', { name: button }).click();
    await page.waitForLoadState();
    return page;
  }

  it('consent: POST in redirect mode, open scaRedirect, log in, approve, land on the TPP; the consent is valid and reads', async () => {
    const redirectUri = `${tpp.base}/callback?state=consent-1`;
    const created = await request(web.sandbox.http)
      .post('/v1/consents')
      .set(tppHeaders({ 'TPP-Redirect-URI': redirectUri, 'PSU-IP-Address': '192.0.2.10' }))
      .send({
        access: { balances: [{ iban: MARIANNE }], transactions: [{ iban: MARIANNE }] },
        recurringIndicator: true,
        combinedServiceIndicator: false,
        validUntil: '2026-09-30',
        frequencyPerDay: 4,
      })
      .expect(200);
    const { consentId, consentStatus, _links } = created.body;
    expect(consentStatus).toBe('received');

    const page = await web.browser.context.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => message.text().includes('Content Security Policy') && blocked.push(message.text()));
    await page.goto(_links.scaRedirect.href);
    expect(await page.locator('h1').textContent()).toBe('Authorise access to your accounts');
    // The Content-Security-Policy lets the page's own stylesheet apply, and nothing is blocked.
    expect(
      await page.locator('header').evaluate((header) => header.ownerDocument.defaultView!.getComputedStyle(header).backgroundColor),
    ).toBe('rgb(11, 61, 99)');
    expect(blocked).toEqual([]);
    expect(await page.locator('table').textContent()).toContain(
      'AT099900000000001511 (Marianne Mustermann)account details, balances, transactions',
    );
    await page.getByLabel('PSU ID').fill('georg.mustermann');
    await page.getByLabel('Password').fill('sandbox');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`${tpp.base}/**`);
    expect(page.url()).toBe(redirectUri);
    expect(await page.locator('h1').textContent()).toBe('Back at the TPP');
    expect(tpp.requests).toContain('/callback?state=consent-1');
    await page.close();

    const status = await request(web.sandbox.http).get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(200);
    expect(status.body).toEqual({ consentStatus: 'valid' });
    const balances = await request(web.sandbox.http)
      .get(`/v1/accounts/${MARIANNE}/balances`)
      .set(tppHeaders({ 'Consent-ID': consentId }))
      .expect(200);
    expect(balances.body.balances).toHaveLength(2);
    await request(web.sandbox.http)
      .get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`)
      .set(tppHeaders({ 'Consent-ID': consentId }))
      .expect(200);
  });

  it('a wrong password keeps the holder on the page with a message and the count of attempts; the consent still waits', async () => {
    const created = await request(web.sandbox.http)
      .post('/v1/consents')
      .set(tppHeaders())
      .send({
        access: { availableAccounts: 'allAccounts' },
        recurringIndicator: true,
        combinedServiceIndicator: false,
        validUntil: '2026-09-30',
        frequencyPerDay: 4,
      })
      .expect(200);
    const page = await web.browser.context.newPage();
    await page.goto(created.body._links.scaRedirect.href);
    await page.getByLabel('PSU ID').fill('georg.mustermann');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('alert').textContent()).toBe(
      'The PSU ID or password is wrong, or this PSU does not hold the accounts concerned (1 of 3 attempts).',
    );
    await page.close();
    const status = await request(web.sandbox.http).get(`/v1/consents/${created.body.consentId}/status`).set(tppHeaders()).expect(200);
    expect(status.body).toEqual({ consentStatus: 'received' });
  });

  it('payments: one approved (back at the TPP, ACSP), another denied (result page, RJCT)', async () => {
    const initiate = (redirectUri?: string) =>
      request(web.sandbox.http)
        .post('/v1/payments/sepa-credit-transfers')
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', ...(redirectUri ? { 'TPP-Redirect-URI': redirectUri } : {}) }))
        .send({
          debtorAccount: { iban: MARIANNE },
          instructedAmount: { currency: 'EUR', amount: '25.00' },
          creditorAccount: { iban: GEORG },
          creditorName: 'Georg Mustermann',
        })
        .expect(200);
    const statusOf = async (paymentId: string) =>
      (await request(web.sandbox.http).get(`/v1/payments/sepa-credit-transfers/${paymentId}/status`).set(tppHeaders()).expect(200)).body
        .transactionStatus;

    const approved = (await initiate(`${tpp.base}/paid?order=7`)).body;
    const approvedPage = await authorise(approved._links.scaRedirect.href, 'georg.mustermann', 'Approve');
    expect(approvedPage.url()).toBe(`${tpp.base}/paid?order=7`);
    expect(tpp.requests).toContain('/paid?order=7');
    await approvedPage.close();
    expect(await statusOf(approved.paymentId)).toBe('ACSP');

    const denied = (await initiate()).body;
    const deniedPage = await authorise(denied._links.scaRedirect.href, 'georg.mustermann', 'Deny');
    expect(await deniedPage.locator('.outcome').textContent()).toBe('Payment refused: its status is now RJCT.');
    await deniedPage.close();
    expect(await statusOf(denied.paymentId)).toBe('RJCT');
  });
});
