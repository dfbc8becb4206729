import { join } from 'node:path';
import request from 'supertest';
import { sepaPayment } from './support/fixtures';
import { useBrowserSandbox } from './support/browser';
import { tppHeaders } from './support/sandbox';

jest.setTimeout(60_000);

/** The picture docs/cockpit.md shows, taken by this test. */
const SCREENSHOT = join(__dirname, '..', 'docs', 'cockpit.png');
const SEPA = '/v1/payments/sepa-credit-transfers';

describe('the cockpit in headless Chromium (SCA_MODE=redirect)', () => {
  const web = useBrowserSandbox({ SCA_MODE: 'redirect' });

  const statusOf = async (paymentId: string) =>
    (await request(web.sandbox.http).get(`${SEPA}/${paymentId}/status`).set(tppHeaders()).expect(200)).body.transactionStatus;

  it('lists a payment made over the API, draws its machine, approves it, moves the clock to execute it, and shows a refused request with its code', async () => {
    const { paymentId } = (
      await request(web.sandbox.http)
        .post(SEPA)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(sepaPayment('12.50', { requestedExecutionDate: '2026-03-20' }))
        .expect(200)
    ).body;
    const refused = await request(web.sandbox.http)
      .get('/v1/accounts')
      .set({ 'X-Request-ID': '3f1c5e2a-7d4b-4e8f-9a6c-1b2d3e4f5a6b' })
      .expect(401);
    expect(refused.body.tppMessages[0].code).toBe('TOKEN_INVALID');

    const page = await web.browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const blocked: string[] = [];
    page.on('console', (message) => message.text().includes('Content Security Policy') && blocked.push(message.text()));
    await page.goto(`${web.base}/cockpit`);
    const row = page.locator('#payments tr', { hasText: paymentId });
    expect(await row.locator('td').allTextContents()).toEqual([
      paymentId,
      'payments / sepa-credit-transfers',
      '12.50 EUR',
      'AT099900000000001511',
      '2026-03-20',
      'RCVD',
    ]);
    const log = page.locator('#requests tr', { hasText: '3f1c5e2a-7d4b-4e8f-9a6c-1b2d3e4f5a6b' });
    expect(await log.locator('td').allTextContents()).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      'GET',
      '/v1/accounts',
      '401',
      'TOKEN_INVALID XS2A007E',
      '3f1c5e2a-7d4b-4e8f-9a6c-1b2d3e4f5a6b',
      '',
    ]);

    await row.getByRole('link', { name: paymentId }).click();
    await page.waitForURL(`${web.base}/cockpit/payments/${paymentId}`);
    const machine = page.locator('#machine svg[data-machine="payment"]');
    expect(await machine.locator('[data-current="true"]').getAttribute('data-state')).toBe('RCVD');
    expect(await machine.locator('[data-state]').count()).toBe(8);

    await page.getByRole('button', { name: 'Approve payment' }).click();
    await page.waitForURL(/message=/);
    expect(await page.getByRole('status').textContent()).toBe('The payment is PDNG.');
    expect(await statusOf(paymentId)).toBe('PDNG');
    expect(await machine.locator('[data-current="true"]').getAttribute('data-state')).toBe('PDNG');
    expect(await machine.locator('.transition.taken text').allTextContents()).toEqual(['SCA_COMPLETED [isFutureDated]']);
    expect(await page.locator('#timeline td', { hasText: 'RCVD → PDNG' }).count()).toBe(1);
    expect(blocked).toEqual([]);
    // The colours come from the page's own stylesheet, which the Content-Security-Policy lets in.
    expect(
      await page.locator('header').evaluate((header) => header.ownerDocument.defaultView!.getComputedStyle(header).backgroundColor),
    ).toBe('rgb(20, 33, 61)');

    await page.goto(`${web.base}/cockpit`);
    expect(await page.locator('#today').textContent()).toBe('2026-03-15');
    await page.getByRole('button', { name: 'Advance a month' }).click();
    await page.waitForURL(/message=/);
    expect(await page.getByRole('status').textContent()).toBe('Today is 2026-04-15.');
    expect(await statusOf(paymentId)).toBe('ACSP');

    await page.goto(`${web.base}/cockpit/payments/${paymentId}`);
    expect(await machine.locator('[data-current="true"]').getAttribute('data-state')).toBe('ACSP');
    expect(await machine.locator('.transition.taken text').allTextContents()).toEqual(['SCA_COMPLETED [isFutureDated]', 'EXECUTE [isDue]']);
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    await page.close();
    await request(web.sandbox.http).put('/sandbox/clock').send({ today: '2026-03-15' }).expect(200);
  });

  it("shows a payment's payee check and lets the payer pay anyway", async () => {
    const body = sepaPayment('2.00', { creditorName: 'Goerg Mustermann' });
    const { paymentId } = (
      await request(web.sandbox.http)
        .post(SEPA)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', 'Client-VOP-Requested': 'true' }))
        .send(body)
        .expect(200)
    ).body;
    const page = await web.browser.context.newPage();
    await page.goto(`${web.base}/cockpit/payments/${paymentId}`);
    expect(await page.locator('tr', { hasText: 'payee check' }).locator('td').allTextContents()).toEqual([
      'payee check',
      'CMTC (RVCM): registered as Georg Mustermann',
    ]);
    await page.getByRole('button', { name: 'Pay anyway (confirm the payee, as the TPP)' }).click();
    await page.waitForURL(/message=/);
    expect(await page.getByRole('status').textContent()).toBe(
      'The payee is confirmed: the payment is RCVC and waits for the account holder.',
    );
    expect(await statusOf(paymentId)).toBe('RCVC');
    expect(await page.locator('#timeline td', { hasText: 'RVCM → RCVC' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Pay anyway (confirm the payee, as the TPP)' }).count()).toBe(0);
    await page.close();
  });

  it('refuses a form posted from another site, and shows a refusal of the same checks as the control API on the page', async () => {
    await request(web.sandbox.http)
      .post('/cockpit/clock/advance')
      .set('Sec-Fetch-Site', 'cross-site')
      .type('form')
      .send('by=day')
      .expect(403);
    // The sign-in too: a cross-site form would sign the browser in as another client (issue 63, row 7).
    const signIn = await request(web.sandbox.http)
      .post('/cockpit/sign-in')
      .set('Sec-Fetch-Site', 'cross-site')
      .type('form')
      .send('clientId=sandbox-tpp&clientSecret=sandbox-secret')
      .expect(403);
    expect([signIn.text, signIn.headers['set-cookie']]).toEqual(['A cockpit form posts from the cockpit only.', undefined]);
    expect((await request(web.sandbox.http).get('/sandbox/clock').expect(200)).body.today).toBe('2026-03-15');
    const { paymentId } = (
      await request(web.sandbox.http)
        .post(SEPA)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(sepaPayment('1.00'))
        .expect(200)
    ).body;
    const page = await web.browser.context.newPage();
    await page.goto(`${web.base}/cockpit/payments/${paymentId}`);
    await page.getByLabel('PSU ID').first().fill('nobody');
    await page.getByRole('button', { name: 'Approve payment' }).click();
    await page.waitForURL(/message=/);
    expect(await page.getByRole('status').textContent()).toMatch(/^Refused: PSU_CREDENTIALS_INVALID \{sensitive\} XS2A022E: /);
    expect(await statusOf(paymentId)).toBe('RCVD');
    await page.close();
  });

  it("takes a snapshot of the world, resets it, and restores the snapshot from the world's page", async () => {
    const { paymentId } = (
      await request(web.sandbox.http)
        .post(SEPA)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(sepaPayment('3.00'))
        .expect(200)
    ).body;
    const page = await web.browser.context.newPage();
    await page.goto(`${web.base}/cockpit`);
    await page.getByRole('link', { name: 'Your world' }).click();
    await page.waitForURL(`${web.base}/cockpit/world`);
    await page.getByLabel('Name').fill('with the payment');
    await page.getByRole('button', { name: 'Take a snapshot' }).click();
    await page.waitForURL(/message=/);
    expect(await page.getByRole('status').textContent()).toBe('Snapshot with the payment taken.');
    const row = page.locator('#snapshots tr', { hasText: 'with the payment' });
    expect(await row.locator('td').allTextContents()).toEqual([
      'with the payment',
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      '2026-03-15',
      expect.stringMatching(/^\d+$/),
      'RestoreDelete',
    ]);

    await page.getByRole('button', { name: 'Reset' }).click();
    await page.waitForURL(/message=/);
    expect(await page.getByRole('status').textContent()).toMatch(/^Reset: \d+ rows forgotten; today is 2026-03-15\.$/);
    await request(web.sandbox.http).get(`${SEPA}/${paymentId}/status`).set(tppHeaders()).expect(404);

    await row.getByRole('button', { name: 'Restore' }).click();
    await page.waitForURL(/message=/);
    expect(await page.getByRole('status').textContent()).toBe('Restored to with the payment; today is 2026-03-15.');
    expect(await statusOf(paymentId)).toBe('RCVD');
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/message=/);
    expect(await page.locator('#snapshots tr', { hasText: 'with the payment' }).count()).toBe(0);
    await page.close();
  });
});
