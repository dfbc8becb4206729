import request from 'supertest';
import type { Page } from 'playwright-core';
import { GEORG } from './support/fixtures';
import { NotificationReceiver } from './support/notification-receiver';
import { useBrowserSandbox } from './support/browser';
import { issueToken, TODAY, tppError, tppHeaders } from './support/sandbox';

jest.setTimeout(60_000);

/** The sign-in page's answer to a sign-in through no client's link, or a link that is none. */
const NO_LINK =
  "Open the dashboard from the link your third-party provider's test asked the sandbox for (POST /sandbox/dashboard-links): it says whose consents you see. This one is missing or has expired.";

/**
 * The permission dashboard in headless Chromium (docs/permission-dashboard.md): the holder signs
 * in through a client's link, sees that client's consent only (docs/security.md, "Worlds"),
 * withdraws it, and the TPP meets it (401, notification); then re-establishes it. No link, a wrong
 * password, another PSU's consent, another client's consent and a form without its token change nothing.
 */
describe('the permission dashboard in headless Chromium (AUTH_MODE=strict, SCA_MODE=redirect)', () => {
  const web = useBrowserSandbox({ AUTH_MODE: 'strict', SCA_MODE: 'redirect', NOTIFICATION_ALLOWED_HOSTS: '127.0.0.1' });
  const receiver = new NotificationReceiver();
  const tokens: Record<string, string> = {};
  const consents: Record<string, string> = {};
  beforeAll(async () => {
    await receiver.start();
    tokens.a = await issueToken(web.sandbox.http, 'sandbox-tpp', 'sandbox-secret');
    tokens.b = await issueToken(web.sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2');
    for (const [client, frequencyPerDay] of [
      ['a', 4],
      ['b', 2],
    ] as const) {
      const headers = tppHeaders({ Authorization: `Bearer ${tokens[client]}`, 'TPP-Notification-URI': receiver.url(`/${client}`) });
      const body = {
        access: { balances: [{ iban: GEORG }], transactions: [{ iban: GEORG }] },
        recurringIndicator: client === 'a',
        combinedServiceIndicator: false,
        validUntil: '2026-06-30',
        frequencyPerDay,
      };
      consents[client] = (await request(web.sandbox.http).post('/v1/consents').set(headers).send(body).expect(200)).body.consentId;
      await request(web.sandbox.http)
        .post(`/sandbox/sca/consents/${consents[client]}`)
        .set({ Authorization: `Bearer ${tokens[client]}` })
        .send({ psuId: 'georg.mustermann', decision: 'approve' })
        .expect(200);
    }
  });
  afterAll(() => receiver.close());

  const read = (client: 'a' | 'b') =>
    request(web.sandbox.http)
      .get(`/v1/accounts/${GEORG}/balances`)
      .set(tppHeaders({ Authorization: `Bearer ${tokens[client]}`, 'Consent-ID': consents[client] }));
  const status = async (client: 'a' | 'b') =>
    (
      await request(web.sandbox.http)
        .get(`/v1/consents/${consents[client]}/status`)
        .set(tppHeaders({ Authorization: `Bearer ${tokens[client]}` }))
        .expect(200)
    ).body.consentStatus;
  const section = (page: Page, client: 'a' | 'b') => page.getByRole('region', { name: consents[client] });

  /** The sign-in page of the client's world, from the link the client asks for with its token. */
  const link = async (client: 'a' | 'b') =>
    (
      await request(web.sandbox.http)
        .post('/sandbox/dashboard-links')
        .set({ Authorization: `Bearer ${tokens[client]}` })
        .expect(201)
    ).body._links.dashboard.href as string;

  async function signIn(page: Page, psuId: string, password: string, client: 'a' | 'b' | null = 'a') {
    await page.goto(client ? await link(client) : `${web.base}/dashboard`);
    await page.getByLabel('PSU ID').fill(psuId);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
  }

  it('a wrong password is refused on the sign-in page, and shows nothing', async () => {
    const page = await web.browser.context.newPage();
    // The SCA pages' security headers and look: their own stylesheet only, no script, never stored.
    const shown = await page.goto(`${web.base}/dashboard`);
    expect(shown!.headers()).toMatchObject({
      'content-security-policy': expect.stringContaining("default-src 'none'"),
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
    });
    expect(
      await page.locator('header').evaluate((header) => header.ownerDocument.defaultView!.getComputedStyle(header).backgroundColor),
    ).toBe('rgb(11, 61, 99)');
    await signIn(page, 'georg.mustermann', 'wrong');
    expect(await page.getByRole('alert').textContent()).toBe('The PSU ID or password is wrong.');
    expect(await page.locator('section').count()).toBe(0);
    // The right password without a client's link opens no world.
    await signIn(page, 'georg.mustermann', 'sandbox', null);
    expect(await page.getByRole('alert').textContent()).toBe(NO_LINK);
    expect(await page.locator('section').count()).toBe(0);
    // A link whose signature was changed is none.
    await page.goto((await link('a')).replace(/.$/, (last) => (last === 'A' ? 'B' : 'A')));
    await page.getByLabel('PSU ID').fill('georg.mustermann');
    await page.getByLabel('Password').fill('sandbox');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toBe(NO_LINK);
    expect(await page.locator('section').count()).toBe(0);
    await page.close();
    expect([await status('a'), await status('b')]).toEqual(['valid', 'valid']);
  });

  it('the holder sees the consent of the TPP whose link it was, withdraws it after confirming it: the TPP reads 401 CONSENT_INVALID and is notified; re-establishing brings its reads back', async () => {
    const page = await web.browser.context.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => message.text().includes('Content Security Policy') && blocked.push(message.text()));
    await read('a').expect(200);
    await signIn(page, 'georg.mustermann', 'sandbox');
    expect(page.url()).toBe(`${web.base}/dashboard`);
    expect(await page.title()).toBe('Your permissions - PSD2 Sandbox Bank');
    const rows = async (client: 'a' | 'b') => (await section(page, client).locator('tr').allTextContents()).map((row) => row.trim());
    // A's world: B's consent on the same accounts is not in it.
    expect(await page.locator('section.permission h2').allTextContents()).toEqual(['Sandbox TPP']);
    expect(await rows('a')).toEqual([
      'ProviderSandbox TPP, client sandbox-tpp',
      'Serviceaccount information',
      `${GEORG} (any currency)account details, balances, transactions`,
      `Granted on${TODAY}`,
      'Valid until2026-06-30',
      'Accesses per day4 (used today: 1)',
      `Last access${TODAY}`,
      'Recurringyes',
      `Statusvalid since ${TODAY}`,
    ]);
    expect(await rows('b')).toEqual([]);

    await section(page, 'a').getByRole('link', { name: 'Withdraw access' }).click();
    await page.waitForLoadState();
    expect(await page.locator('h1').textContent()).toBe('Withdraw access');
    // The confirmation step: nothing has changed yet.
    expect(await status('a')).toBe('valid');
    await page.getByRole('button', { name: 'Withdraw access' }).click();
    await page.waitForURL(`${web.base}/dashboard?withdrawn=${consents.a}`);
    expect(await page.getByRole('status').textContent()).toBe('You withdrew the access of Sandbox TPP: its status is now revokedByPsu.');
    expect(await section(page, 'a').locator('tr', { hasText: 'Status' }).textContent()).toBe(`StatusrevokedByPsu since ${TODAY}`);

    const refused = await read('a').expect(401);
    expect(refused.body).toEqual(tppError('CONSENT_INVALID', `{sensitive} XS2A008E: consent ${consents.a} is revokedByPsu, not valid`));
    expect((await receiver.waitFor('/a', 2)).map(({ body }) => (body as { consentStatus: string }).consentStatus)).toEqual([
      'valid',
      'revokedByPsu',
    ]);
    await read('b').expect(200);

    await section(page, 'a').getByRole('link', { name: 'Re-establish access' }).click();
    await page.getByRole('button', { name: 'Re-establish access' }).click();
    await page.waitForURL(`${web.base}/dashboard?reestablished=${consents.a}`);
    expect(await page.getByRole('status').textContent()).toBe('You re-established the access of Sandbox TPP: its status is now valid.');
    await read('a').expect(200);
    expect((await receiver.waitFor('/a', 3)).map(({ body }) => (body as { consentStatus: string }).consentStatus)).toEqual([
      'valid',
      'revokedByPsu',
      'valid',
    ]);
    expect(blocked).toEqual([]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(1);

    // The same holder through B's link: B's consent, and none of A's.
    await signIn(page, 'georg.mustermann', 'sandbox', 'b');
    expect(await page.locator('section.permission h2').allTextContents()).toEqual(['Second sandbox TPP']);
    expect(await rows('a')).toEqual([]);
    expect(await rows('b')).toEqual([
      'ProviderSecond sandbox TPP, client sandbox-tpp-2',
      'Serviceaccount information',
      `${GEORG} (any currency)account details, balances, transactions`,
      `Granted on${TODAY}`,
      'Valid until2026-06-30',
      'Accesses per day2 (used today: 1)',
      `Last access${TODAY}`,
      'Recurringno (one-off)',
      `Statusvalid since ${TODAY}`,
    ]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    // The sign-in page loaded before the page closes: Chromium may drop a close that races a
    // navigation's commit, and Playwright's close then waits out the browser's minute.
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.close();
  });

  it("another PSU cannot withdraw georg's consent, and a form without its CSRF token withdraws nothing", async () => {
    const page = await web.browser.context.newPage();
    await signIn(page, 'susanne.mustermann', 'sandbox');
    expect(await page.locator('section.permission').count()).toBe(0);
    const theirs = await page.goto(`${web.base}/dashboard/withdrawal?consent_id=${consents.b}`);
    expect(theirs!.status()).toBe(404);
    expect(await page.locator('.outcome').textContent()).toBe(
      'Withdraw access: this is none of your permissions that allows it now. Nothing has been changed.',
    );
    // Her session, a form posted without the page's token (as another site would): refused, and the consent is still none of hers.
    const forged = await page.request.post(`${web.base}/dashboard/withdrawal`, { form: { id: consents.b }, maxRedirects: 0 });
    expect(forged.status()).toBe(404);
    // Georg's own session in A's world: B's consent is none of his permissions there.
    await page.goto(`${web.base}/dashboard`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'georg.mustermann', 'sandbox');
    expect((await page.goto(`${web.base}/dashboard/withdrawal?consent_id=${consents.b}`))!.status()).toBe(404);
    // His own consent in A's world, without the form's token: the confirmation page again, with why (403).
    const unsigned = await page.request.post(`${web.base}/dashboard/withdrawal`, { form: { id: consents.a }, maxRedirects: 0 });
    expect(unsigned.status()).toBe(403);
    expect(await unsigned.text()).toContain('This form has expired or was not sent from this page. Nothing has been changed.');
    await page.close();
    expect([await status('a'), await status('b')]).toEqual(['valid', 'valid']);
    await read('a').expect(200);
    await read('b').expect(200);
  });
});
