import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { FRANZ, GEORG, MARIANNE, NEW_RESOURCE_ID, sepaPayment, SUSANNE, VALID_CONSENT } from './support/fixtures';
import { NotificationReceiver } from './support/notification-receiver';
import { authoriseAsSusanne, confirmedAtThirdPoll, DECOUPLED_MESSAGE } from './support/sca-steps';
import { issueToken, Sandbox, tppHeaders, useSandbox } from './support/sandbox';

/**
 * Berlin Group's confirmation of funds and its consents (docs/funds-confirmation.md): offered by
 * the berlin-group profile (answers in its shape: no nulls, 201 on creation), not by the bank's.
 */

const CONSENTS = '/v2/consents/confirmation-of-funds';
const CHECK = '/v1/funds-confirmations';
const EMBEDDED = { 'TPP-Redirect-Preferred': 'false' };
const DECOUPLED = { 'TPP-Decoupled-Preferred': 'true' };
const receiver = new NotificationReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.close());

/** The Berlin Group error body with one message. */
const bgError = (code: string, text: string, path?: string) => ({
  tppMessages: [{ category: 'ERROR', code, ...(path ? { path } : {}), text }],
});

const check = (iban: string, amount: string, extra: object = {}) => ({
  account: { iban },
  instructedAmount: { currency: 'EUR', amount },
  ...extra,
});

function client(sandbox: Sandbox) {
  const http = () => request(sandbox.http);
  return {
    http,
    create: (body: object, headers: Record<string, string> = {}) => http().post(CONSENTS).set(tppHeaders(headers)).send(body),
    get: (path: string, headers: Record<string, string> = {}) => http().get(path).set(tppHeaders(headers)),
    put: (path: string, body: object, headers: Record<string, string> = {}) => http().put(path).set(tppHeaders(headers)).send(body),
    funds: (consentId: string | null, body: object, headers: Record<string, string> = {}) =>
      http()
        .post(CHECK)
        .set(tppHeaders({ ...(consentId ? { 'Consent-ID': consentId } : {}), ...headers }))
        .send(body),
    status: async (consentId: string) =>
      (await http().get(`${CONSENTS}/${consentId}/status`).set(tppHeaders()).expect(200)).body.consentStatus,
    decide: (consentId: string, psuId: string, decision: 'approve' | 'deny') =>
      http().post(`/sandbox/sca/consents/${consentId}`).send({ psuId, decision }),
  };
}

describe('confirmation of funds (PROFILE=berlin-group, SCA_MODE=redirect)', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'redirect', PUBLIC_BASE_URL: 'http://sandbox.test' });
  const tpp = client(sandbox);
  /** A valid consent for `iban`, approved by its holder through the control API. */
  const validConsent = async (iban: string, psuId: string, card: object = {}) => {
    const { consentId } = (await tpp.create({ account: { iban }, ...card }).expect(201)).body;
    await tpp.decide(consentId, psuId, 'approve').expect(200);
    return consentId as string;
  };

  it('redirect: the consent is created received, the holder approves it on the SCA page, then checks answer from the balance', async () => {
    const body = {
      account: { iban: MARIANNE },
      cardNumber: '1234567891234',
      cardExpiryDate: '2030-12-31',
      cardInformation: 'MyMerchant Loyalty Card',
      registrationInformation: 'Your contract 1234 with MyMerchant',
    };
    const created = await tpp.create(body, { 'TPP-Redirect-URI': 'https://tpp.example/back' }).expect(201);
    const { consentId } = created.body;
    expect(consentId).toMatch(NEW_RESOURCE_ID);
    expect(created.headers['aspsp-sca-approach']).toBe('REDIRECT');
    expect(created.headers.location).toBe(`http://sandbox.test${CONSENTS}/${consentId}`);
    expect(created.body).toEqual({
      consentStatus: 'received',
      consentId,
      _links: {
        scaRedirect: { href: `http://sandbox.test/sca/consents?consent_id=${consentId}&redirectBackUrl=https%3A%2F%2Ftpp.example%2Fback` },
        self: { href: `${CONSENTS}/${consentId}` },
        status: { href: `${CONSENTS}/${consentId}/status` },
      },
    });
    const { body: read } = await tpp.get(`${CONSENTS}/${consentId}`).expect(200);
    expect(read).toEqual({ ...body, consentStatus: 'received' });
    // Not valid yet: a check is refused.
    expect((await tpp.funds(consentId, check(MARIANNE, '1.00')).expect(401)).body).toEqual(
      bgError('CONSENT_INVALID', `{sensitive} XS2A008E: consent ${consentId} is received, not valid`),
    );

    // The holder's page says what the consent is for, and approving it makes it valid.
    const browser = request.agent(sandbox.http);
    const page = await browser.get(`/sca/consents?consent_id=${consentId}`).expect(200);
    const text = page.text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain(
      'AT099900000000001511 (Marianne Mustermann) confirmation of funds: whether the balance covers an amount, nothing more',
    );
    expect(text).toContain('Card 1234567891234');
    expect(text).toContain('Information MyMerchant Loyalty Card');
    expect(text).toContain('Valid until 2030-12-31');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    const decided = await browser
      .post('/sca/consents')
      .type('form')
      .send({ _csrf: csrf, id: consentId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'approve' })
      .expect(303);
    expect(decided.headers.location).toBe('https://tpp.example/back');
    expect(await tpp.status(consentId)).toBe('valid');

    // Marianne's interimAvailable is 2850.49: exactly that is available, a cent more is not.
    expect(
      (await tpp.funds(consentId, check(MARIANNE, '2850.49', { cardNumber: '1234567891234', payee: 'Corner Shop' })).expect(200)).body,
    ).toEqual({ fundsAvailable: true });
    const refused = await tpp.funds(consentId, check(MARIANNE, '2850.50')).expect(200);
    expect(refused.body).toEqual({ fundsAvailable: false });
    expect(refused.headers['x-request-id']).toBeDefined();

    // The history records the consent as any other, the check not at all (it changes nothing).
    const history = (await tpp.http().get(`/sandbox/events?resourceId=${consentId}&kind=consent`).expect(200)).body.events;
    expect(history.map(({ from, to, event }: Record<string, string>) => [from ?? null, to, event])).toEqual([
      ['received', 'valid', 'APPROVE'],
      [null, 'received', 'CREATED'],
    ]);
  });

  it('embedded: the password selects the only method, the TAN makes the consent valid', async () => {
    const created = await tpp.create({ account: { iban: SUSANNE } }, { ...EMBEDDED, 'PSU-ID': 'susanne.mustermann' }).expect(201);
    const { consentId } = created.body;
    const [authorisationId] = (await tpp.get(`${CONSENTS}/${consentId}/authorisations`).expect(200)).body.authorisationIds;
    const path = `${CONSENTS}/${consentId}/authorisations/${authorisationId}`;
    expect(created.headers['aspsp-sca-approach']).toBe('EMBEDDED');
    expect(created.body).toEqual({
      consentStatus: 'received',
      consentId,
      _links: {
        updatePsuAuthentication: { href: path },
        scaStatus: { href: path },
        self: { href: `${CONSENTS}/${consentId}` },
        status: { href: `${CONSENTS}/${consentId}/status` },
      },
    });
    await authoriseAsSusanne((at, body) => tpp.put(at, body), path);
    expect(await tpp.status(consentId)).toBe('valid');
    expect((await tpp.funds(consentId, check(SUSANNE, '1556.63')).expect(200)).body).toEqual({ fundsAvailable: true });
  });

  it('decoupled: the holder confirms in the app at the third poll; a further authorisation is refused once valid', async () => {
    const created = await tpp.create({ account: { iban: SUSANNE } }, { ...DECOUPLED, 'PSU-ID': 'susanne.mustermann' }).expect(201);
    const { consentId } = created.body;
    const [authorisationId] = (await tpp.get(`${CONSENTS}/${consentId}/authorisations`).expect(200)).body.authorisationIds;
    const path = `${CONSENTS}/${consentId}/authorisations/${authorisationId}`;
    expect(created.headers['aspsp-sca-approach']).toBe('DECOUPLED');
    expect(created.body).toEqual({
      consentStatus: 'received',
      consentId,
      psuMessage: DECOUPLED_MESSAGE,
      _links: {
        scaStatus: { href: path },
        self: { href: `${CONSENTS}/${consentId}` },
        status: { href: `${CONSENTS}/${consentId}/status` },
      },
    });
    await confirmedAtThirdPoll((at) => tpp.get(at), path);
    expect(await tpp.status(consentId)).toBe('valid');
    const again = await tpp.http().post(`${CONSENTS}/${consentId}/authorisations`).set(tppHeaders()).send({}).expect(409);
    expect(again.body).toEqual(
      bgError('STATUS_INVALID', `{sensitive} XS2A021E: consent ${consentId} is valid, not waiting for the account holder`),
    );
  });

  it('an explicit start of a further authorisation while received: redirect answer with its own links', async () => {
    const { consentId } = (await tpp.create({ account: { iban: FRANZ } }).expect(201)).body;
    const started = await tpp.http().post(`${CONSENTS}/${consentId}/authorisations`).set(tppHeaders()).send({}).expect(201);
    const { authorisationId } = started.body;
    expect(started.body).toEqual({
      scaStatus: 'received',
      authorisationId,
      _links: {
        scaRedirect: { href: `http://sandbox.test/sca/consents?consent_id=${consentId}` },
        scaStatus: { href: `${CONSENTS}/${consentId}/authorisations/${authorisationId}` },
      },
    });
    expect((await tpp.get(`${CONSENTS}/${consentId}/authorisations`).expect(200)).body.authorisationIds).toHaveLength(2);
  });

  it('the holder must hold the account; a denial rejects the consent', async () => {
    const { consentId } = (await tpp.create({ account: { iban: GEORG } }).expect(201)).body;
    const wrong = await tpp.decide(consentId, 'susanne.mustermann', 'approve').expect(401);
    expect(wrong.body).toEqual(
      bgError('PSU_CREDENTIALS_INVALID', `{sensitive} XS2A022E: the PSU does not hold the accounts of consent ${consentId}`),
    );
    expect(await tpp.status(consentId)).toBe('received');
    await tpp.decide(consentId, 'georg.mustermann', 'deny').expect(200);
    expect(await tpp.status(consentId)).toBe('rejected');
    expect((await tpp.funds(consentId, check(GEORG, '1.00')).expect(401)).body).toEqual(
      bgError('CONSENT_INVALID', `{sensitive} XS2A008E: consent ${consentId} is rejected, not valid`),
    );
  });

  it('refuses each check the yaml lists, and none changes the consent', async () => {
    const consentId = await validConsent(MARIANNE, 'georg.mustermann', { cardNumber: '1111222233334444' });
    expect((await tpp.funds(null, check(MARIANNE, '1.00')).expect(400)).body).toEqual(
      bgError(
        'FORMAT_ERROR',
        '{sensitive} XS2A001E: the Consent-ID header is required: the consent for the confirmation of funds on this account',
        'Consent-ID',
      ),
    );
    expect((await tpp.funds('0b1bd7c4-4a6e-4c3f-9d77-1f3e4f2c9a10', check(MARIANNE, '1.00')).expect(403)).body).toEqual(
      bgError('CONSENT_UNKNOWN', '{sensitive} XS2A017E: consent 0b1bd7c4-4a6e-4c3f-9d77-1f3e4f2c9a10 unknown'),
    );
    // An account-information consent is none for funds, and a consent for funds none for account information.
    expect((await tpp.funds(VALID_CONSENT, check(MARIANNE, '1.00')).expect(403)).body).toEqual(
      bgError('CONSENT_UNKNOWN', `{sensitive} XS2A017E: consent ${VALID_CONSENT} unknown`),
    );
    expect((await tpp.get('/v1/accounts', { 'Consent-ID': consentId }).expect(403)).body).toEqual(
      bgError('CONSENT_UNKNOWN', `{sensitive} XS2A017E: consent ${consentId} unknown`),
    );
    await tpp.get(`/v1/consents/${consentId}`).expect(403);
    await tpp.get(`${CONSENTS}/${VALID_CONSENT}`).expect(403);
    expect((await tpp.funds(consentId, check(GEORG, '1.00')).expect(400)).body).toEqual(
      bgError('NO_PIIS_ACTIVATION', `{sensitive} XS2A053E: consent ${consentId} is for account ${MARIANNE}, not ${GEORG}`, 'account'),
    );
    expect((await tpp.funds(consentId, check(MARIANNE, '1.00', { cardNumber: '9999' })).expect(400)).body).toEqual(
      bgError('CARD_INVALID', `{sensitive} XS2A054E: consent ${consentId} is for another card`, 'cardNumber'),
    );
    expect(
      (await tpp.funds(consentId, { account: { iban: MARIANNE }, instructedAmount: { currency: 'USD', amount: '1.00' } }).expect(400)).body,
    ).toEqual(
      bgError('PARAMETER_NOT_CONSISTENT', `{sensitive} XS2A055E: account ${MARIANNE} holds EUR, not USD`, 'instructedAmount.currency'),
    );
    expect(
      (
        await tpp
          .funds(consentId, { account: { iban: MARIANNE, currency: 'CHF' }, instructedAmount: { currency: 'EUR', amount: '1.00' } })
          .expect(400)
      ).body.tppMessages[0].code,
    ).toBe('PARAMETER_NOT_CONSISTENT');
    expect(
      (await tpp.funds(consentId, { account: { iban: 'AT00' }, instructedAmount: { currency: 'EUR', amount: '-1' } }).expect(400)).body,
    ).toEqual({
      tppMessages: [
        {
          category: 'ERROR',
          code: 'FORMAT_ERROR',
          path: 'account.iban',
          text: '{sensitive} XS2A001E: account.iban must be an IBAN with a valid checksum',
        },
        {
          category: 'ERROR',
          code: 'FORMAT_ERROR',
          path: 'instructedAmount.amount',
          text: '{sensitive} XS2A001E: instructedAmount.amount must be a positive decimal string such as "123.45"',
        },
      ],
    });
    expect(await tpp.status(consentId)).toBe('valid');
    expect((await tpp.funds(consentId, check(MARIANNE, '1.00', { cardNumber: '1111222233334444' })).expect(200)).body).toEqual({
      fundsAvailable: true,
    });
  });

  it('refuses a consent it cannot take, storing nothing', async () => {
    const expired = await tpp.create({ account: { iban: MARIANNE }, cardExpiryDate: '2026-03-14' }).expect(400);
    expect(expired.body).toEqual(bgError('FORMAT_ERROR', '{sensitive} XS2A001E: the card expired on 2026-03-14', 'cardExpiryDate'));
    const malformed = await tpp.create({ account: [MARIANNE], cardNumber: 'x'.repeat(36), cardExpiryDate: '2026-02-30' }).expect(400);
    expect(malformed.body.tppMessages.map(({ path }: { path: string }) => path)).toEqual([
      'account',
      'account[0]',
      'cardNumber',
      'cardExpiryDate',
    ]);
    const events = (await tpp.http().get('/sandbox/events?kind=consent&event=CREATED').expect(200)).body.events;
    expect(events.every(({ at }: { at: string }) => at !== undefined)).toBe(true);
    expect(events.some(({ resourceId }: { resourceId: string }) => expired.body.consentId === resourceId)).toBe(false);
  });

  it('deleted: terminatedByTpp, refused for checks, a second delete is 409', async () => {
    const consentId = await validConsent(FRANZ, 'susanne.mustermann');
    await tpp.http().delete(`${CONSENTS}/${consentId}`).set(tppHeaders()).expect(204);
    expect(await tpp.status(consentId)).toBe('terminatedByTpp');
    expect((await tpp.funds(consentId, check(FRANZ, '1.00')).expect(401)).body).toEqual(
      bgError('CONSENT_INVALID', `{sensitive} XS2A008E: consent ${consentId} is terminatedByTpp, not valid`),
    );
    expect((await tpp.http().delete(`${CONSENTS}/${consentId}`).set(tppHeaders()).expect(409)).body).toEqual(
      bgError('STATUS_INVALID', `{sensitive} XS2A011E: consent ${consentId} is terminatedByTpp and cannot be deleted`),
    );
  });

  it("expires the day after the card's expiry date, by the sandbox clock", async () => {
    const consentId = await validConsent(GEORG, 'georg.mustermann', { cardExpiryDate: '2026-03-20' });
    await tpp.http().put('/sandbox/clock').send({ today: '2026-03-20' }).expect(200);
    expect((await tpp.funds(consentId, check(GEORG, '1.00')).expect(200)).body).toEqual({ fundsAvailable: true });
    await tpp.http().put('/sandbox/clock').send({ today: '2026-03-21' }).expect(200);
    expect(await tpp.status(consentId)).toBe('expired');
    expect((await tpp.funds(consentId, check(GEORG, '1.00')).expect(401)).body).toEqual(
      bgError('CONSENT_EXPIRED', `{sensitive} XS2A052E: consent ${consentId} expired`),
    );
    await tpp.http().put('/sandbox/clock').send({ today: '2026-03-15' }).expect(200);
  });

  it("a scenario account's live balance moves the answer: a payment that executes leaves less available", async () => {
    const scenario = (
      await tpp
        .http()
        .post('/sandbox/scenarios')
        .send({ accounts: [{ name: 'Card Holder', balances: { interimAvailable: '100.00', forwardAvailable: '100.00' } }] })
        .expect(201)
    ).body;
    const [{ iban }] = scenario.accounts;
    const consentId = await validConsent(iban, scenario.psuId);
    expect((await tpp.funds(consentId, check(iban, '80.00')).expect(200)).body).toEqual({ fundsAvailable: true });
    const { paymentId } = (
      await tpp
        .http()
        .post('/v1/payments/sepa-credit-transfers')
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(sepaPayment('50.00', { debtorAccount: { iban } }))
        .expect(201)
    ).body;
    await tpp.http().post(`/sandbox/sca/payments/${paymentId}`).send({ psuId: scenario.psuId, decision: 'approve' }).expect(200);
    expect((await tpp.funds(consentId, check(iban, '80.00')).expect(200)).body).toEqual({ fundsAvailable: false });
    expect((await tpp.funds(consentId, check(iban, '50.00')).expect(200)).body).toEqual({ fundsAvailable: true });
    expect((await tpp.funds(consentId, check(iban, '50.01')).expect(200)).body).toEqual({ fundsAvailable: false });
  });

  it('notifies the TPP of each change of the consent, with the status link at its own path', async () => {
    const { consentId } = (
      await tpp.create({ account: { iban: MARIANNE } }, { 'TPP-Notification-URI': receiver.url('/funds') }).expect(201)
    ).body;
    await tpp.decide(consentId, 'georg.mustermann', 'approve').expect(200);
    await tpp.http().delete(`${CONSENTS}/${consentId}`).set(tppHeaders()).expect(204);
    const status = { status: { href: `http://sandbox.test${CONSENTS}/${consentId}/status` } };
    expect((await receiver.waitFor('/funds', 2)).map(({ body }) => body)).toEqual([
      { consentId, consentStatus: 'valid', _links: status },
      { consentId, consentStatus: 'terminatedByTpp', _links: status },
    ]);
    // Each attempt is in the history once its answer came.
    for (let tries = 0; tries < 200; tries++) {
      const { events } = (await tpp.http().get(`/sandbox/events?resourceId=${consentId}&kind=notification`).expect(200)).body;
      if (events.length === 2) return expect(events.map(({ to }: { to: string }) => to)).toEqual(['delivered', 'delivered']);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the attempts were not recorded');
  });
});

describe('confirmation of funds, AUTH_MODE=strict: a client sees only its own consents', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'auto', AUTH_MODE: 'strict' });

  it("another client's consent is unknown to it, for reading and for checks", async () => {
    const mine = await issueToken(sandbox.http);
    const theirs = await issueToken(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2');
    const as = (token: string) => ({ Authorization: `Bearer ${token}` });
    const { consentId } = (
      await request(sandbox.http)
        .post(CONSENTS)
        .set(tppHeaders(as(mine)))
        .send({ account: { iban: MARIANNE } })
        .expect(201)
    ).body;
    expect(
      (
        await request(sandbox.http)
          .post(CHECK)
          .set(tppHeaders({ ...as(mine), 'Consent-ID': consentId }))
          .send(check(MARIANNE, '5.00'))
          .expect(200)
      ).body,
    ).toEqual({ fundsAvailable: true });
    expect(
      (
        await request(sandbox.http)
          .post(CHECK)
          .set(tppHeaders({ ...as(theirs), 'Consent-ID': consentId }))
          .send(check(MARIANNE, '5.00'))
          .expect(403)
      ).body,
    ).toEqual(bgError('CONSENT_UNKNOWN', `{sensitive} XS2A017E: consent ${consentId} unknown`));
    await request(sandbox.http)
      .get(`${CONSENTS}/${consentId}`)
      .set(tppHeaders(as(theirs)))
      .expect(403);
    await request(sandbox.http)
      .delete(`${CONSENTS}/${consentId}`)
      .set(tppHeaders(as(theirs)))
      .expect(403);
    expect(
      (
        await request(sandbox.http)
          .get(`${CONSENTS}/${consentId}/status`)
          .set(tppHeaders(as(mine)))
          .expect(200)
      ).body,
    ).toEqual({ consentStatus: 'valid' });
  });
});

describe('confirmation of funds with its consents managed outside the API (fundsConfirmation.consent: outside)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-funds-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  writeFileSync(join(folder, 'profile.yaml'), 'extends: berlin-group\nfundsConfirmation:\n  consent: outside\n');
  const sandbox = useSandbox({ PROFILE: folder, AUTH_MODE: 'strict' });

  it('checks any account of the bank with no Consent-ID; a scenario account only for its own client; serves no consent routes', async () => {
    const mine = { Authorization: `Bearer ${await issueToken(sandbox.http)}` };
    const theirs = { Authorization: `Bearer ${await issueToken(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2')}` };
    const funds = (body: object, as: Record<string, string>) => request(sandbox.http).post(CHECK).set(tppHeaders(as)).send(body);
    expect((await funds(check(GEORG, '5119.49'), mine).expect(200)).body).toEqual({ fundsAvailable: true });
    expect((await funds(check(GEORG, '5119.50'), theirs).expect(200)).body).toEqual({ fundsAvailable: false });
    expect((await funds(check('DE89370400440532013000', '1.00'), mine).expect(404)).body).toEqual(
      bgError('RESOURCE_UNKNOWN', '{sensitive} XS2A056E: account DE89370400440532013000 unknown', 'account'),
    );
    const scenario = (
      await request(sandbox.http)
        .post('/sandbox/scenarios')
        .set(mine)
        .send({ accounts: [{ name: 'Own', balances: { interimAvailable: '10.00', forwardAvailable: '10.00' } }] })
        .expect(201)
    ).body;
    const [{ iban }] = scenario.accounts;
    expect((await funds(check(iban, '10.00'), mine).expect(200)).body).toEqual({ fundsAvailable: true });
    expect((await funds(check(iban, '10.00'), theirs).expect(404)).body).toEqual(
      bgError('RESOURCE_UNKNOWN', `{sensitive} XS2A056E: account ${iban} unknown`, 'account'),
    );
    await request(sandbox.http)
      .post(CONSENTS)
      .set(tppHeaders(mine))
      .send({ account: { iban: GEORG } })
      .expect(404);

    const document = (await request(sandbox.http).get('/docs-json').expect(200)).body;
    const operation = document.paths[CHECK].post;
    expect(operation.parameters.map(({ name }: { name: string }) => name)).not.toContain('Consent-ID');
    expect(operation.responses['403']).toBeUndefined();
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/v2/'))).toEqual([]);
  });
});

describe('PROFILE=bank offers no confirmation of funds', () => {
  const sandbox = useSandbox({ PROFILE: 'bank' });

  it('serves none of its routes and documents none', async () => {
    for (const [method, path] of [
      ['post', CHECK],
      ['post', CONSENTS],
      ['get', `${CONSENTS}/${VALID_CONSENT}`],
    ] as const) {
      const response = await request(sandbox.http)[method](path).set(tppHeaders()).send(check(MARIANNE, '1.00')).expect(404);
      expect(response.body.tppMessages[0].code).toBe('RESOURCE_UNKNOWN');
    }
    const document = (await request(sandbox.http).get('/docs-json').expect(200)).body;
    expect(Object.keys(document.paths).filter((path) => /funds|confirmation-of-funds/.test(path))).toEqual([]);
    expect(document.info.description).not.toContain('Confirmation of funds');
  });
});
