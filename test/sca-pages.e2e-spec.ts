import request from 'supertest';
import { CREATED } from './support/profile';
import { FRANZ, GEORG, MARIANNE, UNKNOWN_CONSENT } from './support/fixtures';
import { tppHeaders, useSandbox } from './support/sandbox';
import { Payment } from '../src/payment-initiation/payment.entity';

const consentRequest = (access: object) => ({
  access,
  recurringIndicator: false,
  combinedServiceIndicator: false,
  validUntil: '2026-06-30',
  frequencyPerDay: 2,
});
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
        .expect(CREATED)
    ).body.consentId;
  const initiate = async (path: string, body: object, redirectUri?: string): Promise<string> =>
    (
      await request(sandbox.http)
        .post(path)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', ...(redirectUri ? { 'TPP-Redirect-URI': redirectUri } : {}) }))
        .send(body)
        .expect(CREATED)
    ).body.paymentId;
  /** As a browser does: opens the page (keeping its cookie), then posts the form with the page's CSRF token. */
  /** Opens the page and posts its form; answers what came, whose status is `status` where one is given. */
  const submit = async (action: string, form: Record<string, string>, status?: number) => {
    const browser = request.agent(sandbox.http);
    const page = await browser.get(`${action}?${action === '/sca/consents' ? 'consent_id' : 'payment_id'}=${form.id}`);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const posted = browser
      .post(action)
      .type('form')
      .send({ _csrf: token, ...form });
    return status === undefined ? posted : posted.expect(status);
  };
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
    const [authorisationId] = (await request(sandbox.http).get(`/v1/consents/${consentId}/authorisations`).set(tppHeaders())).body
      .authorisationIds;
    const status = await request(sandbox.http)
      .get(`/v1/consents/${consentId}/authorisations/${authorisationId}`)
      .set(tppHeaders())
      .expect(200);
    expect(status.body).toEqualBody({ scaStatus: 'started' });
  });

  it("shows an allAccounts consent as all the holder's accounts", async () => {
    const consentId = await createConsent({ availableAccounts: 'allAccounts' });
    const page = visible((await request(sandbox.http).get(`/sca/consents?consent_id=${consentId}`).expect(200)).text);
    expect(page).toContain('All your accounts account details, balances, transactions');
  });

  it('approval sends the browser back to the TPP-Redirect-URI stored with the request, never to one from the query', async () => {
    const consentId = await createConsent({ availableAccounts: 'allAccounts' }, 'https://tpp.example/callback?state=42');
    await request(sandbox.http).get(`/sca/consents?consent_id=${consentId}&redirectBackUrl=https%3A%2F%2Fevil.example`).expect(200);
    const response = await submit(
      '/sca/consents',
      { id: consentId, psuId: 'susanne.mustermann', password: 'sandbox', decision: 'approve', redirectBackUrl: 'https://evil.example' },
      303,
    );
    expect(response.headers.location).toBe('https://tpp.example/callback?state=42');
    expect(await consentStatus(consentId)).toBe('valid');
  });

  it('without a redirect address, a result page shows the outcome', async () => {
    const consentId = await createConsent({ availableAccounts: 'allAccounts' });
    const response = await submit(
      '/sca/consents',
      { id: consentId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'deny' },
      200,
    );
    expect(visible(response.text)).toContain('Consent denied: its status is now rejected.');
    expect(await consentStatus(consentId)).toBe('rejected');
  });

  it.each([
    ['a wrong password', { psuId: 'georg.mustermann', password: 'secret' }, 401],
    ['an unknown PSU', { psuId: 'max.mustermann', password: 'sandbox' }, 401],
    ['a PSU who does not hold the accounts', { psuId: 'susanne.mustermann', password: 'sandbox' }, 401],
    ['no password', { psuId: 'georg.mustermann', password: '' }, 400],
  ])('%s: the page again, with a message; the consent still waits', async (_, login, status) => {
    const consentId = await createConsent({ balances: [{ iban: MARIANNE }] });
    const response = await submit('/sca/consents', { id: consentId, decision: 'approve', ...login }, status);
    expect(response.text).toMatch(/<p class="message" role="alert">(The PSU ID or password is wrong|Enter your PSU ID and password)/);
    expect(response.text).toContain('<form method="post" action="/sca/consents">');
    expect(await consentStatus(consentId)).toBe('received');
  });

  it('ten wrong passwords sent at once: none is lost, the third fails the authorisation and rejects the consent, and the right one then decides nothing', async () => {
    const consentId = await createConsent({ balances: [{ iban: MARIANNE }] });
    const guesses = await Promise.all(
      Array.from({ length: 10 }, (_, guess) =>
        submit('/sca/consents', { id: consentId, decision: 'approve', psuId: 'georg.mustermann', password: `guess-${guess}` }),
      ),
    );
    // Each is refused: 401 while the authorisation still counts, 409 once it has failed; exactly one is the third.
    expect(guesses.filter(({ status }) => ![401, 409].includes(status)).map(({ status }) => status)).toEqual([]);
    expect(guesses.filter(({ text }) => visible(text).includes('was wrong 3 times')).length).toBe(1);
    expect(await consentStatus(consentId)).toBe('rejected');
    await submit('/sca/consents', { id: consentId, decision: 'approve', psuId: 'georg.mustermann', password: 'sandbox' }, 409);
    expect(await consentStatus(consentId)).toBe('rejected');
  });

  it('guessing is bounded: the third wrong password fails the authorisation, as the embedded approach does, and the right one then decides nothing', async () => {
    const consentId = await createConsent({ balances: [{ iban: MARIANNE }] });
    for (const attempt of [1, 2]) {
      const wrong = await submit(
        '/sca/consents',
        { id: consentId, decision: 'approve', psuId: 'georg.mustermann', password: `guess-${attempt}` },
        401,
      );
      expect(visible(wrong.text)).toContain(
        `The PSU ID or password is wrong, or this PSU does not hold the accounts concerned (${attempt} of 3 attempts).`,
      );
    }
    const third = await submit(
      '/sca/consents',
      { id: consentId, decision: 'approve', psuId: 'georg.mustermann', password: 'guess-3' },
      401,
    );
    expect(visible(third.text)).toContain(
      'The PSU ID or password was wrong 3 times: the authorisation failed and the consent is rejected.',
    );
    expect(third.text).not.toContain('<form');
    expect(await consentStatus(consentId)).toBe('rejected');
    const [authorisationId] = (await request(sandbox.http).get(`/v1/consents/${consentId}/authorisations`).set(tppHeaders()).expect(200))
      .body.authorisationIds;
    expect(
      (await request(sandbox.http).get(`/v1/consents/${consentId}/authorisations/${authorisationId}`).set(tppHeaders()).expect(200)).body
        .scaStatus,
    ).toBe('failed');
    const right = await submit(
      '/sca/consents',
      { id: consentId, decision: 'approve', psuId: 'georg.mustermann', password: 'sandbox' },
      409,
    );
    expect(right.text).not.toContain('<form');
    expect(await consentStatus(consentId)).toBe('rejected');
  });

  it('an already decided consent: a clear message, no form', async () => {
    const consentId = await createConsent({ availableAccounts: 'allAccounts' });
    await submit('/sca/consents', { id: consentId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'approve' }, 200);
    for (const response of [
      await request(sandbox.http).get(`/sca/consents?consent_id=${consentId}`).expect(409),
      await submit('/sca/consents', { id: consentId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'deny' }, 409),
    ]) {
      expect(visible(response.text)).toContain(
        `Consent ${consentId} is valid, not waiting for the account holder. Nothing has been changed.`,
      );
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
    const page = visible(
      (await request(sandbox.http).get(`/sca/payments?payment_id=${paymentId}&service=payments&product=sepa-credit-transfers`).expect(200))
        .text,
    );
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
    expect(bulkPage).toContain(
      `To Georg Mustermann, ${GEORG} Amount 10.00 EUR To Franz Mustermann, ${FRANZ} Amount 5.50 EUR Total 15.50 EUR Execution date immediately`,
    );
    const periodic = await initiate('/v1/periodic-payments/sepa-credit-transfers', {
      ...sepa(),
      startDate: '2026-04-01',
      frequency: 'Monthly',
    });
    const periodicPage = visible((await request(sandbox.http).get(`/sca/payments?payment_id=${periodic}`).expect(200)).text);
    expect(periodicPage).toContain('First execution 2026-04-01 Frequency Monthly Last execution until cancelled');
  });

  it('escapes what the TPP sent: a script in a creditor name is shown as text', async () => {
    const paymentId = await initiate('/v1/payments/sepa-credit-transfers', sepa({ creditorName: '<script>alert("x")</script>' }));
    const response = await request(sandbox.http).get(`/sca/payments?payment_id=${paymentId}`).expect(200);
    expect(response.text).not.toContain('<script>');
    expect(response.text).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
  });

  it('refuses a script-laden or non-http redirect URI, and stores nothing', async () => {
    const count = () => sandbox.dataSource.getRepository(Payment).count();
    const before = await count();
    for (const redirectUri of ['https://tpp.example/cb?state="><script>alert(1)</script>', 'javascript:alert(1)']) {
      const response = await request(sandbox.http)
        .post('/v1/payments/sepa-credit-transfers')
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', 'TPP-Redirect-URI': redirectUri }))
        .send(sepa())
        .expect(400);
      expect(response.body.tppMessages).toEqualBody([expect.objectContaining({ code: 'FORMAT_ERROR', path: 'TPP-Redirect-URI' })]);
    }
    expect(await count()).toEqual(before);
  });

  it('escapes a quote-laden redirect URI and a script-laden creditor name everywhere they show, and never reflects the query', async () => {
    const redirectUri = 'https://tpp.example/"onmouseover="alert(1)';
    const response = await request(sandbox.http)
      .post('/v1/payments/sepa-credit-transfers')
      .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', 'TPP-Redirect-URI': redirectUri }))
      .send(sepa({ creditorName: '"><img src=x onerror=alert(1)><script>alert(3)</script>' }))
      .expect(CREATED);
    const { paymentId } = response.body;
    expect(response.body._links.scaRedirect.href).toContain(`redirectBackUrl=${encodeURIComponent(redirectUri)}`);
    const page = await request(sandbox.http)
      .get(`/sca/payments?payment_id=${paymentId}&redirectBackUrl=${encodeURIComponent('<script>alert(2)</script>')}&service=<b>x</b>`)
      .expect(200);
    expect(page.text).not.toMatch(/<script|<img|<b>|alert\(2\)|onmouseover/);
    expect(page.text).toContain('&#34;&#62;&#60;img src=x onerror=alert(1)&#62;&#60;script&#62;alert(3)&#60;/script&#62;');
    const decided = await submit('/sca/payments', { id: paymentId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'deny' }, 303);
    // Back only to the registered address, percent-encoded as a Location header must be.
    expect(decided.headers.location).toBe('https://tpp.example/%22onmouseover=%22alert(1)');
    expect(decided.text).not.toMatch(/<script|onmouseover="/);
  });

  it('sends security headers: no script, no framing, no caching, no referrer, only its own style', async () => {
    const consentId = await createConsent({ availableAccounts: 'allAccounts' });
    for (const path of [`/sca/consents?consent_id=${consentId}`, `/sca/consents?consent_id=${UNKNOWN_CONSENT}`]) {
      const { headers } = await request(sandbox.http).get(path);
      expect(headers['content-security-policy']).toMatch(
        /^default-src 'none';style-src 'sha256-[A-Za-z0-9+/]{43}=';frame-ancestors 'none';base-uri 'none'$/,
      );
      expect(headers).toMatchObject({
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cache-control': 'no-store',
      });
    }
  });

  describe('CSRF: a decision counts only from the form of its own page', () => {
    const login = { psuId: 'georg.mustermann', password: 'sandbox', decision: 'approve' };
    const refused = (response: request.Response) => {
      expect(response.status).toBe(403);
      expect(visible(response.text)).toContain(
        'This form has expired or was not sent from this page. Nothing has been changed: please decide again.',
      );
      expect(response.text).toMatch(/<input type="hidden" name="_csrf" value="[0-9a-f]{64}\.[0-9a-f]{64}">/);
    };

    it("the page sets an HttpOnly, SameSite=Strict cookie that its form token must match (for the whole site: the permission dashboard's forms too)", async () => {
      const consentId = await createConsent({ availableAccounts: 'allAccounts' });
      const response = await request(sandbox.http).get(`/sca/consents?consent_id=${consentId}`).expect(200);
      const token = /name="_csrf" value="([^"]+)"/.exec(response.text)![1];
      expect(response.headers['set-cookie']).toEqual([`psd2-sandbox-csrf=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`]);
    });

    it('refuses a form without a token, with a forged one, without the cookie (another site), or from another page; nothing changes', async () => {
      const consentId = await createConsent({ availableAccounts: 'allAccounts' });
      const other = await createConsent({ availableAccounts: 'allAccounts' });
      const browser = request.agent(sandbox.http);
      const own = /name="_csrf" value="([^"]+)"/.exec((await browser.get(`/sca/consents?consent_id=${consentId}`)).text)![1];
      refused(
        await browser
          .post('/sca/consents')
          .type('form')
          .send({ id: consentId, ...login }),
      );
      refused(
        await browser
          .post('/sca/consents')
          .type('form')
          .send({ id: consentId, _csrf: `${'0'.repeat(64)}.${'1'.repeat(64)}`, ...login }),
      );
      refused(
        await request(sandbox.http)
          .post('/sca/consents')
          .type('form')
          .send({ id: consentId, _csrf: own, ...login }),
      );
      // A token of one consent's page cannot decide on another consent.
      const thief = request.agent(sandbox.http);
      const otherToken = /name="_csrf" value="([^"]+)"/.exec((await thief.get(`/sca/consents?consent_id=${other}`)).text)![1];
      refused(
        await thief
          .post('/sca/consents')
          .type('form')
          .send({ id: consentId, _csrf: otherToken, ...login }),
      );
      expect(await consentStatus(consentId)).toBe('received');
      expect(await consentStatus(other)).toBe('received');

      const accepted = await browser
        .post('/sca/consents')
        .type('form')
        .send({ id: consentId, _csrf: own, ...login })
        .expect(200);
      expect(visible(accepted.text)).toContain('Consent approved: its status is now valid.');
    });
  });

  it('a payment decision: approve applies the funds rule, the browser goes back to the TPP', async () => {
    const paymentId = await initiate(
      '/v1/payments/sepa-credit-transfers',
      sepa({ instructedAmount: { currency: 'EUR', amount: '9999.00' } }),
      'https://tpp.example/paid',
    );
    const response = await submit(
      '/sca/payments',
      { id: paymentId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'approve' },
      303,
    );
    expect(response.headers.location).toBe('https://tpp.example/paid');
    const status = await request(sandbox.http).get(`/v1/payments/sepa-credit-transfers/${paymentId}/status`).set(tppHeaders()).expect(200);
    expect(status.body).toEqualBody({ transactionStatus: 'RJCT' });
  });

  it('a cancellation: the page shows the payment, approval cancels it', async () => {
    const paymentId = await initiate('/v1/payments/sepa-credit-transfers', sepa({ requestedExecutionDate: '2026-05-01' }));
    await request(sandbox.http)
      .post(`/sandbox/sca/payments/${paymentId}`)
      .send({ psuId: 'georg.mustermann', decision: 'approve' })
      .expect(200);
    await request(sandbox.http)
      .post(`/v1/payments/sepa-credit-transfers/${paymentId}/cancellation-authorisations`)
      .set(tppHeaders())
      .expect(201);
    const page = visible((await request(sandbox.http).get(`/sca/payments/cancellation?payment_id=${paymentId}`).expect(200)).text);
    expect(page).toContain('Authorise the cancellation of a payment');
    expect(page).toContain('Execution date 2026-05-01');
    const response = await submit(
      '/sca/payments/cancellation',
      { id: paymentId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'approve' },
      200,
    );
    expect(visible(response.text)).toContain("Cancellation authorised: the payment's status is now CANC.");
  });
});
