import request from 'supertest';
import { accountDetails, PROFILE, shaped } from './support/profile';
import { Consent } from '../src/consent/consent.entity';
import {
  ERWIN,
  EXPIRED_CONSENT,
  FRANZ,
  GEORG,
  MARIANNE,
  reference,
  SECOND_VALID_CONSENT,
  SUSANNE,
  transaction,
  UNKNOWN_CONSENT,
  VALID_CONSENT,
} from './support/fixtures';
import { allAccountsConsent, tppError, tppHeaders, useSandbox } from './support/sandbox';

const balance = (balanceType: string, amount: string, referenceDate: string) => ({
  balanceAmount: { currency: 'EUR', amount },
  balanceType,
  lastChangeDateTime: null,
  referenceDate,
  lastCommittedTransaction: null,
});
const MARIANNE_BALANCES = [balance('forwardAvailable', '1340.55', '2019-03-07'), balance('interimAvailable', '2850.49', '2019-03-06')];
const GEORG_BALANCES = [balance('forwardAvailable', '4533.55', '2019-03-07'), balance('interimAvailable', '5119.49', '2019-03-06')];

const account = (iban: string, name: string, balances: object[] | null) => ({
  resourceId: iban,
  iban,
  currency: 'EUR',
  name,
  product: 'Giro',
  cashAccountType: null,
  status: null,
  linkedAccounts: null,
  usage: null,
  details: null,
  bic: 'TESTAT99',
  balances,
  _links: { balances: { href: `/v1/accounts/${iban}/balances` }, transactions: { href: `/v1/accounts/${iban}/transactions` } },
});

/** The bank's answer to GET /v1/accounts?withBalance=true for consent e6151d43-…, byte for byte. */
const BANK_ACCOUNT_LIST =
  '{"accounts":[' +
  '{"resourceId":"AT099900000000001511","iban":"AT099900000000001511","currency":"EUR","name":"Marianne Mustermann","product":"Giro","cashAccountType":null,"status":null,"linkedAccounts":null,"usage":null,"details":null,"bic":"TESTAT99",' +
  '"balances":[{"balanceAmount":{"currency":"EUR","amount":"1340.55"},"balanceType":"forwardAvailable","lastChangeDateTime":null,"referenceDate":"2019-03-07","lastCommittedTransaction":null},' +
  '{"balanceAmount":{"currency":"EUR","amount":"2850.49"},"balanceType":"interimAvailable","lastChangeDateTime":null,"referenceDate":"2019-03-06","lastCommittedTransaction":null}],' +
  '"_links":{"balances":{"href":"/v1/accounts/AT099900000000001511/balances"},"transactions":{"href":"/v1/accounts/AT099900000000001511/transactions"}}},' +
  '{"resourceId":"AT439900000000010017","iban":"AT439900000000010017","currency":"EUR","name":"Georg Mustermann","product":"Giro","cashAccountType":null,"status":null,"linkedAccounts":null,"usage":null,"details":null,"bic":"TESTAT99",' +
  '"balances":[{"balanceAmount":{"currency":"EUR","amount":"4533.55"},"balanceType":"forwardAvailable","lastChangeDateTime":null,"referenceDate":"2019-03-07","lastCommittedTransaction":null},' +
  '{"balanceAmount":{"currency":"EUR","amount":"5119.49"},"balanceType":"interimAvailable","lastChangeDateTime":null,"referenceDate":"2019-03-06","lastCommittedTransaction":null}],' +
  '"_links":{"balances":{"href":"/v1/accounts/AT439900000000010017/balances"},"transactions":{"href":"/v1/accounts/AT439900000000010017/transactions"}}}]}';

const eur = (amount: string) => ({ currency: 'EUR', amount });

const MARIANNE_SALARY = transaction({
  transactionId: '1511-B01',
  bookingDate: '2019-03-05',
  valueDate: '2019-03-05',
  transactionAmount: eur('-1533.11'),
  creditorName: 'Georg Mustermann',
  creditorAccount: reference(GEORG),
  debtorAccount: reference(MARIANNE),
  remittanceInformationUnstructured: 'Salary',
  bankTransactionCode: 'PMNT-ICDT-ESCT',
});
const MARIANNE_PENDING = transaction({
  transactionId: '1511-P01',
  bookingDate: '2019-03-07',
  valueDate: null,
  transactionAmount: eur('789.89'),
  creditorName: 'Marianne Mustermann',
  creditorAccount: reference(MARIANNE),
  debtorAccount: reference(GEORG),
  remittanceInformationUnstructured: 'Pending Order Sent',
});
const MARIANNE_STANDING_ORDER = transaction({
  transactionId: '1511-S01',
  transactionAmount: eur('-650.00'),
  creditorName: 'Hausverwaltung Muster',
  creditorAccount: reference('AT131490022010010999'),
  debtorAccount: reference(MARIANNE),
  remittanceInformationUnstructured: 'Rent',
  additionalInformationStructured: {
    standingOrderDetails: {
      startDate: '2018-01-01',
      frequency: 'Monthly',
      endDate: '2020-12-31',
      executionRule: 'preceding',
      withinAMonthFlag: null,
      monthsOfExecution: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'],
      multiplicator: null,
      dayOfExecution: '1',
      limitAmount: null,
    },
  },
  bankTransactionCode: 'PMNT-ICDT-STDO',
});

const transactionsBody = (iban: string, lists: { booked?: unknown[]; pending?: unknown[]; information?: unknown[] }) => ({
  account: reference(iban, null),
  transactions: {
    booked: lists.booked ?? null,
    pending: lists.pending ?? null,
    information: lists.information ?? null,
    _links: { account: { href: `/v1/accounts/${iban}` } },
  },
  balances: null,
  _links: null,
});

describe('account information', () => {
  const sandbox = useSandbox();
  const get = (path: string, consentId: string | null = VALID_CONSENT) =>
    request(sandbox.http)
      .get(path)
      .set(tppHeaders(consentId ? { 'Consent-ID': consentId } : {}));
  const ids = (list: { transactionId: string }[]) => list.map((entry) => entry.transactionId);

  describe('GET /v1/accounts', () => {
    it.each(['/v1/accounts?withBalance=true', '/v1/accounts/?withBalance=true'])(
      "%s answers the bank's list byte for byte",
      async (path) => {
        const headers = tppHeaders({ 'Consent-ID': VALID_CONSENT });
        const response = await request(sandbox.http).get(path).set(headers).expect(200);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(response.headers['x-request-id']).toBe(headers['X-Request-ID']);
        // The bank's bytes; in Berlin Group the same list without its nulls.
        if (PROFILE === 'bank') expect(response.text).toBe(BANK_ACCOUNT_LIST);
        else expect(response.body).toEqualBody(JSON.parse(BANK_ACCOUNT_LIST));
      },
    );

    it.each(['/v1/accounts', '/v1/accounts/?withBalance=false'])('%s carries "balances": null', async (path) => {
      const response = await get(path).expect(200);
      expect(response.body).toEqualBody({
        accounts: [account(MARIANNE, 'Marianne Mustermann', null), account(GEORG, 'Georg Mustermann', null)],
      });
    });

    it('lists the accounts of the second valid fixture', async () => {
      const response = await get('/v1/accounts', SECOND_VALID_CONSENT).expect(200);
      expect(response.body).toEqualBody({
        accounts: [account(SUSANNE, 'Susanne Mustermann', null), account(FRANZ, 'Franz Mustermann', null)],
      });
    });

    it('lists every account for an allAccounts consent', async () => {
      const consentId = await allAccountsConsent(sandbox.http, { recurringIndicator: false, validUntil: '2026-04-01', frequencyPerDay: 1 });
      const response = await get('/v1/accounts', consentId).expect(200);
      expect(response.body.accounts.map((entry: { iban: string }) => entry.iban)).toEqual([FRANZ, MARIANNE, ERWIN, GEORG, SUSANNE]);
    });

    it('refuses withBalance other than true or false', async () => {
      const response = await get('/v1/accounts?withBalance=yes').expect(400);
      expect(response.body).toEqualBody(
        tppError('FORMAT_ERROR', '{sensitive} XS2A001E: withBalance must be one of the following values: true, false', 'withBalance'),
      );
    });
  });

  describe('GET /v1/accounts/{accountId}', () => {
    it.each([`/v1/accounts/${MARIANNE}?withBalance=true`, `/v1/accounts/${MARIANNE}/?withBalance=true`])(
      '%s answers the account with balances',
      async (path) => {
        const response = await get(path).expect(200);
        expect(response.body).toEqual(accountDetails(account(MARIANNE, 'Marianne Mustermann', MARIANNE_BALANCES)));
      },
    );

    it('answers the account without balances unless asked', async () => {
      const response = await get(`/v1/accounts/${GEORG}`).expect(200);
      expect(response.body).toEqual(accountDetails(account(GEORG, 'Georg Mustermann', null)));
    });
  });

  describe('GET /v1/accounts/{accountId}/balances', () => {
    it.each([
      [MARIANNE, MARIANNE_BALANCES],
      [GEORG, GEORG_BALANCES],
    ])('answers the balances of %s', async (iban, balances) => {
      const headers = tppHeaders({ 'Consent-ID': VALID_CONSENT });
      const response = await request(sandbox.http).get(`/v1/accounts/${iban}/balances`).set(headers).expect(200);
      expect(response.headers['x-request-id']).toBe(headers['X-Request-ID']);
      expect(response.body).toEqualBody({ account: null, balances });
    });
  });

  describe('GET /v1/accounts/{accountId}/transactions', () => {
    it('booked: the booked list, newest first; pending and information null', async () => {
      const response = await get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`).expect(200);
      expect(response.body).toEqualBody(transactionsBody(MARIANNE, { booked: expect.any(Array) }));
      expect(ids(response.body.transactions.booked)).toEqual(['1511-B01', '1511-B02', '1511-B03', '1511-B04', '1511-B05']);
      expect(response.body.transactions.booked[0]).toEqualBody(MARIANNE_SALARY);
      for (const entry of response.body.transactions.booked) {
        expect(Object.keys(entry)).toEqual(Object.keys(shaped(MARIANNE_SALARY)));
        expect(entry.valueDate).toBe(entry.bookingDate);
      }
    });

    it("keeps the bank's transactions of Georg", async () => {
      const response = await get(`/v1/accounts/${GEORG}/transactions?bookingStatus=booked`).expect(200);
      const amounts = response.body.transactions.booked.map(
        (entry: { transactionAmount: { amount: string }; remittanceInformationUnstructured: string }) => [
          entry.transactionAmount.amount,
          entry.remittanceInformationUnstructured,
        ],
      );
      expect(amounts).toEqual(
        expect.arrayContaining([
          ['9820.99', 'incoming payment'],
          ['-5988.00', 'Payment'],
        ]),
      );
    });

    it('pending: the pending list, with a booking date and no value date', async () => {
      const response = await get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=pending`).expect(200);
      expect(response.body).toEqualBody(transactionsBody(MARIANNE, { pending: [MARIANNE_PENDING] }));
    });

    it('information: the standing orders, with their details', async () => {
      const response = await get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=information`).expect(200);
      expect(response.body).toEqualBody(transactionsBody(MARIANNE, { information: [MARIANNE_STANDING_ORDER] }));
    });

    it('both: booked and pending; information null', async () => {
      const response = await get(`/v1/accounts/${MARIANNE}/transactions/?bookingStatus=both`).expect(200);
      expect(response.body).toEqualBody(transactionsBody(MARIANNE, { booked: expect.any(Array), pending: [MARIANNE_PENDING] }));
      expect(response.body.transactions.booked).toHaveLength(5);
    });

    it.each([GEORG, SUSANNE, FRANZ])(
      'every valid account of the fixtures shows booked, pending and a standing order (%s)',
      async (iban) => {
        const consentId = iban === GEORG ? VALID_CONSENT : SECOND_VALID_CONSENT;
        const both = (await get(`/v1/accounts/${iban}/transactions?bookingStatus=both`, consentId).expect(200)).body.transactions;
        const information = (await get(`/v1/accounts/${iban}/transactions?bookingStatus=information`, consentId).expect(200)).body
          .transactions;
        expect(both.booked.length).toBeGreaterThanOrEqual(5);
        expect(both.pending.length).toBeGreaterThanOrEqual(1);
        expect(information.information.length).toBeGreaterThanOrEqual(1);
        expect(information.information[0]).toMatchBody({
          bookingDate: null,
          valueDate: null,
          additionalInformationStructured: { standingOrderDetails: { frequency: 'Monthly' } },
        });
      },
    );

    it.each([
      ['dateFrom=2019-02-15&dateTo=2019-03-01', ['1511-B02', '1511-B03', '1511-B04']],
      ['dateFrom=2019-03-01', ['1511-B01', '1511-B02']],
      ['dateTo=2019-02-15', ['1511-B04', '1511-B05']],
      ['dateFrom=2019-03-05&dateTo=2019-03-05', ['1511-B01']],
      ['dateFrom=2020-01-01', []],
    ])('filters booked by booking date: %s', async (period, expected) => {
      const response = await get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked&${period}`).expect(200);
      expect(ids(response.body.transactions.booked)).toEqual(expected);
    });

    it('filters pending by booking date too, an empty list being []', async () => {
      const response = await get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=both&dateTo=2019-03-06`).expect(200);
      expect(response.body.transactions.pending).toEqualBody([]);
      expect(response.body.transactions.booked).toHaveLength(5);
    });

    describe('a database-held account answers as the in-memory fixtures do', () => {
      type Entry = {
        bookingDate: string;
        transactionAmount: { amount: string };
        creditorName?: string;
        debtorName?: string;
        creditorAccount?: { iban: string };
        debtorAccount?: { iban: string };
      };
      const asScenarioEntry = (entry: Entry) => ({
        amount: entry.transactionAmount.amount,
        bookingDate: entry.bookingDate,
        counterpartyName: entry.creditorName ?? entry.debtorName,
        counterpartyIban: (entry.creditorAccount ?? entry.debtorAccount)!.iban,
      });
      const shape = (list: Entry[] | null) => list?.map((entry) => [entry.bookingDate, entry.transactionAmount.amount]) ?? null;
      let twin: { iban: string; consentId: string };

      beforeAll(async () => {
        // A scenario account with Marianne's booked and pending entries: read from the database, not from memory.
        const marianne = (await get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=both`).expect(200)).body.transactions;
        const created = await request(sandbox.http)
          .post('/sandbox/scenarios')
          .send({
            accounts: [
              {
                name: 'Twin',
                balances: { interimAvailable: '1.00', forwardAvailable: '1.00' },
                booked: marianne.booked.map(asScenarioEntry),
                pending: marianne.pending.map(asScenarioEntry),
              },
            ],
          })
          .expect(201);
        twin = { iban: created.body.accounts[0].iban, consentId: created.body.consentId };
      });

      it.each([
        'bookingStatus=both',
        'bookingStatus=booked',
        'bookingStatus=pending',
        'bookingStatus=both&dateFrom=2019-02-15&dateTo=2019-03-01',
        'bookingStatus=both&dateFrom=2019-03-01',
        'bookingStatus=both&dateTo=2019-02-15',
        'bookingStatus=booked&dateFrom=2019-03-05&dateTo=2019-03-05',
        'bookingStatus=both&dateFrom=2020-01-01',
      ])('%s', async (query) => {
        const fixture = (await get(`/v1/accounts/${MARIANNE}/transactions?${query}`).expect(200)).body.transactions;
        const stored = (await get(`/v1/accounts/${twin.iban}/transactions?${query}`, twin.consentId).expect(200)).body.transactions;
        expect({ booked: shape(stored.booked), pending: shape(stored.pending) }).toEqual({
          booked: shape(fixture.booked),
          pending: shape(fixture.pending),
        });
      });

      it('answers the details of each of its entries as its list shows them', async () => {
        const { booked, pending } = (await get(`/v1/accounts/${twin.iban}/transactions?bookingStatus=both`, twin.consentId).expect(200))
          .body.transactions;
        expect(booked.length + pending.length).toBe(6);
        for (const entry of [...booked, ...pending]) {
          const response = await get(`/v1/accounts/${twin.iban}/transactions/${entry.transactionId}`, twin.consentId).expect(200);
          expect(response.body).toEqualBody({ transactionsDetails: { transactionDetails: entry } });
        }
      });
    });

    it('leaves standing orders out of the period filter', async () => {
      const response = await get(
        `/v1/accounts/${MARIANNE}/transactions?bookingStatus=information&dateFrom=2019-03-01&dateTo=2019-03-02`,
      ).expect(200);
      expect(response.body.transactions.information).toEqualBody([MARIANNE_STANDING_ORDER]);
    });

    it('answers 400 PERIOD_INVALID when dateFrom is after dateTo', async () => {
      const response = await get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked&dateFrom=2019-03-02&dateTo=2019-03-01`).expect(
        400,
      );
      expect(response.body).toEqualBody(
        tppError('PERIOD_INVALID', '{sensitive} XS2A010E: dateFrom 2019-03-02 is after dateTo 2019-03-01', 'dateFrom'),
      );
    });

    it.each([
      ['', 'bookingStatus', 'bookingStatus is required'],
      ['bookingStatus=all', 'bookingStatus', 'bookingStatus must be one of the following values: booked, pending, both, information'],
      [
        'bookingStatus=booked&dateFrom=2019-02-30',
        'dateFrom',
        'dateFrom must be a real date written YYYY-MM-DD, from 1000-01-01 to 9999-12-31',
      ],
      ['bookingStatus=booked&dateTo=yesterday', 'dateTo', 'dateTo must be a real date written YYYY-MM-DD, from 1000-01-01 to 9999-12-31'],
      ['bookingStatus=booked&page=0', 'page', 'page must be a whole number from 1'],
      ['bookingStatus=booked&pageSize=1001', 'pageSize', 'pageSize must be a whole number from 1 to 1000'],
      ['bookingStatus=booked&pageSize=ten', 'pageSize', 'pageSize must be a whole number from 1 to 1000'],
    ])('refuses the query "%s" with FORMAT_ERROR', async (query, path, description) => {
      const response = await get(`/v1/accounts/${MARIANNE}/transactions?${query}`).expect(400);
      expect(response.body).toEqualBody(tppError('FORMAT_ERROR', `{sensitive} XS2A001E: ${description}`, path));
    });
  });

  describe('a history longer than a page', () => {
    let history: { iban: string; consentId: string };
    const day = (index: number) => new Date(Date.UTC(2025, 0, 1) + index * 86_400_000).toISOString().slice(0, 10);
    beforeAll(async () => {
      const booked = Array.from({ length: 250 }, (_, index) => ({
        amount: `-${index + 1}.00`,
        bookingDate: day(index),
        counterpartyName: 'Shop',
        counterpartyIban: GEORG,
      }));
      const created = await request(sandbox.http)
        .post('/sandbox/scenarios')
        .send({ accounts: [{ name: 'Long', balances: { interimAvailable: '1.00', forwardAvailable: '1.00' }, booked }] })
        .expect(201);
      history = { iban: created.body.accounts[0].iban, consentId: created.body.consentId };
    });
    const pageOf = (query: string) => `/v1/accounts/${history.iban}/transactions?${query}`;

    it('comes in pages of 100 linked first, next, previous and last, which together hold all 250 exactly once', async () => {
      const seen: string[] = [];
      const linksOfPages: object[] = [];
      let path: string | undefined = pageOf('bookingStatus=booked');
      while (path) {
        const response: request.Response = await get(path, history.consentId).expect(200);
        const { booked, pending, information, _links } = response.body.transactions;
        expect({ pending, information }).toEqual(PROFILE === 'berlin-group' ? {} : { pending: null, information: null });
        seen.push(...ids(booked));
        linksOfPages.push(_links);
        path = _links.next?.href;
      }
      const page = (number: number) => ({ href: pageOf(`bookingStatus=booked&page=${number}`) });
      expect(linksOfPages).toEqual([
        { account: { href: `/v1/accounts/${history.iban}` }, first: page(1), next: page(2), last: page(3) },
        { account: { href: `/v1/accounts/${history.iban}` }, first: page(1), next: page(3), previous: page(1), last: page(3) },
        { account: { href: `/v1/accounts/${history.iban}` }, first: page(1), previous: page(2), last: page(3) },
      ]);
      expect(seen).toHaveLength(250);
      expect(new Set(seen).size).toBe(250);
      // Newest first across the pages, as in one list.
      const all = (await get(pageOf('bookingStatus=booked&pageSize=1000'), history.consentId).expect(200)).body.transactions;
      expect(seen).toEqual(ids(all.booked));
      expect(all._links).toEqual({ account: { href: `/v1/accounts/${history.iban}` } });
    });

    it('keeps the query in its links, pageSize included', async () => {
      const response = await get(pageOf('bookingStatus=both&dateFrom=2025-03-01&pageSize=50&page=2'), history.consentId).expect(200);
      const page = (number: number) => ({ href: pageOf(`bookingStatus=both&dateFrom=2025-03-01&pageSize=50&page=${number}`) });
      // From 2025-03-01: 191 entries, four pages of 50.
      expect(response.body.transactions._links).toEqual({
        account: { href: `/v1/accounts/${history.iban}` },
        first: page(1),
        next: page(3),
        previous: page(1),
        last: page(4),
      });
      expect(response.body.transactions.booked).toHaveLength(50);
      expect(response.body.transactions.pending).toEqual([]);
    });

    it('refuses a page beyond the last with FORMAT_ERROR', async () => {
      const response = await get(pageOf('bookingStatus=booked&page=4'), history.consentId).expect(400);
      expect(response.body).toEqualBody(tppError('FORMAT_ERROR', '{sensitive} XS2A001E: page 4 is beyond the last page, 3', 'page'));
    });
  });

  describe('GET /v1/accounts/{accountId}/transactions/{transactionId}', () => {
    it('answers a booked entry as the list shows it, as the Berlin Group yaml wraps it', async () => {
      const response = await get(`/v1/accounts/${MARIANNE}/transactions/1511-B01`).expect(200);
      expect(response.body).toEqualBody({ transactionsDetails: { transactionDetails: MARIANNE_SALARY } });
    });

    it('answers a pending entry, and every entry of the list exactly as listed', async () => {
      const pending = await get(`/v1/accounts/${MARIANNE}/transactions/1511-P01/`).expect(200);
      expect(pending.body).toEqualBody({ transactionsDetails: { transactionDetails: MARIANNE_PENDING } });
      const consentId = await allAccountsConsent(sandbox.http, { frequencyPerDay: 100 });
      const { booked } = (await get(`/v1/accounts/${GEORG}/transactions?bookingStatus=booked`, consentId).expect(200)).body.transactions;
      for (const entry of booked) {
        const response = await get(`/v1/accounts/${GEORG}/transactions/${entry.transactionId}`, consentId).expect(200);
        expect(response.body).toEqualBody({ transactionsDetails: { transactionDetails: entry } });
      }
    });

    it.each([
      ['an ID the account does not have', 'no-such-transaction'],
      ["another account's transaction", '0017-B01'],
      ['a standing order (it has no details)', '1511-S01'],
    ])('%s is 404 RESOURCE_UNKNOWN', async (_, transactionId) => {
      const response = await get(`/v1/accounts/${MARIANNE}/transactions/${transactionId}`).expect(404);
      expect(response.body).toEqualBody(
        tppError('RESOURCE_UNKNOWN', `{sensitive} XS2A032E: transaction ${transactionId} unknown on account ${MARIANNE}`),
      );
    });
  });

  describe('the Consent-ID checks, in the order of docs/behaviour.md, "Account information"', () => {
    const paths = [
      ['account list', '/v1/accounts', 'XS2A005E'],
      ['account details', `/v1/accounts/${MARIANNE}`, 'XS2A005E'],
      ['balances', `/v1/accounts/${MARIANNE}/balances`, 'XS2A005E'],
      ['transactions', `/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`, 'XS2A004E'],
      ['transaction details', `/v1/accounts/${MARIANNE}/transactions/1511-B01`, 'XS2A004E'],
    ];

    it.each(paths)('%s: no Consent-ID header is 400 FORMAT_ERROR', async (_, path) => {
      const response = await get(path, null).expect(400);
      expect(response.body).toEqualBody(tppError('FORMAT_ERROR', '{sensitive} XS2A001E: the Consent-ID header is required', 'Consent-ID'));
    });

    it.each(paths)('%s: the unknown fixture is 403 CONSENT_UNKNOWN', async (_, path) => {
      const headers = tppHeaders({ 'Consent-ID': UNKNOWN_CONSENT });
      const response = await request(sandbox.http).get(path).set(headers).expect(403);
      expect(response.headers['x-request-id']).toBe(headers['X-Request-ID']);
      expect(response.body).toEqualBody(tppError('CONSENT_UNKNOWN', `{sensitive} XS2A017E: consent ${UNKNOWN_CONSENT} unknown`));
    });

    it.each(paths)("%s: the expired fixture is 401 CONSENT_EXPIRED with the bank's message number", async (_, path, messageId) => {
      const erwinPath = path.replace(MARIANNE, ERWIN);
      const response = await get(erwinPath, EXPIRED_CONSENT).expect(401);
      expect(response.body).toEqualBody(tppError('CONSENT_EXPIRED', `{sensitive} ${messageId}: consent ${EXPIRED_CONSENT} expired`));
    });

    it.each(paths.slice(1))('%s: an account outside the consent is 404 RESOURCE_UNKNOWN', async (_, path) => {
      const response = await get(path.replace(MARIANNE, SUSANNE)).expect(404);
      expect(response.body).toEqualBody(
        tppError('RESOURCE_UNKNOWN', `{sensitive} XS2A016E: resource ${SUSANNE} unknown, not found or not part of the current consent`),
      );
    });

    it.each(paths.slice(1))('%s: an account that does not exist is 404 RESOURCE_UNKNOWN', async (_, path) => {
      const response = await get(path.replace(MARIANNE, 'DE89370400440532013000')).expect(404);
      expect(response.body).toEqualBody(
        tppError(
          'RESOURCE_UNKNOWN',
          '{sensitive} XS2A016E: resource DE89370400440532013000 unknown, not found or not part of the current consent',
        ),
      );
    });

    it('checks the consent before the query', async () => {
      const response = await get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=nonsense`, UNKNOWN_CONSENT).expect(403);
      expect(response.body.tppMessages[0].code).toBe('CONSENT_UNKNOWN');
    });
  });

  describe('coverage of a consent that grants balances on one account and transactions on another', () => {
    const CONSENT = '0b9e7a8c-31f4-4d2a-9f55-0c1e6e7d2a10';
    beforeAll(async () => {
      // Such consents come from the redirect flow (issue 4); stored here directly as that flow would store them.
      await sandbox.dataSource.getRepository(Consent).insert({
        id: CONSENT,
        status: 'valid',
        access: {
          accounts: [],
          balances: [{ iban: MARIANNE, currency: null }],
          transactions: [{ iban: GEORG, currency: null }],
          availableAccounts: null,
        },
        recurringIndicator: true,
        validUntil: '2026-06-30',
        frequencyPerDay: 4,
        lastActionDate: '2026-03-15',
        fixture: false,
      });
    });

    it('lists both accounts, with balances only where granted', async () => {
      const response = await get('/v1/accounts?withBalance=true', CONSENT).expect(200);
      expect(response.body).toEqualBody({
        accounts: [account(MARIANNE, 'Marianne Mustermann', MARIANNE_BALANCES), account(GEORG, 'Georg Mustermann', null)],
      });
    });

    it.each([
      [`/v1/accounts/${MARIANNE}`, 200],
      [`/v1/accounts/${MARIANNE}/balances`, 200],
      [`/v1/accounts/${GEORG}`, 200],
      [`/v1/accounts/${GEORG}/transactions?bookingStatus=booked`, 200],
      [`/v1/accounts/${GEORG}/transactions/0017-B01`, 200],
    ])('%s answers %i', async (path, status) => {
      await get(path, CONSENT).expect(status);
    });

    it.each([
      [`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`, MARIANNE, 'transactions'],
      [`/v1/accounts/${MARIANNE}/transactions/1511-B01`, MARIANNE, 'transactions'],
      [`/v1/accounts/${GEORG}/balances`, GEORG, 'balances'],
    ])('%s answers 401 CONSENT_INVALID: the service is not granted', async (path, iban, service) => {
      const response = await get(path, CONSENT).expect(401);
      expect(response.body).toEqualBody(
        tppError('CONSENT_INVALID', `{sensitive} XS2A009E: consent ${CONSENT} does not grant ${service} on ${iban}`),
      );
    });
  });
});
