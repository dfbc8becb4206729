import request from 'supertest';
import { CREATED, locationOf, PROFILE } from './support/profile';
import { BankProfile } from '../src/profile/bank-profile';
import { Consent } from '../src/consent/consent.entity';
import {
  cardReference,
  FIXTURE_CARDS,
  EXPIRED_CONSENT,
  FRANZ,
  GEORG,
  MARIANNE,
  reference,
  SECOND_VALID_CONSENT,
  SUSANNE,
  ERWIN,
  NEW_RESOURCE_ID,
  UNKNOWN_CONSENT,
  VALID_CONSENT,
} from './support/fixtures';
import { removeDatabase, startSandbox, TODAY, tppError, tppHeaders, useSandbox } from './support/sandbox';

const REDIRECT_URI = 'https://tpp.example/callback?state=a%20b&x=1';
const explicitRequest = {
  access: { balances: [{ iban: MARIANNE }] },
  recurringIndicator: true,
  combinedServiceIndicator: false,
  validUntil: '2026-06-30',
  frequencyPerDay: 4,
};
const NO_ACCOUNT = 'access must name an account in balances or transactions, or ask for availableAccounts or allPsd2 "allAccounts"';
const BG_ONE =
  'access asks for exactly one of: named accounts (accounts, balances, transactions), availableAccounts, availableAccountsWithBalance or allPsd2';
const BG_EMPTY = (list: string) =>
  `access.${list} is empty: an empty list asks for a consent on the accounts the holder chooses at the bank, which this bank does not offer; name the accounts, or ask for every account (availableAccounts, availableAccountsWithBalance, allPsd2)`;
const ALL = 'allAccounts, allAccountsWithOwnerName';
const allAccountsRequest = { ...explicitRequest, access: { availableAccounts: 'allAccounts' } };

const links = (consentId: string, scaRedirect: string) => ({
  scaRedirect: { href: scaRedirect },
  self: { href: `/v1/consents/${consentId}` },
  status: { href: `/v1/consents/${consentId}/status` },
});
/** The answer to a creation: Berlin Group's links no SCA page when nothing is left to authorise (valid at creation, docs/profiles.md). */
const created = (consentStatus: string, consentId: string, scaRedirect: string) => {
  const { scaRedirect: page, ...own } = links(consentId, scaRedirect);
  return {
    consentStatus,
    consentId,
    scaMethods: null,
    chosenScaMethod: null,
    challengeData: null,
    psuMessage: null,
    _links: consentStatus === 'valid' && PROFILE === 'berlin-group' ? own : { scaRedirect: page, ...own },
  };
};
/** A consent for every account read back: the seed bank's its accounts, Berlin Group's as it was asked (docs/behaviour.md, "Consent access"). */
const everyAccountAsAsked = (asked: object) => (PROFILE === 'bank' ? everyAccount() : asked);
/** An allAccounts consent valid at once: every account of the bank, then its cards (docs/card-accounts.md). */
const everyAccount = () => {
  const granted = access([FRANZ, MARIANNE, ERWIN, GEORG, SUSANNE]);
  return {
    ...granted,
    accounts: [
      ...granted.accounts,
      ...Object.values(FIXTURE_CARDS)
        .flat()
        .sort()
        .map((maskedPan) => cardReference(maskedPan)),
    ],
  };
};
const access = (accounts: string[], balances: object[] = [], transactions: object[] = [], availableAccounts: string | null = null) => ({
  accounts: accounts.map((iban) => reference(iban)),
  balances,
  transactions,
  additionalInformation: null,
  availableAccounts,
  availableAccountsWithBalance: null,
  allPsd2: null,
  restrictedTo: null,
});

/** A consent of explicitRequest's terms, valid since today, as GET /v1/consents/{consentId} answers it. */
const validToday = (granted: object) => ({
  access: granted,
  recurringIndicator: true,
  validUntil: '2026-06-30',
  frequencyPerDay: 4,
  lastActionDate: TODAY,
  consentStatus: 'valid',
  _links: null,
});

describe('consents (SCA_MODE=auto)', () => {
  const sandbox = useSandbox({ PUBLIC_BASE_URL: 'http://sandbox.test:3000' });
  const countConsents = () => sandbox.dataSource.getRepository(Consent).count();
  const post = (body: unknown, headers = tppHeaders()) =>
    request(sandbox.http)
      .post('/v1/consents')
      .set(headers)
      .send(body as object);
  const createAllAccounts = async (body: object = allAccountsRequest): Promise<string> => (await post(body).expect(CREATED)).body.consentId;

  describe('POST /v1/consents', () => {
    it('answers an explicit account list as the profile does: the bank its first valid fixture, received, storing nothing; Berlin Group a consent stored as asked', async () => {
      const before = await countConsents();
      const headers = tppHeaders({ 'TPP-Redirect-URI': REDIRECT_URI, 'PSU-IP-Address': '192.0.2.1' });
      const response = await post(explicitRequest, headers).expect(CREATED);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['x-request-id']).toBe(headers['X-Request-ID']);
      const redirectBack = 'redirectBackUrl=https%3A%2F%2Ftpp.example%2Fcallback%3Fstate%3Da%2520b%26x%3D1';
      if (PROFILE === 'bank') {
        expect(response.body).toEqualBody(
          created('received', VALID_CONSENT, `http://sandbox.test:3000/sca/consents?consent_id=${VALID_CONSENT}&${redirectBack}`),
        );
        // The body is the bank's; a header says the fixture answered and why (docs/behaviour.md).
        expect(response.headers['sandbox-fixture-consent']).toBe(
          `${VALID_CONSENT}; reason="as the bank does, an explicit account list is answered with its first valid fixture consent: nothing was stored, the fixture keeps its own accounts, validUntil and frequencyPerDay, and DELETE leaves it valid; ask for availableAccounts for a consent of your own"`,
        );
        expect(await countConsents()).toBe(before);
        return;
      }
      expect(response.headers['sandbox-fixture-consent']).toBeUndefined();
      // A generic client that asks for Marianne's balances gets a consent to exactly that, valid at once (docs/behaviour.md).
      const { consentId } = response.body;
      expect(consentId).toMatch(NEW_RESOURCE_ID);
      expect(response.body).toEqualBody(
        created('valid', consentId, `http://sandbox.test:3000/sca/consents?consent_id=${consentId}&${redirectBack}`),
      );
      expect(await countConsents()).toBe(before + 1);
      const consent = await request(sandbox.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
      expect(consent.body).toEqualBody(validToday(access([], [reference(MARIANNE, null)])));
      const accounts = await request(sandbox.http)
        .get('/v1/accounts')
        .set(tppHeaders({ 'Consent-ID': consentId }))
        .expect(200);
      expect(accounts.body.accounts.map(({ iban }: { iban: string }) => iban)).toEqual([MARIANNE]);
      await request(sandbox.http)
        .get(`/v1/accounts/${GEORG}/balances`)
        .set(tppHeaders({ 'Consent-ID': consentId }))
        .expect(404);
    });

    it('leaves redirectBackUrl out of scaRedirect when no TPP-Redirect-URI was sent', async () => {
      const response = await post(explicitRequest).expect(CREATED);
      const consentId = PROFILE === 'bank' ? VALID_CONSENT : response.body.consentId;
      expect(response.body).toEqualBody(
        created(PROFILE === 'bank' ? 'received' : 'valid', consentId, `http://sandbox.test:3000/sca/consents?consent_id=${consentId}`),
      );
    });

    it('stores an allAccounts consent, valid, over every fixture account, under a fresh UUID', async () => {
      const before = await countConsents();
      const response = await post(allAccountsRequest, tppHeaders({ 'TPP-Redirect-URI': 'https://tpp.example/cb' })).expect(CREATED);
      const { consentId } = response.body;
      expect(consentId).toMatch(NEW_RESOURCE_ID);
      expect(response.headers['location']).toBe(locationOf(`/v1/consents/${consentId}`, 'http://sandbox.test:3000'));
      expect(response.headers['aspsp-sca-approach']).toBe('REDIRECT');
      expect(response.body).toEqualBody(
        created(
          'valid',
          consentId,
          `http://sandbox.test:3000/sca/consents?consent_id=${consentId}&redirectBackUrl=https%3A%2F%2Ftpp.example%2Fcb`,
        ),
      );
      expect(await countConsents()).toBe(before + 1);

      const consent = await request(sandbox.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
      expect(consent.body).toEqualBody(validToday(everyAccountAsAsked({ availableAccounts: 'allAccounts' })));
    });

    it('answers Berlin Group allPsd2 "allAccounts" as allAccounts: a new consent, valid, over every account and service', async () => {
      const response = await post({ ...explicitRequest, access: { allPsd2: 'allAccounts' } }).expect(CREATED);
      const { consentId } = response.body;
      expect(response.body).toEqualBody(created('valid', consentId, `http://sandbox.test:3000/sca/consents?consent_id=${consentId}`));
      const consent = await request(sandbox.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
      expect(consent.body).toEqualBody(validToday(everyAccountAsAsked({ allPsd2: 'allAccounts' })));
      await request(sandbox.http)
        .get(`/v1/accounts/${GEORG}/transactions?bookingStatus=booked`)
        .set(tppHeaders({ 'Consent-ID': consentId }))
        .expect(200);
    });

    it('gives each allAccounts consent its own ID', async () => {
      expect(await createAllAccounts()).not.toBe(await createAllAccounts());
    });

    it('caps validUntil at today + 180 days', async () => {
      const consentId = await createAllAccounts({ ...allAccountsRequest, validUntil: '2030-01-01' });
      const consent = await request(sandbox.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
      expect(consent.body.validUntil).toBe('2026-09-11');
    });

    it('accepts validUntil = today', async () => {
      const consentId = await createAllAccounts({ ...allAccountsRequest, validUntil: TODAY });
      const consent = await request(sandbox.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
      expect(consent.body.validUntil).toBe(TODAY);
    });

    it('ignores fields it does not know', async () => {
      await post({ ...allAccountsRequest, combinedServiceIndicator: false, somethingElse: { a: 1 } }).expect(CREATED);
    });

    const invalid: [string, unknown, string, string][] = [
      ['no access', { ...explicitRequest, access: undefined }, 'access', 'access is required'],
      ['access not an object', { ...explicitRequest, access: 'all' }, 'access', 'access must be an object'],
      ['access an array', { ...explicitRequest, access: [] }, 'access', 'access must be an object'],
      [
        'an account reference that is an array',
        { ...explicitRequest, access: { balances: [[]] } },
        'access.balances',
        'each item of access.balances must be an object',
      ],
      [
        'balances not an array',
        { ...explicitRequest, access: { balances: { iban: MARIANNE } } },
        'access.balances',
        'access.balances must be an array',
      ],
      [
        'an IBAN with a bad checksum',
        { ...explicitRequest, access: { balances: [{ iban: 'AT099900000000001512' }] } },
        'access.balances[0].iban',
        'access.balances[0].iban must be an IBAN with a valid checksum',
      ],
      [
        'an account without IBAN',
        { ...explicitRequest, access: { transactions: [{ currency: 'EUR' }] } },
        'access.transactions[0].iban',
        'access.transactions[0].iban is required',
      ],
      [
        'a bad currency',
        { ...explicitRequest, access: { balances: [{ iban: MARIANNE, currency: 'euro' }] } },
        'access.balances[0].currency',
        'access.balances[0].currency must be an ISO 4217 code of three capital letters',
      ],
      [
        'availableAccounts other than allAccounts',
        { ...explicitRequest, access: { availableAccounts: 'allPsd2' } },
        'access.availableAccounts',
        `access.availableAccounts must be one of the following values: ${ALL}`,
      ],
      [
        'an access that names no account',
        { ...explicitRequest, access: { balances: [], transactions: [] } },
        PROFILE === 'bank' ? 'access' : 'access.balances',
        PROFILE === 'bank' ? NO_ACCOUNT : BG_EMPTY('balances'),
      ],
      ['an empty access', { ...explicitRequest, access: {} }, 'access', PROFILE === 'bank' ? NO_ACCOUNT : BG_ONE],
      [
        'an access of null lists',
        { ...explicitRequest, access: { balances: null, transactions: null } },
        'access',
        PROFILE === 'bank' ? NO_ACCOUNT : BG_ONE,
      ],
      [
        'allPsd2 other than allAccounts',
        { ...explicitRequest, access: { allPsd2: 'all' } },
        'access.allPsd2',
        `access.allPsd2 must be one of the following values: ${ALL}`,
      ],
      [
        'combinedServiceIndicator not boolean',
        { ...explicitRequest, combinedServiceIndicator: 'no' },
        'combinedServiceIndicator',
        'combinedServiceIndicator must be a boolean value',
      ],
      [
        'recurringIndicator not boolean',
        { ...explicitRequest, recurringIndicator: 'true' },
        'recurringIndicator',
        'recurringIndicator must be a boolean value',
      ],
      [
        'no recurringIndicator',
        { ...explicitRequest, recurringIndicator: undefined },
        'recurringIndicator',
        'recurringIndicator is required',
      ],
      [
        'validUntil not a real date',
        { ...explicitRequest, validUntil: '2026-02-30' },
        'validUntil',
        'validUntil must be a real date written YYYY-MM-DD, from 1000-01-01 to 9999-12-31',
      ],
      [
        'validUntil a date-time',
        { ...explicitRequest, validUntil: '2026-06-30T00:00:00Z' },
        'validUntil',
        'validUntil must be a real date written YYYY-MM-DD, from 1000-01-01 to 9999-12-31',
      ],
      [
        'validUntil before today',
        { ...explicitRequest, validUntil: '2026-03-14' },
        'validUntil',
        'validUntil must not be before today (2026-03-15)',
      ],
      ['frequencyPerDay 0', { ...explicitRequest, frequencyPerDay: 0 }, 'frequencyPerDay', 'frequencyPerDay must not be less than 1'],
      [
        'frequencyPerDay a string',
        { ...explicitRequest, frequencyPerDay: '4' },
        'frequencyPerDay',
        'frequencyPerDay must be an integer number',
      ],
      [
        'frequencyPerDay a fraction',
        { ...explicitRequest, frequencyPerDay: 1.5 },
        'frequencyPerDay',
        'frequencyPerDay must be an integer number',
      ],
      [
        'frequencyPerDay beyond a 32-bit integer',
        { ...explicitRequest, frequencyPerDay: 2147483648 },
        'frequencyPerDay',
        'frequencyPerDay must not be greater than 2147483647',
      ],
      [
        'frequencyPerDay 1e308',
        { ...explicitRequest, frequencyPerDay: 1e308 },
        'frequencyPerDay',
        'frequencyPerDay must not be greater than 2147483647',
      ],
    ];

    it.each(invalid)('refuses %s with FORMAT_ERROR naming the field, and stores nothing', async (_, body, path, description) => {
      const before = await countConsents();
      const headers = tppHeaders();
      const response = await post(body, headers).expect(400);
      expect(response.headers['x-request-id']).toBe(headers['X-Request-ID']);
      expect(response.body).toEqualBody(tppError('FORMAT_ERROR', `{sensitive} XS2A001E: ${description}`, path));
      expect(await countConsents()).toBe(before);
    });

    it('refuses an allAccounts request with a bad field too, storing nothing', async () => {
      const before = await countConsents();
      const response = await post({ ...allAccountsRequest, frequencyPerDay: -1 }).expect(400);
      expect(response.body).toEqualBody(
        tppError('FORMAT_ERROR', '{sensitive} XS2A001E: frequencyPerDay must not be less than 1', 'frequencyPerDay'),
      );
      expect(await countConsents()).toBe(before);
    });

    it('names every bad field in one answer', async () => {
      const response = await post({ access: {}, recurringIndicator: 1, validUntil: 'soon' }).expect(400);
      expect(response.body).toEqualBody({
        tppMessages: [
          {
            category: 'ERROR',
            code: 'FORMAT_ERROR',
            path: 'recurringIndicator',
            text: '{sensitive} XS2A001E: recurringIndicator must be a boolean value',
          },
          {
            category: 'ERROR',
            code: 'FORMAT_ERROR',
            path: 'validUntil',
            text: '{sensitive} XS2A001E: validUntil must be a real date written YYYY-MM-DD, from 1000-01-01 to 9999-12-31',
          },
          { category: 'ERROR', code: 'FORMAT_ERROR', path: 'frequencyPerDay', text: '{sensitive} XS2A001E: frequencyPerDay is required' },
        ],
        _links: null,
      });
    });

    it('refuses a TPP-Redirect-URI that is not an absolute http(s) URL', async () => {
      const response = await post(allAccountsRequest, tppHeaders({ 'TPP-Redirect-URI': 'javascript:alert(1)' })).expect(400);
      expect(response.body).toEqualBody(
        tppError('FORMAT_ERROR', '{sensitive} XS2A001E: TPP-Redirect-URI must be an absolute http or https URL', 'TPP-Redirect-URI'),
      );
    });
  });

  describe('GET /v1/consents/{consentId}', () => {
    it('answers the first valid fixture with its accounts', async () => {
      const headers = tppHeaders();
      const response = await request(sandbox.http).get(`/v1/consents/${VALID_CONSENT}`).set(headers).expect(200);
      expect(response.headers['x-request-id']).toBe(headers['X-Request-ID']);
      expect(response.body).toEqualBody({
        access: access([MARIANNE, GEORG]),
        recurringIndicator: true,
        validUntil: '9999-12-31',
        frequencyPerDay: 4,
        lastActionDate: '2019-03-06',
        consentStatus: 'valid',
        _links: null,
      });
    });

    it('answers the expired fixture as expired', async () => {
      const response = await request(sandbox.http).get(`/v1/consents/${EXPIRED_CONSENT}`).set(tppHeaders()).expect(200);
      expect(response.body).toEqualBody({
        access: access([ERWIN]),
        recurringIndicator: true,
        validUntil: '2019-03-01',
        frequencyPerDay: 4,
        lastActionDate: '2019-03-02',
        consentStatus: 'expired',
        _links: null,
      });
    });

    it.each([UNKNOWN_CONSENT, 'not-a-uuid'])('answers 403 CONSENT_UNKNOWN for %s', async (consentId) => {
      const response = await request(sandbox.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(403);
      expect(response.body).toEqualBody(tppError('CONSENT_UNKNOWN', `{sensitive} XS2A017E: consent ${consentId} unknown`));
    });
  });

  describe('GET /v1/consents/{consentId}/status', () => {
    it.each([
      [VALID_CONSENT, 'valid'],
      ['58bf4a5e-11e8-46d4-a3e2-8372cdfcd023', 'valid'],
      [EXPIRED_CONSENT, 'expired'],
    ])('answers %s as %s', async (consentId, consentStatus) => {
      const headers = tppHeaders();
      const response = await request(sandbox.http).get(`/v1/consents/${consentId}/status`).set(headers).expect(200);
      expect(response.headers['x-request-id']).toBe(headers['X-Request-ID']);
      expect(response.body).toEqualBody({ consentStatus });
    });

    it('answers 403 CONSENT_UNKNOWN for the unknown fixture', async () => {
      const response = await request(sandbox.http).get(`/v1/consents/${UNKNOWN_CONSENT}/status`).set(tppHeaders()).expect(403);
      expect(response.body).toEqualBody(tppError('CONSENT_UNKNOWN', `{sensitive} XS2A017E: consent ${UNKNOWN_CONSENT} unknown`));
    });
  });

  describe('DELETE /v1/consents/{consentId}', () => {
    it.each([VALID_CONSENT, EXPIRED_CONSENT])('answers 204 for the fixture %s and changes nothing', async (consentId) => {
      const before = await request(sandbox.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
      const response = await request(sandbox.http).delete(`/v1/consents/${consentId}`).set(tppHeaders()).expect(204);
      expect(response.text).toBe('');
      // The bank's 204, and a header that says nothing changed and why (docs/behaviour.md).
      expect(response.headers['sandbox-fixture-consent']).toBe(
        `${consentId}; reason="a fixture of the bank: as the bank does, DELETE answers 204 and leaves it valid; a consent of your own (availableAccounts) ends as terminatedByTpp"`,
      );
      const after = await request(sandbox.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
      expect(after.body).toEqualBody(before.body);
    });

    it('terminates a TPP-created consent, which then reads nothing', async () => {
      const consentId = await createAllAccounts();
      const headers = tppHeaders();
      const response = await request(sandbox.http).delete(`/v1/consents/${consentId}`).set(headers).expect(204);
      expect(response.headers['x-request-id']).toBe(headers['X-Request-ID']);
      expect(response.headers['sandbox-fixture-consent']).toBeUndefined();
      expect(response.text).toBe('');
      const status = await request(sandbox.http).get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(200);
      expect(status.body).toEqualBody({ consentStatus: 'terminatedByTpp' });
      const accounts = await request(sandbox.http)
        .get('/v1/accounts')
        .set(tppHeaders({ 'Consent-ID': consentId }))
        .expect(401);
      expect(accounts.body).toEqualBody(
        tppError('CONSENT_INVALID', `{sensitive} XS2A008E: consent ${consentId} is terminatedByTpp, not valid`),
      );
    });

    it('refuses to delete a consent twice: 409 STATUS_INVALID', async () => {
      const consentId = await createAllAccounts();
      await request(sandbox.http).delete(`/v1/consents/${consentId}`).set(tppHeaders()).expect(204);
      const response = await request(sandbox.http).delete(`/v1/consents/${consentId}`).set(tppHeaders()).expect(409);
      expect(response.body).toEqualBody(
        tppError('STATUS_INVALID', `{sensitive} XS2A011E: consent ${consentId} is terminatedByTpp and cannot be deleted`),
      );
    });

    it('lets exactly one of many concurrent deletes win', async () => {
      const consentId = await createAllAccounts();
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => request(sandbox.http).delete(`/v1/consents/${consentId}`).set(tppHeaders())),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([204, ...Array(9).fill(409)]);
    });

    it('answers 403 CONSENT_UNKNOWN for an unknown consent', async () => {
      const response = await request(sandbox.http).delete(`/v1/consents/${UNKNOWN_CONSENT}`).set(tppHeaders()).expect(403);
      expect(response.body).toEqualBody(tppError('CONSENT_UNKNOWN', `{sensitive} XS2A017E: consent ${UNKNOWN_CONSENT} unknown`));
    });
  });
});

describe('consent expiry', () => {
  it('expires a consent once the sandbox date is past its validUntil, and keeps it expired', async () => {
    const first = await startSandbox();
    const consentId = (
      await request(first.http)
        .post('/v1/consents')
        .set(tppHeaders())
        .send({ ...allAccountsRequest, validUntil: TODAY })
        .expect(CREATED)
    ).body.consentId;
    await request(first.http)
      .get('/v1/accounts')
      .set(tppHeaders({ 'Consent-ID': consentId }))
      .expect(200);
    await first.close();

    const nextDay = await startSandbox({ SANDBOX_DATE: '2026-03-16' }, first.database);
    try {
      const consent = await request(nextDay.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
      expect(consent.body).toMatchObject({ consentStatus: 'expired', validUntil: TODAY, lastActionDate: '2026-03-16' });
      const accounts = await request(nextDay.http)
        .get('/v1/accounts')
        .set(tppHeaders({ 'Consent-ID': consentId }))
        .expect(401);
      expect(accounts.body).toEqualBody(tppError('CONSENT_EXPIRED', `{sensitive} XS2A005E: consent ${consentId} expired`));
      const transactions = await request(nextDay.http)
        .get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`)
        .set(tppHeaders({ 'Consent-ID': consentId }))
        .expect(401);
      expect(transactions.body).toEqualBody(tppError('CONSENT_EXPIRED', `{sensitive} XS2A004E: consent ${consentId} expired`));
      await request(nextDay.http).delete(`/v1/consents/${consentId}`).set(tppHeaders()).expect(409);
    } finally {
      await nextDay.close();
    }

    // Going back in time does not revive it: expired is final.
    const back = await startSandbox({ SANDBOX_DATE: TODAY }, first.database);
    try {
      const status = await request(back.http).get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(200);
      expect(status.body).toEqualBody({ consentStatus: 'expired' });
    } finally {
      await back.close();
      await removeDatabase(first.database);
    }
  });
});

describe('consents (SCA_MODE=redirect)', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });

  it.each([VALID_CONSENT, SECOND_VALID_CONSENT, EXPIRED_CONSENT])(
    'a refusal about fixture consent %s names that consent, not another fixture',
    async (consentId) => {
      const response = await request(sandbox.http).post(`/v1/consents/${consentId}/authorisations`).set(tppHeaders()).expect(409);
      // A fixture stays as it is, and the refusal says what to do instead (docs/behaviour.md).
      expect(response.body).toEqualBody(
        tppError(
          'STATUS_INVALID',
          `{sensitive} XS2A021E: consent ${consentId} is one of the bank's fixtures, which stay as they are: create a consent of your own (POST /v1/consents with availableAccounts) to try this`,
        ),
      );
    },
  );

  it('the fixtures the app serves from memory cannot be changed by any caller', () => {
    const fixtures = sandbox.app.get(BankProfile).rows;
    for (const rows of Object.values(fixtures)) {
      expect(Object.isFrozen(rows)).toBe(true);
      for (const row of rows as object[]) expect(Object.isFrozen(row)).toBe(true);
    }
    expect(Object.isFrozen(fixtures.consents[0].access.accounts[0])).toBe(true);
  });

  it('stores an explicit-list consent as requested, received, which reads nothing until approved', async () => {
    const body = {
      ...explicitRequest,
      access: { balances: [{ iban: MARIANNE }, { iban: SUSANNE, currency: 'EUR' }], transactions: [{ iban: GEORG }] },
    };
    const response = await request(sandbox.http).post('/v1/consents').set(tppHeaders()).send(body).expect(CREATED);
    const { consentId } = response.body;
    expect(consentId).toMatch(NEW_RESOURCE_ID);
    expect(response.body).toEqualBody(created('received', consentId, `http://localhost:3000/sca/consents?consent_id=${consentId}`));

    const consent = await request(sandbox.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
    expect(consent.body).toEqualBody({
      access: access([], [reference(MARIANNE, null), reference(SUSANNE)], [reference(GEORG, null)]),
      recurringIndicator: true,
      validUntil: '2026-06-30',
      frequencyPerDay: 4,
      lastActionDate: TODAY,
      consentStatus: 'received',
      _links: null,
    });
    const accounts = await request(sandbox.http)
      .get('/v1/accounts')
      .set(tppHeaders({ 'Consent-ID': consentId }))
      .expect(401);
    expect(accounts.body).toEqualBody(tppError('CONSENT_INVALID', `{sensitive} XS2A008E: consent ${consentId} is received, not valid`));
  });

  it('stores an allAccounts consent as received, its accounts still to be chosen', async () => {
    const response = await request(sandbox.http).post('/v1/consents').set(tppHeaders()).send(allAccountsRequest).expect(CREATED);
    const consent = await request(sandbox.http).get(`/v1/consents/${response.body.consentId}`).set(tppHeaders()).expect(200);
    expect(consent.body.access).toEqualBody(PROFILE === 'bank' ? access([], [], [], 'allAccounts') : { availableAccounts: 'allAccounts' });
    expect(consent.body.consentStatus).toBe('received');
  });

  it('lets the TPP delete a received consent', async () => {
    const { consentId } = (await request(sandbox.http).post('/v1/consents').set(tppHeaders()).send(explicitRequest).expect(CREATED)).body;
    await request(sandbox.http).delete(`/v1/consents/${consentId}`).set(tppHeaders()).expect(204);
    const status = await request(sandbox.http).get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(200);
    expect(status.body).toEqualBody({ consentStatus: 'terminatedByTpp' });
  });
});
