import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types';
import { BerlinGroupYaml, type Exchange, type Violation } from './support/berlin-group-yaml';
import { FRANZ, MARIANNE, SUSANNE } from './support/fixtures';
import { useSandbox } from './support/sandbox';

/**
 * A TPP's client generated from Berlin Group's own 1.3.11 yaml (where BERLIN_GROUP_YAML points:
 * the project ships no copy) walks every operation of it against PROFILE=berlin-group, in
 * SCA_MODE=auto and in every approach of SCA_MODE=redirect, with the error cases the yaml lists.
 * Every request must be what the yaml asks; every answer is checked against the yaml by a
 * validator nobody here wrote. What no server can satisfy, because the yaml itself is wrong, is
 * listed once in docs/conformance.md; anything else fails (docs/conformance.md).
 */
const FILE = process.env.BERLIN_GROUP_YAML;

type Approach = 'auto' | 'redirect' | 'embedded' | 'decoupled';

/** The defects docs/conformance.md lists: the first column of its table, a pattern over a violation's key. */
function documentedDefects(): { pattern: RegExp; row: string }[] {
  const text = readFileSync(join(__dirname, '..', 'docs', 'conformance.md'), 'utf8');
  const section = text.split('\n## ').find((part) => part.startsWith("The yaml's own defects"))!;
  // A `|` inside a table cell is written `\|`.
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map(([, row]) => ({ pattern: new RegExp(`^${row.replace(/\\\|/g, '|')}$`), row }));
}

const PSU = 'susanne.mustermann';
const CALLBACK = 'https://tpp.example/callback';
const PREFERENCE: Record<Approach, Record<string, string>> = {
  auto: {},
  redirect: { 'TPP-Redirect-Preferred': 'true', 'TPP-Redirect-URI': CALLBACK },
  embedded: { 'TPP-Redirect-Preferred': 'false', 'PSU-ID': PSU },
  decoupled: { 'TPP-Decoupled-Preferred': 'true', 'PSU-ID': PSU },
};

/** The payments a client of the yaml initiates: every service and product the profile offers. */
const PAYMENTS: Record<string, object> = {
  'payments/sepa-credit-transfers': {
    instructedAmount: { currency: 'EUR', amount: '12.50' },
    debtorAccount: { iban: SUSANNE },
    creditorName: 'Franz Mustermann',
    creditorAccount: { iban: FRANZ },
    remittanceInformationUnstructured: 'Invoice 1',
  },
  'payments/instant-sepa-credit-transfers': {
    instructedAmount: { currency: 'EUR', amount: '3.20' },
    debtorAccount: { iban: SUSANNE },
    creditorName: 'Franz Mustermann',
    creditorAccount: { iban: FRANZ },
  },
  'payments/cross-border-credit-transfers': {
    instructedAmount: { currency: 'EUR', amount: '40.00' },
    debtorAccount: { iban: SUSANNE },
    creditorName: 'Stadtwerke Musterstadt GmbH',
    creditorAccount: { iban: 'DE43500105170012345678' },
    creditorAgent: 'COBADEFFXXX',
  },
  'bulk-payments/sepa-credit-transfers': {
    batchBookingPreferred: true,
    debtorAccount: { iban: SUSANNE },
    payments: [
      { instructedAmount: { currency: 'EUR', amount: '1.00' }, creditorName: 'Marianne Mustermann', creditorAccount: { iban: MARIANNE } },
      { instructedAmount: { currency: 'EUR', amount: '2.00' }, creditorName: 'Franz Mustermann', creditorAccount: { iban: FRANZ } },
    ],
  },
  'periodic-payments/sepa-credit-transfers': {
    instructedAmount: { currency: 'EUR', amount: '25.00' },
    debtorAccount: { iban: SUSANNE },
    creditorName: 'Franz Mustermann',
    creditorAccount: { iban: FRANZ },
    startDate: '2026-04-01',
    frequency: 'Monthly',
    dayOfExecution: '1',
  },
};

/** A TPP that sends every request through the yaml and keeps every exchange. */
class Client {
  readonly exchanges: { exchange: Exchange; violations: Violation[]; invalidOnPurpose: boolean }[] = [];

  constructor(
    private readonly http: App,
    private readonly yaml: BerlinGroupYaml,
  ) {}

  /**
   * Sends one request of `operationId` and expects `status`. `invalidOnPurpose`: an error case
   * the request breaks the yaml for (a missing header), so only the answer is held to it.
   */
  async send(
    operationId: string,
    method: string,
    url: string,
    status: number,
    options: { headers?: Record<string, string>; body?: object; invalidOnPurpose?: boolean } = {},
  ) {
    const headers: Record<string, string> = {
      'X-Request-ID': randomUUID(),
      'PSU-IP-Address': '192.0.2.10',
      Authorization: 'Bearer sandbox',
      ...options.headers,
    };
    for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
    let test = request(this.http)[method as 'get'](url).set(headers);
    if (options.body !== undefined) test = test.send(options.body);
    const response = await test;
    expect(this.yaml.operationOf(method, url)?.operationId).toBe(operationId);
    const exchange: Exchange = {
      method,
      url,
      requestHeaders: Object.fromEntries(
        Object.entries({ ...headers, ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}) }).map(
          ([name, value]) => [name.toLowerCase(), value],
        ),
      ),
      requestBody: options.body,
      status: response.status,
      responseHeaders: response.headers as Record<string, string>,
      responseBody:
        response.text === '' ? null : response.body && Object.keys(response.body as object).length ? response.body : response.text,
    };
    const violations = this.yaml.violations(exchange).filter(({ key }) => !(options.invalidOnPurpose && / request /.test(key)));
    this.exchanges.push({ exchange, violations, invalidOnPurpose: options.invalidOnPurpose ?? false });
    if (response.status !== status)
      throw new Error(`${method.toUpperCase()} ${url}: expected ${status}, got ${response.status} ${response.text}`);
    return response;
  }
}

if (!FILE) {
  const banner = '='.repeat(100);
  console.warn(
    `${banner}\nTHE BERLIN GROUP CONFORMANCE SUITE DID NOT RUN: BERLIN_GROUP_YAML is unset.\nPoint it at Berlin Group's 1.3.11 yaml (docs/conformance.md); .ci/run does.\n${banner}`,
  );
  describe('conformance to the Berlin Group 1.3.11 yaml', () => {
    it.skip('did not run: BERLIN_GROUP_YAML is unset', () => undefined);
  });
} else {
  let yaml: BerlinGroupYaml;
  const covered = new Set<string>();
  const all: { exchange: Exchange; violations: Violation[] }[] = [];

  beforeAll(async () => {
    yaml = await BerlinGroupYaml.load(FILE);
  });

  afterAll(() => {
    const defects = documentedDefects();
    const unexplained: string[] = [];
    const used = new Set<string>();
    let allowed = 0;
    for (const { exchange, violations } of all) {
      for (const violation of violations) {
        const defect = defects.find(({ pattern }) => pattern.test(violation.key));
        if (defect) {
          allowed++;
          used.add(defect.row);
        } else
          unexplained.push(
            `${exchange.method.toUpperCase()} ${exchange.url} -> ${exchange.status}: ${violation.key}: ${violation.details}`,
          );
      }
    }
    console.log(
      `Berlin Group 1.3.11 conformance: ${all.length} requests, ${covered.size} of ${yaml.operationIds.length} operations, ${allowed} violations allowed by docs/conformance.md (${used.size} of its ${defects.length} rows), ${unexplained.length} else`,
    );
    expect(unexplained).toEqual([]);
    // The list stays exact: a row no answer needs any more is a defect of the document.
    expect(defects.map(({ row }) => row).filter((row) => !used.has(row))).toEqual([]);
    expect(yaml.operationIds.filter((operationId) => !covered.has(operationId))).toEqual([]);
  });

  describe.each(['auto', 'redirect'])('conformance to the Berlin Group 1.3.11 yaml, SCA_MODE=%s', (mode) => {
    const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: mode, PUBLIC_BASE_URL: 'https://sandbox.example' });
    let client: Client;
    beforeAll(() => {
      client = new Client(sandbox.http, yaml);
    });
    afterAll(() => {
      for (const { exchange, violations } of client.exchanges) {
        all.push({ exchange, violations });
        covered.add(yaml.operationOf(exchange.method, exchange.url)!.operationId!);
      }
    });
    const approaches: Approach[] = mode === 'auto' ? ['auto'] : ['redirect', 'embedded', 'decoupled'];

    /**
     * Completes the SCA of what `created` answered as the approach asks: the holder at the bank's
     * page (the control API stands in for it), the password and TAN, the app confirming at the
     * third poll; in SCA_MODE=auto there is nothing to do.
     */
    const authorise = async (
      approach: Approach,
      names: { get: string; put: string; list: string },
      base: string,
      created: { _links?: Record<string, { href: string }> },
      page: string,
    ) => {
      if (approach === 'auto') return;
      const links = created._links ?? {};
      const authorisation =
        links.scaStatus?.href ??
        `${base}/authorisations/${(await client.send(names.list, 'get', `${base}/authorisations`, 200)).body.authorisationIds[0]}`;
      if (approach === 'redirect') {
        await client.send(names.get, 'get', authorisation, 200);
        await request(sandbox.http).post(`/sandbox/sca/${page}`).send({ psuId: PSU, decision: 'approve' }).expect(200);
      } else if (approach === 'embedded') {
        await client.send(names.put, 'put', authorisation, 200, { body: { psuData: { password: 'sandbox' } } });
        await client.send(names.put, 'put', authorisation, 200, { body: { scaAuthenticationData: '123456' } });
      } else {
        for (let poll = 0; poll < 3; poll++) await client.send(names.get, 'get', authorisation, 200);
      }
      expect((await client.send(names.get, 'get', authorisation, 200)).body.scaStatus).toBe('finalised');
    };
    const CONSENT_SCA = { get: 'getConsentScaStatus', put: 'updateConsentsPsuData', list: 'getConsentAuthorisation' };
    const PAYMENT_SCA = { get: 'getPaymentInitiationScaStatus', put: 'updatePaymentPsuData', list: 'getPaymentInitiationAuthorisation' };
    const CANCELLATION_SCA = {
      get: 'getPaymentCancellationScaStatus',
      put: 'updatePaymentCancellationPsuData',
      list: 'getPaymentInitiationCancellationAuthorisationInformation',
    };
    const BASKET_SCA = { get: 'getSigningBasketScaStatus', put: 'updateSigningBasketPsuData', list: 'getSigningBasketAuthorisation' };

    /** A valid consent of Susanne's, to the given access. */
    const consent = async (approach: Approach, access: object, extra: Record<string, string> = {}, frequencyPerDay = 4) => {
      const body = { access, recurringIndicator: true, validUntil: '2026-06-30', frequencyPerDay, combinedServiceIndicator: false };
      const created = await client.send('createConsent', 'post', '/v1/consents', 201, {
        headers: { ...PREFERENCE[approach], ...extra },
        body,
      });
      const { consentId } = created.body;
      return { consentId: consentId as string, created: created.body };
    };

    it.each(approaches)('account information in the %s approach: a consent to named accounts, every read, its end', async (approach) => {
      const access = { accounts: [{ iban: SUSANNE }], balances: [{ iban: SUSANNE }], transactions: [{ iban: SUSANNE }] };
      const { consentId, created } = await consent(approach, access);
      const base = `/v1/consents/${consentId}`;
      await client.send('getConsentInformation', 'get', base, 200);
      await client.send('getConsentStatus', 'get', `${base}/status`, 200);
      await authorise(approach, CONSENT_SCA, base, created, `consents/${consentId}`);
      await client.send('getConsentAuthorisation', 'get', `${base}/authorisations`, 200);
      expect((await client.send('getConsentStatus', 'get', `${base}/status`, 200)).body).toEqual({ consentStatus: 'valid' });
      const read = { 'Consent-ID': consentId };
      const list = await client.send('getAccountList', 'get', '/v1/accounts?withBalance=true', 200, { headers: read });
      expect(list.body.accounts.map(({ iban }: { iban: string }) => iban)).toEqual([SUSANNE]);
      const accountId = list.body.accounts[0].resourceId as string;
      await client.send('readAccountDetails', 'get', `/v1/accounts/${accountId}?withBalance=true`, 200, { headers: read });
      await client.send('getBalances', 'get', `/v1/accounts/${accountId}/balances`, 200, { headers: read });
      const transactions = await client.send(
        'getTransactionList',
        'get',
        `/v1/accounts/${accountId}/transactions?bookingStatus=both&dateFrom=2019-01-01`,
        200,
        { headers: read },
      );
      const transactionId = (transactions.body.transactions.booked[0] as { transactionId: string }).transactionId;
      await client.send('getTransactionDetails', 'get', `/v1/accounts/${accountId}/transactions/${transactionId}`, 200, { headers: read });
      // The error cases the yaml lists for these reads.
      await client.send(
        'getTransactionList',
        'get',
        `/v1/accounts/${accountId}/transactions?bookingStatus=sometimes&dateFrom=2019-01-01`,
        400,
        { headers: read, invalidOnPurpose: true },
      );
      await client.send('getBalances', 'get', `/v1/accounts/${accountId}/balances`, 400, {
        headers: { ...read, 'X-Request-ID': '' },
        invalidOnPurpose: true,
      });
      await client.send('getBalances', 'get', `/v1/accounts/${accountId}/balances`, 403, { headers: { 'Consent-ID': randomUUID() } });
      await client.send('getAccountList', 'get', '/v1/accounts', 400, { headers: { 'Consent-ID': '' }, invalidOnPurpose: true });
      // A further authorisation of a consent already valid is a conflict; a redirect authorisation takes no PSU data.
      await client.send('startConsentAuthorisation', 'post', `${base}/authorisations`, 409, { headers: PREFERENCE[approach], body: {} });
      const [authorisationId] = (await client.send('getConsentAuthorisation', 'get', `${base}/authorisations`, 200)).body.authorisationIds;
      if (approach === 'redirect')
        await client.send('updateConsentsPsuData', 'put', `${base}/authorisations/${authorisationId}`, 405, {
          body: { psuData: { password: 'sandbox' } },
        });
      // The access limit: without the holder present (no PSU-IP-Address), the second read of the day is one too many.
      const limited = await consent(approach, { balances: [{ iban: SUSANNE }] }, {}, 1);
      await authorise(approach, CONSENT_SCA, `/v1/consents/${limited.consentId}`, limited.created, `consents/${limited.consentId}`);
      const absent = { 'Consent-ID': limited.consentId, 'PSU-IP-Address': '' };
      await client.send('getBalances', 'get', `/v1/accounts/${accountId}/balances`, 200, { headers: absent });
      await client.send('getBalances', 'get', `/v1/accounts/${accountId}/balances`, 429, { headers: absent });
      await client.send('deleteConsent', 'delete', base, 204);
      await client.send('getBalances', 'get', `/v1/accounts/${accountId}/balances`, 401, { headers: read });
      await client.send('getConsentInformation', 'get', `/v1/consents/${randomUUID()}`, 403);
    });

    it.each(approaches)('a consent authorised explicitly in the %s approach, and card accounts', async (approach) => {
      // allPsd2: every service on every account (availableAccounts would grant the accounts' details only).
      const { consentId, created } = await consent(
        approach,
        { allPsd2: 'allAccounts' },
        { 'TPP-Explicit-Authorisation-Preferred': 'true' },
      );
      const base = `/v1/consents/${consentId}`;
      expect(created._links.startAuthorisation).toEqual({ href: `${base}/authorisations` });
      const started = await client.send('startConsentAuthorisation', 'post', `${base}/authorisations`, 201, {
        headers: PREFERENCE[approach],
        body: {},
      });
      await authorise(approach, CONSENT_SCA, base, started.body, `consents/${consentId}`);
      const read = { 'Consent-ID': consentId };
      const cards = await client.send('getCardAccountList', 'get', '/v1/card-accounts', 200, { headers: read });
      const cardId = cards.body.cardAccounts[0].resourceId as string;
      await client.send('readCardAccountDetails', 'get', `/v1/card-accounts/${cardId}`, 200, { headers: read });
      await client.send('getCardAccountBalances', 'get', `/v1/card-accounts/${cardId}/balances`, 200, { headers: read });
      await client.send(
        'getCardAccountTransactionList',
        'get',
        `/v1/card-accounts/${cardId}/transactions?bookingStatus=booked&dateFrom=2026-01-01`,
        200,
        { headers: read },
      );
      await client.send('readCardAccountDetails', 'get', `/v1/card-accounts/${randomUUID()}`, 404, { headers: read });
    });

    it.each(approaches)('every payment product in the %s approach: initiation, reads, SCA, cancellation', async (approach) => {
      for (const [path, body] of Object.entries(PAYMENTS)) {
        const created = await client.send('initiatePayment', 'post', `/v1/${path}`, 201, { headers: PREFERENCE[approach], body });
        const base = `/v1/${path}/${created.body.paymentId}`;
        await client.send('getPaymentInformation', 'get', base, 200);
        await client.send('getPaymentInitiationStatus', 'get', `${base}/status`, 200);
        await client.send('getPaymentInitiationAuthorisation', 'get', `${base}/authorisations`, 200);
        await authorise(approach, PAYMENT_SCA, base, created.body, `payments/${created.body.paymentId}`);
        await client.send('getPaymentInitiationStatus', 'get', `${base}/status`, 200);
      }
      // A standing order waits for its first date: its cancellation needs the holder's SCA.
      const path = 'periodic-payments/sepa-credit-transfers';
      const created = await client.send('initiatePayment', 'post', `/v1/${path}`, 201, {
        headers: { ...PREFERENCE[approach], 'TPP-Explicit-Authorisation-Preferred': 'true' },
        body: PAYMENTS[path],
      });
      const paymentId = created.body.paymentId as string;
      const base = `/v1/${path}/${paymentId}`;
      const started = await client.send('startPaymentAuthorisation', 'post', `${base}/authorisations`, 201, {
        headers: PREFERENCE[approach],
        body: {},
      });
      await authorise(approach, PAYMENT_SCA, base, started.body, `payments/${paymentId}`);
      const cancelled = await client.send('cancelPayment', 'delete', base, 202, { headers: PREFERENCE[approach] });
      const start = Object.values(cancelled.body._links as Record<string, { href: string }>)[0].href;
      expect(start).toBe(`${base}/cancellation-authorisations`);
      const authorisation = await client.send('startPaymentInitiationCancellationAuthorisation', 'post', start, 201, {
        headers: PREFERENCE[approach],
        body: {},
      });
      await client.send('getPaymentInitiationCancellationAuthorisationInformation', 'get', start, 200);
      await authorise(approach, CANCELLATION_SCA, base, authorisation.body, `payments/${paymentId}/cancellation`);
      expect((await client.send('getPaymentInitiationStatus', 'get', `${base}/status`, 200)).body.transactionStatus).toBe('CANC');
      // The error cases the yaml lists for payments: a wrong password counts and is refused.
      if (approach === 'embedded') {
        const wrong = await client.send('initiatePayment', 'post', '/v1/payments/sepa-credit-transfers', 201, {
          headers: PREFERENCE[approach],
          body: PAYMENTS['payments/sepa-credit-transfers'],
        });
        const authorisation = wrong.body._links.updatePsuAuthentication.href as string;
        await client.send('updatePaymentPsuData', 'put', authorisation, 401, { body: { psuData: { password: 'wrong' } } });
      }
      await client.send('initiatePayment', 'post', '/v1/payments/sepa-credit-transfers', 400, {
        headers: PREFERENCE[approach],
        body: { debtorAccount: { iban: SUSANNE } },
        invalidOnPurpose: true,
      });
      // A product the yaml names and the profile does not offer (its pain.001 products it does: test/formats.e2e-spec.ts).
      await client.send('initiatePayment', 'post', '/v1/payments/target-2-payments', 404, {
        headers: PREFERENCE[approach],
        body: PAYMENTS['payments/sepa-credit-transfers'],
      });
      await client.send('getPaymentInformation', 'get', `/v1/payments/sepa-credit-transfers/${randomUUID()}`, 404);
      await client.send('cancelPayment', 'delete', `/v1/payments/sepa-credit-transfers/${paymentId}`, 404);
    });

    it.each(approaches)('funds confirmation and a signing basket in the %s approach', async (approach) => {
      // The question needs a consent of the /v2 routes (beyond 1.3.11: docs/conformance.md), which the holder approves.
      const funds = await request(sandbox.http)
        .post('/v2/consents/confirmation-of-funds')
        .set({ 'X-Request-ID': randomUUID(), Authorization: 'Bearer sandbox' })
        .send({ account: { iban: SUSANNE } })
        .expect(201);
      const fundsConsent = funds.body.consentId as string;
      if (approach !== 'auto')
        await request(sandbox.http).post(`/sandbox/sca/consents/${fundsConsent}`).send({ psuId: PSU, decision: 'approve' }).expect(200);
      const question = { account: { iban: SUSANNE }, instructedAmount: { currency: 'EUR', amount: '10.00' } };
      expect(
        (
          await client.send('checkAvailabilityOfFunds', 'post', '/v1/funds-confirmations', 200, {
            headers: { 'Consent-ID': fundsConsent },
            body: question,
          })
        ).body,
      ).toEqual({ fundsAvailable: true });
      const piis = await client.send('checkAvailabilityOfFunds', 'post', '/v1/funds-confirmations', 400, {
        headers: { 'Consent-ID': fundsConsent },
        body: { account: { iban: SUSANNE } },
        invalidOnPurpose: true,
      });
      expect(piis.body.tppMessages[0].code).toBe('FORMAT_ERROR');
      const explicit = { ...PREFERENCE[approach], 'TPP-Explicit-Authorisation-Preferred': 'true' };
      const paymentIds: string[] = [];
      for (const amount of ['4.00', '5.00']) {
        const body = { ...PAYMENTS['payments/sepa-credit-transfers'], instructedAmount: { currency: 'EUR', amount } };
        paymentIds.push(
          (await client.send('initiatePayment', 'post', '/v1/payments/sepa-credit-transfers', 201, { headers: explicit, body })).body
            .paymentId,
        );
      }
      const created = await client.send('createSigningBasket', 'post', '/v1/signing-baskets', 201, {
        headers: PREFERENCE[approach],
        body: { paymentIds },
      });
      const basketId = created.body.basketId as string;
      const base = `/v1/signing-baskets/${basketId}`;
      await client.send('getSigningBasket', 'get', base, 200);
      if (approach === 'auto') {
        expect((await client.send('getSigningBasketStatus', 'get', `${base}/status`, 200)).body).toEqual({ transactionStatus: 'ACTC' });
      } else {
        await client.send('getSigningBasketStatus', 'get', `${base}/status`, 200);
        const started = await client.send('startSigningBasketAuthorisation', 'post', `${base}/authorisations`, 201, {
          headers: PREFERENCE[approach],
          body: {},
        });
        await authorise(approach, BASKET_SCA, base, started.body, `signing-baskets/${basketId}`);
        await client.send('getSigningBasketAuthorisation', 'get', `${base}/authorisations`, 200);
        expect((await client.send('getSigningBasketStatus', 'get', `${base}/status`, 200)).body).toEqual({ transactionStatus: 'ACTC' });
      }
      for (const paymentId of paymentIds)
        expect(
          (await client.send('getPaymentInitiationStatus', 'get', `/v1/payments/sepa-credit-transfers/${paymentId}/status`, 200)).body
            .transactionStatus,
        ).toBe('ACSP');
      const another = (
        await client.send('initiatePayment', 'post', '/v1/payments/sepa-credit-transfers', 201, {
          headers: explicit,
          body: PAYMENTS['payments/sepa-credit-transfers'],
        })
      ).body.paymentId;
      const unsigned = (await client.send('createSigningBasket', 'post', '/v1/signing-baskets', 201, { body: { paymentIds: [another] } }))
        .body.basketId;
      await client.send('deleteSigningBasket', 'delete', `/v1/signing-baskets/${unsigned}`, 204);
      await client.send('getSigningBasket', 'get', `/v1/signing-baskets/${randomUUID()}`, 404);
    });
  });
}
