import request from 'supertest';
import { GEORG, MARIANNE } from './support/fixtures';
import { issueToken, Sandbox, tppHeaders, useSandbox } from './support/sandbox';

/**
 * Berlin Group's card accounts (docs/card-accounts.md): a card's account, its balances and its card
 * transactions, read under a consent that names it by maskedPan or covers all the holder's
 * accounts. PROFILE=berlin-group shows them (answers in its shape: no nulls, 201 on creation); the
 * seed bank does not.
 */

const VISA = '492950xxxxxx4711';
const MASTERCARD = '545454xxxxxx2476';
const CARDS = '/v1/card-accounts';
const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);
const bgError = (code: string, text: string, path?: string) => ({
  tppMessages: [{ category: 'ERROR', code, ...(path ? { path } : {}), text }],
});
const consentRequest = (access: object, terms: object = {}) => ({
  access,
  recurringIndicator: true,
  combinedServiceIndicator: false,
  validUntil: '2026-06-30',
  frequencyPerDay: 4,
  ...terms,
});

/** Georg's Visa card as the fixtures hold it, and its transactions as listed: newest first. */
const visa = (balances: boolean) => ({
  resourceId: 'card-georg-visa',
  maskedPan: VISA,
  currency: 'EUR',
  name: 'Georg Mustermann',
  product: 'Visa Classic',
  debitAccounting: false,
  status: 'enabled',
  usage: 'PRIV',
  creditLimit: { currency: 'EUR', amount: '3000.00' },
  ...(balances ? { balances: VISA_BALANCES } : {}),
  _links: { balances: { href: `${CARDS}/card-georg-visa/balances` }, transactions: { href: `${CARDS}/card-georg-visa/transactions` } },
});
const VISA_BALANCES = [
  { balanceAmount: { currency: 'EUR', amount: '-412.30' }, balanceType: 'interimBooked', referenceDate: '2019-03-06' },
  { balanceAmount: { currency: 'EUR', amount: '-58.90' }, balanceType: 'nonInvoiced', referenceDate: '2019-03-06' },
];
const RESTAURANT = {
  cardTransactionId: '4711-B01',
  transactionDate: '2019-03-04',
  acceptorTransactionDateTime: '2019-03-04T18:42:07+01:00',
  bookingDate: '2019-03-05',
  transactionAmount: { currency: 'EUR', amount: '-86.40' },
  cardAcceptorId: 'AT-WIEN-0042',
  cardAcceptorAddress: { townName: 'Wien', country: 'AT' },
  merchantCategoryCode: '5812',
  maskedPAN: VISA,
  transactionDetails: 'Restaurant Zum Goldenen Hirschen',
  invoiced: true,
};
const HOTEL = {
  cardTransactionId: '4711-B02',
  transactionDate: '2019-03-01',
  acceptorTransactionDateTime: '2019-03-01T10:15:33+01:00',
  bookingDate: '2019-03-02',
  transactionAmount: { currency: 'EUR', amount: '-267.00' },
  originalAmount: { currency: 'CHF', amount: '-300.00' },
  currencyExchange: [
    { sourceCurrency: 'CHF', exchangeRate: '0.89', unitCurrency: 'CHF', targetCurrency: 'EUR', quotationDate: '2019-03-01' },
  ],
  markupFee: { currency: 'EUR', amount: '-4.67' },
  markupFeePercentage: '1.75',
  cardAcceptorId: 'CH-ZRH-HOTEL-7',
  cardAcceptorAddress: { townName: 'Zürich', country: 'CH' },
  merchantCategoryCode: '7011',
  maskedPAN: VISA,
  transactionDetails: 'Hotel am See, Zürich',
  invoiced: true,
};
const BOOKSHOP = {
  cardTransactionId: '4711-B03',
  transactionDate: '2019-02-26',
  bookingDate: '2019-02-27',
  transactionAmount: { currency: 'EUR', amount: '-58.90' },
  cardAcceptorId: 'AT-ONLINE-1187',
  merchantCategoryCode: '5942',
  maskedPAN: VISA,
  transactionDetails: 'Buchhandlung online',
  invoiced: false,
};
const COFFEE = {
  cardTransactionId: '4711-P01',
  transactionDate: '2019-03-06',
  acceptorTransactionDateTime: '2019-03-06T08:03:51+01:00',
  transactionAmount: { currency: 'EUR', amount: '-4.20' },
  cardAcceptorId: 'AT-WIEN-0815',
  merchantCategoryCode: '5814',
  maskedPAN: VISA,
  transactionDetails: 'Kaffeehaus am Ring',
};
const VISA_REFERENCE = { maskedPan: VISA, currency: 'EUR' };
const visaTransactions = (query: string) => `${CARDS}/card-georg-visa/transactions?${query}`;

function client(sandbox: Sandbox, as: Record<string, string> = {}) {
  const http = () => request(sandbox.http);
  const headers = (extra: Record<string, string> = {}) => tppHeaders({ ...as, ...extra });
  return {
    http,
    get: (path: string, consentId: string, extra: Record<string, string> = {}) =>
      http()
        .get(path)
        .set(headers({ 'Consent-ID': consentId, 'PSU-IP-Address': '192.0.2.10', ...extra })),
    create: (access: object, terms: object = {}) => http().post('/v1/consents').set(headers()).send(consentRequest(access, terms)),
    decide: (consentId: string, psuId: string) =>
      http().post(`/sandbox/sca/consents/${consentId}`).set(as).send({ psuId, decision: 'approve' }),
    /** A consent approved by `psuId` through the control API. */
    async validConsent(access: object, psuId = 'georg.mustermann', terms: object = {}): Promise<string> {
      const { consentId } = (await this.create(access, terms).expect(201)).body;
      await this.decide(consentId, psuId).expect(200);
      return consentId;
    },
  };
}

describe('card accounts (PROFILE=berlin-group, SCA_MODE=redirect)', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'redirect' });
  const tpp = client(sandbox);

  it('a consent names a card by maskedPan; its holder approves it on the SCA page; the card, its balances and its transactions are read whole', async () => {
    const created = await tpp.create({ balances: [{ maskedPan: VISA }], transactions: [{ maskedPan: VISA, currency: 'EUR' }] }).expect(201);
    const { consentId } = created.body;
    expect((await tpp.get(`/v1/consents/${consentId}`, consentId).expect(200)).body.access).toEqual({
      balances: [{ maskedPan: VISA }],
      transactions: [VISA_REFERENCE],
    });

    const browser = request.agent(sandbox.http);
    const page = await browser.get(`/sca/consents?consent_id=${consentId}`).expect(200);
    expect(page.text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')).toContain(
      `${VISA} (Georg Mustermann, Visa Classic) account details, balances, transactions`,
    );
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    await browser
      .post('/sca/consents')
      .type('form')
      .send({ _csrf: csrf, id: consentId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'approve' })
      .expect(200);
    expect((await tpp.get(`/v1/consents/${consentId}/status`, consentId).expect(200)).body).toEqual({ consentStatus: 'valid' });

    const list = await tpp.get(`${CARDS}?withBalance=true`, consentId).expect(200);
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(list.body).toEqual({ cardAccounts: [visa(true)] });
    expect((await tpp.get(CARDS, consentId).expect(200)).body).toEqual({ cardAccounts: [visa(false)] });
    expect((await tpp.get(`${CARDS}/card-georg-visa?withBalance=true`, consentId).expect(200)).body).toEqual({ cardAccount: visa(true) });
    expect((await tpp.get(`${CARDS}/card-georg-visa/balances`, consentId).expect(200)).body).toEqual({
      cardAccount: VISA_REFERENCE,
      debitAccounting: false,
      balances: VISA_BALANCES,
    });
    const self = { cardAccount: { href: `${CARDS}/card-georg-visa` } };
    expect((await tpp.get(visaTransactions('bookingStatus=both'), consentId).expect(200)).body).toEqual({
      cardAccount: VISA_REFERENCE,
      debitAccounting: false,
      cardTransactions: { booked: [RESTAURANT, HOTEL, BOOKSHOP], pending: [COFFEE], _links: self },
    });
    expect((await tpp.get(visaTransactions('bookingStatus=pending'), consentId).expect(200)).body.cardTransactions).toEqual({
      pending: [COFFEE],
      _links: self,
    });
    // The period filters by booking date (a pending entry's transaction date).
    expect(
      (await tpp.get(visaTransactions('bookingStatus=both&dateFrom=2019-03-02&dateTo=2019-03-05'), consentId).expect(200)).body
        .cardTransactions,
    ).toEqual({
      booked: [RESTAURANT, HOTEL],
      pending: [],
      _links: self,
    });
    // The card is no payment account: the account list has none.
    expect((await tpp.get('/v1/accounts', consentId).expect(200)).body).toEqual({ accounts: [] });
  });

  it('pages card transactions as account transactions, each link the request with another page', async () => {
    const consentId = await tpp.validConsent({ transactions: [{ maskedPan: VISA }] });
    const link = (page: number) => ({ href: visaTransactions(`bookingStatus=booked&pageSize=2&page=${page}`) });
    const first = (await tpp.get(visaTransactions('bookingStatus=booked&pageSize=2'), consentId).expect(200)).body.cardTransactions;
    expect(first).toEqual({
      booked: [RESTAURANT, HOTEL],
      _links: { cardAccount: { href: `${CARDS}/card-georg-visa` }, first: link(1), next: link(2), last: link(2) },
    });
    const second = (await tpp.get(link(2).href, consentId).expect(200)).body.cardTransactions;
    expect(second).toEqual({
      booked: [BOOKSHOP],
      _links: { cardAccount: { href: `${CARDS}/card-georg-visa` }, first: link(1), previous: link(1), last: link(2) },
    });
    expect((await tpp.get(visaTransactions('bookingStatus=booked&pageSize=2&page=3'), consentId).expect(400)).body).toEqual(
      bgError('FORMAT_ERROR', '{sensitive} XS2A001E: page 3 is beyond the last page, 2', 'page'),
    );
  });

  it('an allAccounts consent covers the cards its holder holds, and only those', async () => {
    const consentId = await tpp.validConsent({ availableAccounts: 'allAccounts' });
    // Read back as asked; the accounts the holder chose are what it lists (docs/behaviour.md, "Consent access").
    expect((await tpp.get(`/v1/consents/${consentId}`, consentId).expect(200)).body.access).toEqual({ availableAccounts: 'allAccounts' });
    expect((await tpp.get('/v1/accounts', consentId).expect(200)).body.accounts.map(({ iban }: { iban: string }) => iban)).toEqual([
      MARIANNE,
      GEORG,
    ]);
    expect((await tpp.get(CARDS, consentId).expect(200)).body).toEqual({ cardAccounts: [visa(false)] });
    // availableAccounts grants the details only.
    await tpp.get(`${CARDS}/card-georg-visa/balances`, consentId).expect(401);
    await tpp.get(`${CARDS}/card-susanne-mastercard`, consentId).expect(404);
    const susanne = await tpp.validConsent({ allPsd2: 'allAccounts' }, 'susanne.mustermann');
    expect((await tpp.get(CARDS, susanne).expect(200)).body.cardAccounts.map(({ maskedPan }: { maskedPan: string }) => maskedPan)).toEqual([
      MASTERCARD,
    ]);
  });

  it('refuses what Berlin Group refuses: a card not in the consent, a service not granted, a bad query, a reference naming two things, a holder of other cards', async () => {
    const consentId = await tpp.validConsent({ balances: [{ maskedPan: VISA }] });
    expect((await tpp.get(`${CARDS}/card-susanne-mastercard`, consentId).expect(404)).body).toEqual(
      bgError(
        'RESOURCE_UNKNOWN',
        '{sensitive} XS2A016E: resource card-susanne-mastercard unknown, not found or not part of the current consent',
      ),
    );
    expect((await tpp.get(`${CARDS}/card-nobody/balances`, consentId).expect(404)).body.tppMessages[0].code).toBe('RESOURCE_UNKNOWN');
    expect((await tpp.get(visaTransactions('bookingStatus=booked'), consentId).expect(401)).body).toEqual(
      bgError('CONSENT_INVALID', `{sensitive} XS2A009E: consent ${consentId} does not grant transactions on card-georg-visa`),
    );
    await tpp.http().get(CARDS).set(tppHeaders()).expect(400);
    await tpp.get(CARDS, '0b1bd7c4-4a6e-4c3f-9d77-1f3e4f2c9a10').expect(403);

    const reader = await tpp.validConsent({ transactions: [{ maskedPan: VISA }] });
    const missing = await tpp.get(`${CARDS}/card-georg-visa/transactions`, reader).expect(400);
    expect(missing.body).toEqual(bgError('FORMAT_ERROR', '{sensitive} XS2A001E: bookingStatus is required', 'bookingStatus'));
    const information = await tpp.get(visaTransactions('bookingStatus=information'), reader).expect(400);
    expect(information.body.tppMessages[0].path).toBe('bookingStatus');
    const period = await tpp.get(visaTransactions('bookingStatus=booked&dateFrom=2019-03-05&dateTo=2019-03-01'), reader).expect(400);
    expect(period.body).toEqual(
      bgError('PERIOD_INVALID', '{sensitive} XS2A010E: dateFrom 2019-03-05 is after dateTo 2019-03-01', 'dateFrom'),
    );

    const both = await tpp.create({ balances: [{ iban: GEORG, maskedPan: VISA }] }).expect(400);
    expect(both.body).toEqual(
      bgError('FORMAT_ERROR', '{sensitive} XS2A001E: an account is named by iban or by maskedPan, not both', 'access.balances[0]'),
    );
    const malformed = await tpp.create({ transactions: [{ maskedPan: '4929501234564711' }] }).expect(400);
    expect(malformed.body).toEqual(
      bgError(
        'FORMAT_ERROR',
        '{sensitive} XS2A001E: access.transactions[0].maskedPan must be a masked PAN: the first six and the last four digits, x between',
        'access.transactions[0].maskedPan',
      ),
    );
    const neither = await tpp.create({ transactions: [{ currency: 'EUR' }] }).expect(400);
    expect(neither.body.tppMessages[0].path).toBe('access.transactions[0].iban');
    // A masked PAN sent as null is no masked PAN: the IBAN is missing.
    expect((await tpp.create({ balances: [{ maskedPan: null }] }).expect(400)).body.tppMessages[0].path).toBe('access.balances[0].iban');

    // Susanne holds no Visa: the card is not hers to grant, and the consent waits.
    const { consentId: notHers } = (await tpp.create({ balances: [{ maskedPan: VISA }] }).expect(201)).body;
    expect((await tpp.decide(notHers, 'susanne.mustermann').expect(401)).body.tppMessages[0].code).toBe('PSU_CREDENTIALS_INVALID');
    expect((await tpp.get(`/v1/consents/${notHers}/status`, notHers).expect(200)).body).toEqual({ consentStatus: 'received' });
  });

  it("counts reads against frequencyPerDay per card, as an account's: a bad request counts nothing, the limit answers 429", async () => {
    const consentId = await tpp.validConsent({ transactions: [{ maskedPan: VISA }] }, 'georg.mustermann', { frequencyPerDay: 1 });
    const absent = (path: string) =>
      tpp
        .http()
        .get(path)
        .set(tppHeaders({ 'Consent-ID': consentId }));
    await absent(visaTransactions('bookingStatus=booked&pageSize=2&page=9')).expect(400);
    await absent(visaTransactions('bookingStatus=booked')).expect(200);
    expect((await absent(`${CARDS}/card-georg-visa`).expect(429)).body.tppMessages[0].code).toBe('ACCESS_EXCEEDED');
    // With the holder present (PSU-IP-Address) nothing is counted.
    await tpp.get(`${CARDS}/card-georg-visa`, consentId).expect(200);
  });

  it("a scenario's cards: its consent names them, their transactions are listed as the body gave them, and they go with the scenario", async () => {
    const body = {
      accounts: [{ name: 'Card Holder', balances: { interimAvailable: '100.00', forwardAvailable: '100.00' } }],
      cardAccounts: [
        {
          product: 'Visa Gold',
          creditLimit: '2000.00',
          balances: { interimBooked: '-45.00' },
          booked: [{ amount: '-40.00', transactionDate: '2026-01-10', transactionDetails: 'Supermarket', cardAcceptorId: 'AT-SUPER-1' }],
          pending: [{ amount: '-5.00', transactionDate: '2026-01-12', transactionDetails: 'Bakery' }],
        },
      ],
    };
    const scenario = (await tpp.http().post('/sandbox/scenarios').send(body).expect(201)).body;
    const short = scenario.scenarioId.slice(0, 8);
    expect(scenario.cardAccounts).toEqual([
      { resourceId: UUID, maskedPan: expect.stringMatching(/^4\d{5}x{6}\d{4}$/), currency: 'EUR', name: 'Card Holder' },
    ]);
    const [{ resourceId, maskedPan }] = scenario.cardAccounts;
    expect((await tpp.get(`/v1/consents/${scenario.consentId}`, scenario.consentId).expect(200)).body.access.accounts).toEqual([
      { iban: scenario.accounts[0].iban, currency: 'EUR' },
      { maskedPan, currency: 'EUR' },
    ]);
    expect((await tpp.get(`${CARDS}/${resourceId}?withBalance=true`, scenario.consentId).expect(200)).body).toEqual({
      cardAccount: {
        resourceId,
        maskedPan,
        currency: 'EUR',
        name: 'Card Holder',
        product: 'Visa Gold',
        debitAccounting: false,
        status: 'enabled',
        usage: 'PRIV',
        creditLimit: { currency: 'EUR', amount: '2000.00' },
        balances: [
          {
            balanceAmount: { currency: 'EUR', amount: '-45.00' },
            balanceType: 'interimBooked',
            referenceDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          },
        ],
        _links: { balances: { href: `${CARDS}/${resourceId}/balances` }, transactions: { href: `${CARDS}/${resourceId}/transactions` } },
      },
    });
    expect((await tpp.get(`${CARDS}/${resourceId}/transactions?bookingStatus=both`, scenario.consentId).expect(200)).body).toEqual({
      cardAccount: { maskedPan, currency: 'EUR' },
      debitAccounting: false,
      cardTransactions: {
        booked: [
          {
            cardTransactionId: `${short}-C1-B1`,
            transactionDate: '2026-01-10',
            bookingDate: '2026-01-10',
            transactionAmount: { currency: 'EUR', amount: '-40.00' },
            cardAcceptorId: 'AT-SUPER-1',
            maskedPAN: maskedPan,
            transactionDetails: 'Supermarket',
          },
        ],
        pending: [
          {
            cardTransactionId: `${short}-C1-P1`,
            transactionDate: '2026-01-12',
            transactionAmount: { currency: 'EUR', amount: '-5.00' },
            maskedPAN: maskedPan,
            transactionDetails: 'Bakery',
          },
        ],
        _links: { cardAccount: { href: `${CARDS}/${resourceId}` } },
      },
    });
    // Not the bank's: another consent for all of Georg's accounts does not cover it.
    const georg = await tpp.validConsent({ availableAccounts: 'allAccounts' });
    await tpp.get(`${CARDS}/${resourceId}`, georg).expect(404);

    const refused = await tpp
      .http()
      .post('/sandbox/scenarios')
      .send({ ...body, cardAccounts: [{ balances: { interimBooked: 'x' }, booked: [{ amount: '1', transactionDate: 'soon' }] }] })
      .expect(400);
    expect(refused.body.tppMessages.map(({ path }: { path: string }) => path)).toEqual([
      'cardAccounts[0].balances.interimBooked',
      'cardAccounts[0].booked[0].transactionDate',
      'cardAccounts[0].booked[0].transactionDetails',
    ]);
    await tpp.http().delete(`/sandbox/scenarios/${scenario.scenarioId}`).expect(204);
    await tpp.get(`${CARDS}/${resourceId}`, scenario.consentId).expect(403);
    await tpp.get(`${CARDS}/${resourceId}`, georg).expect(404);
  });

  it('the cockpit lists the cards, and shows one with its transactions', async () => {
    const overview = (await tpp.http().get('/cockpit').expect(200)).text;
    const cards = /<section id="card-accounts">(.*?)<\/section>/s
      .exec(overview)![1]
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
    expect(cards).toContain(`card-georg-visa ${VISA} georg.mustermann Visa Classic interimBooked -412.30 EUR, nonInvoiced -58.90 EUR`);
    expect(cards).toContain(`card-susanne-mastercard ${MASTERCARD} susanne.mustermann Mastercard Gold interimBooked -120.00 EUR`);
    const page = (await tpp.http().get('/cockpit/card-accounts/card-georg-visa').expect(200)).text;
    const transactions = /<section id="card-transactions">(.*?)<\/section>/s
      .exec(page)![1]
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
    expect(transactions).toContain('booked 2019-03-05 -86.40 EUR Restaurant Zum Goldenen Hirschen AT-WIEN-0042');
    expect(transactions).toContain('pending 2019-03-06 -4.20 EUR Kaffeehaus am Ring AT-WIEN-0815');
    await tpp.http().get('/cockpit/card-accounts/card-nobody').expect(404);
  });

  it('documents the card routes and the consent reference by maskedPan', async () => {
    const document = (await tpp.http().get('/docs-json').expect(200)).body;
    expect(Object.keys(document.paths).filter((path) => path.startsWith(CARDS))).toEqual([
      CARDS,
      `${CARDS}/{cardAccountId}`,
      `${CARDS}/{cardAccountId}/balances`,
      `${CARDS}/{cardAccountId}/transactions`,
    ]);
    expect(document.components.schemas.ConsentAccessDto.properties.balances.items).toEqual({
      $ref: '#/components/schemas/ConsentAccountReferenceDto',
    });
    expect(document.components.schemas.ConsentAccountReferenceDto.oneOf).toEqual([{ required: ['iban'] }, { required: ['maskedPan'] }]);
  });
});

describe("card accounts, AUTH_MODE=strict: a scenario card is its client's", () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'redirect', AUTH_MODE: 'strict' });

  it('another client neither reads it nor gets a consent for it approved, nor sees it in the cockpit', async () => {
    const mineToken = await issueToken(sandbox.http);
    const theirsToken = await issueToken(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2');
    const mine = client(sandbox, { Authorization: `Bearer ${mineToken}` });
    const theirs = client(sandbox, { Authorization: `Bearer ${theirsToken}` });
    const body = {
      accounts: [{ name: 'Card Holder', balances: { interimAvailable: '1.00', forwardAvailable: '1.00' } }],
      cardAccounts: [{ balances: { interimBooked: '0.00' } }],
    };
    const scenario = (
      await request(sandbox.http).post('/sandbox/scenarios').set('Authorization', `Bearer ${mineToken}`).send(body).expect(201)
    ).body;
    const [{ resourceId, maskedPan }] = scenario.cardAccounts;
    await mine.get(`${CARDS}/${resourceId}`, scenario.consentId).expect(200);
    await theirs.get(`${CARDS}/${resourceId}`, scenario.consentId).expect(403);
    const { consentId } = (await theirs.create({ balances: [{ maskedPan }] }).expect(201)).body;
    expect((await theirs.decide(consentId, scenario.psuId).expect(401)).body.tppMessages[0].code).toBe('PSU_CREDENTIALS_INVALID');
    await request(sandbox.http).get(`/cockpit/card-accounts/${resourceId}`).set('Cookie', `psd2-cockpit-token=${theirsToken}`).expect(404);
    await request(sandbox.http).get(`/cockpit/card-accounts/${resourceId}`).set('Cookie', `psd2-cockpit-token=${mineToken}`).expect(200);
  });
});

describe('PROFILE=bank shows no card accounts', () => {
  const sandbox = useSandbox({ PROFILE: 'bank', SCA_MODE: 'redirect' });

  it("serves none of their routes, takes no masked PAN for an IBAN, strips a scenario's cards unread, and documents none of it", async () => {
    await request(sandbox.http)
      .get(CARDS)
      .set(tppHeaders({ 'Consent-ID': 'e6151d43-dca8-4fe1-b139-3a89bfeb57a2' }))
      .expect(404);
    const refused = await request(sandbox.http)
      .post('/v1/consents')
      .set(tppHeaders())
      .send(consentRequest({ balances: [{ maskedPan: VISA }] }))
      .expect(400);
    expect(refused.body.tppMessages[0]).toMatchObject({ code: 'FORMAT_ERROR', path: 'access.balances[0].iban' });
    const scenario = (
      await request(sandbox.http)
        .post('/sandbox/scenarios')
        .send({ accounts: [{ name: 'Holder', balances: { interimAvailable: '1.00', forwardAvailable: '1.00' } }], cardAccounts: 'x' })
        .expect(201)
    ).body;
    expect(Object.keys(scenario)).toEqual(['scenarioId', 'psuId', 'password', 'consentId', 'accounts']);
    const document = (await request(sandbox.http).get('/docs-json').expect(200)).body;
    expect(Object.keys(document.paths).filter((path) => path.startsWith(CARDS))).toEqual([]);
    expect(document.components.schemas.ConsentAccountReferenceDto).toBeUndefined();
    expect(document.components.schemas.CreateScenarioDto.properties.cardAccounts).toBeUndefined();
    expect(document.components.schemas.ScenarioCardAccountDto).toBeUndefined();
  });
});
