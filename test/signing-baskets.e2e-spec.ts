import request from 'supertest';
import { ERWIN, FRANZ, GEORG, MARIANNE, NEW_RESOURCE_ID, sepaPayment, SUSANNE, VALID_CONSENT } from './support/fixtures';
import { NotificationReceiver } from './support/notification-receiver';
import { authoriseAsSusanne, confirmedAtThirdPoll, DECOUPLED_MESSAGE } from './support/sca-steps';
import { issueToken, Sandbox, tppHeaders, useSandbox } from './support/sandbox';

/**
 * Berlin Group's signing baskets (docs/signing-baskets.md): one SCA authorises every payment and
 * consent of a basket. PROFILE=berlin-group offers them (answers in its shape: no nulls, 201 on
 * creation); the seed bank does not.
 */

const SEPA = '/v1/payments/sepa-credit-transfers';
const BASKETS = '/v1/signing-baskets';
const EMBEDDED = { 'TPP-Redirect-Preferred': 'false' };
const DECOUPLED = { 'TPP-Decoupled-Preferred': 'true' };
const bgError = (code: string, text: string, path?: string) => ({
  tppMessages: [{ category: 'ERROR', code, ...(path ? { path } : {}), text }],
});
const consentRequest = (access: object) => ({
  access,
  recurringIndicator: true,
  combinedServiceIndicator: false,
  validUntil: '2026-06-30',
  frequencyPerDay: 4,
});

const receiver = new NotificationReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.close());

function client(sandbox: Sandbox, headers: Record<string, string> = {}) {
  const http = () => request(sandbox.http);
  const as = (extra: Record<string, string> = {}) => tppHeaders({ ...headers, ...extra });
  return {
    http,
    as,
    get: (path: string) => http().get(path).set(as()),
    put: (path: string, body: object, extra: Record<string, string> = {}) => http().put(path).set(as(extra)).send(body),
    // To Erwin, whom no holder trusts: no payment here is exempted from SCA (docs/trusted-beneficiaries.md).
    payment: async (debtor: string, amount = '5.00') =>
      (
        await http()
          .post(SEPA)
          .set(as({ 'PSU-IP-Address': '192.0.2.10' }))
          .send(
            sepaPayment(amount, { debtorAccount: { iban: debtor }, creditorAccount: { iban: ERWIN }, creditorName: 'Erwin Mustermann' }),
          )
          .expect(201)
      ).body.paymentId as string,
    consent: async (access: object) =>
      (await http().post('/v1/consents').set(as()).send(consentRequest(access)).expect(201)).body.consentId as string,
    fundsConsent: async (iban: string) =>
      (await http().post('/v2/consents/confirmation-of-funds').set(as()).send({ account: { iban } }).expect(201)).body.consentId as string,
    basket: (body: object, extra: Record<string, string> = {}) => http().post(BASKETS).set(as(extra)).send(body),
    paymentStatus: async (id: string) => (await http().get(`${SEPA}/${id}/status`).set(as()).expect(200)).body.transactionStatus,
    consentStatus: async (id: string) => (await http().get(`/v1/consents/${id}/status`).set(as()).expect(200)).body.consentStatus,
    basketStatus: async (id: string) => (await http().get(`${BASKETS}/${id}/status`).set(as()).expect(200)).body.transactionStatus,
    decide: (id: string, psuId: string, decision: 'approve' | 'deny') =>
      http().post(`/sandbox/sca/signing-baskets/${id}`).set(headers).send({ psuId, decision }),
  };
}

describe('signing baskets (PROFILE=berlin-group, SCA_MODE=redirect)', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'redirect', PUBLIC_BASE_URL: 'http://sandbox.test' });
  const tpp = client(sandbox);

  it('redirect: one SCA on the basket page authorises a payment, a consent and a consent for funds, each as if alone', async () => {
    const [paymentId, consentId, fundsId] = [
      await tpp.payment(GEORG),
      await tpp.consent({ balances: [{ iban: GEORG }] }),
      await tpp.fundsConsent(MARIANNE),
    ];
    const created = await tpp
      .basket({ paymentIds: [paymentId], consentIds: [consentId, fundsId] }, { 'TPP-Redirect-URI': 'https://tpp.example/back' })
      .expect(201);
    const { basketId } = created.body;
    expect(basketId).toMatch(NEW_RESOURCE_ID);
    expect(created.headers['aspsp-sca-approach']).toBe('REDIRECT');
    expect(created.headers.location).toBe(`http://sandbox.test${BASKETS}/${basketId}`);
    expect(created.body).toEqual({
      transactionStatus: 'RCVD',
      basketId,
      _links: {
        scaRedirect: {
          href: `http://sandbox.test/sca/signing-baskets?basket_id=${basketId}&redirectBackUrl=https%3A%2F%2Ftpp.example%2Fback`,
        },
        self: { href: `${BASKETS}/${basketId}` },
        status: { href: `${BASKETS}/${basketId}/status` },
      },
    });
    const links = { self: { href: `${BASKETS}/${basketId}` }, status: { href: `${BASKETS}/${basketId}/status` } };
    expect((await tpp.get(`${BASKETS}/${basketId}`).expect(200)).body).toEqual({
      payments: [paymentId],
      consents: [consentId, fundsId],
      transactionStatus: 'RCVD',
      _links: links,
    });
    expect((await tpp.get(`${BASKETS}/${basketId}/status`).expect(200)).body).toEqual({ transactionStatus: 'RCVD' });

    const browser = request.agent(sandbox.http);
    const page = await browser.get(`/sca/signing-baskets?basket_id=${basketId}`).expect(200);
    const text = page.text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain(`Payment ${paymentId} 5.00 EUR from ${GEORG}`);
    expect(text).toContain(`Consent ${consentId} access to ${GEORG}`);
    expect(text).toContain(`Consent ${fundsId} confirmation of funds on ${MARIANNE}`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    const decided = await browser
      .post('/sca/signing-baskets')
      .type('form')
      .send({ _csrf: csrf, id: basketId, psuId: 'georg.mustermann', password: 'sandbox', decision: 'approve' })
      .expect(303);
    expect(decided.headers.location).toBe('https://tpp.example/back');

    expect(await tpp.basketStatus(basketId)).toBe('ACTC');
    expect(await tpp.paymentStatus(paymentId)).toBe('ACSP');
    expect(await tpp.consentStatus(consentId)).toBe('valid');
    expect((await tpp.get(`/v2/consents/confirmation-of-funds/${fundsId}/status`).expect(200)).body).toEqual({ consentStatus: 'valid' });
    // Each member's own authorisation is finalised with it; the basket's machine is in the history.
    const [own] = (await tpp.get(`${SEPA}/${paymentId}/authorisations`).expect(200)).body.authorisationIds;
    expect((await tpp.get(`${SEPA}/${paymentId}/authorisations/${own}`).expect(200)).body).toEqual({ scaStatus: 'finalised' });
    const history = (await tpp.http().get(`/sandbox/events?resourceId=${basketId}&kind=basket`).expect(200)).body.events;
    expect(history.map(({ from, to, event, channel }: Record<string, string>) => [from ?? null, to, event, channel ?? null])).toEqual([
      ['RCVD', 'ACTC', 'SCA_COMPLETED', 'page'],
      [null, 'RCVD', 'CREATED', null],
    ]);
    // Authorised: it is neither authorised again nor deleted.
    expect((await tpp.http().delete(`${BASKETS}/${basketId}`).set(tpp.as()).expect(409)).body).toEqual(
      bgError(
        'STATUS_INVALID',
        `{sensitive} XS2A061E: signing basket ${basketId} is ACTC: only an open (RCVD) basket is authorised or deleted`,
      ),
    );
  });

  it('embedded: the password, then the TAN of the only method, authorises the basket', async () => {
    const [paymentId, consentId] = [await tpp.payment(SUSANNE, '3.00'), await tpp.consent({ transactions: [{ iban: FRANZ }] })];
    const created = await tpp
      .basket({ paymentIds: [paymentId], consentIds: [consentId] }, { ...EMBEDDED, 'PSU-ID': 'susanne.mustermann' })
      .expect(201);
    const { basketId } = created.body;
    const [authorisationId] = (await tpp.get(`${BASKETS}/${basketId}/authorisations`).expect(200)).body.authorisationIds;
    const path = `${BASKETS}/${basketId}/authorisations/${authorisationId}`;
    expect(created.headers['aspsp-sca-approach']).toBe('EMBEDDED');
    expect(created.body).toEqual({
      transactionStatus: 'RCVD',
      basketId,
      _links: {
        updatePsuAuthentication: { href: path },
        scaStatus: { href: path },
        self: { href: `${BASKETS}/${basketId}` },
        status: { href: `${BASKETS}/${basketId}/status` },
      },
    });
    await authoriseAsSusanne((at, body) => tpp.put(at, body), path);
    expect([await tpp.basketStatus(basketId), await tpp.paymentStatus(paymentId), await tpp.consentStatus(consentId)]).toEqual([
      'ACTC',
      'ACSP',
      'valid',
    ]);
  });

  it('decoupled: the holder confirms in the app at the third poll', async () => {
    const paymentId = await tpp.payment(FRANZ, '2.00');
    const created = await tpp.basket({ paymentIds: [paymentId] }, { ...DECOUPLED, 'PSU-ID': 'susanne.mustermann' }).expect(201);
    const { basketId } = created.body;
    const [authorisationId] = (await tpp.get(`${BASKETS}/${basketId}/authorisations`).expect(200)).body.authorisationIds;
    const path = `${BASKETS}/${basketId}/authorisations/${authorisationId}`;
    expect(created.body).toEqual({
      transactionStatus: 'RCVD',
      basketId,
      psuMessage: DECOUPLED_MESSAGE,
      _links: { scaStatus: { href: path }, self: { href: `${BASKETS}/${basketId}` }, status: { href: `${BASKETS}/${basketId}/status` } },
    });
    await confirmedAtThirdPoll((at) => tpp.get(at), path);
    expect([await tpp.basketStatus(basketId), await tpp.paymentStatus(paymentId)]).toEqual(['ACTC', 'ACSP']);
  });

  it('refuses what the yaml lists, creating nothing', async () => {
    const paymentId = await tpp.payment(GEORG);
    expect((await tpp.basket({}).expect(400)).body).toEqual(
      bgError(
        'FORMAT_ERROR',
        '{sensitive} XS2A001E: the basket must name at least one payment or consent (paymentIds, consentIds)',
        'paymentIds',
      ),
    );
    expect((await tpp.basket({ paymentIds: 'x' }).expect(400)).body.tppMessages[0].path).toBe('paymentIds');
    expect((await tpp.basket({ paymentIds: [paymentId, 'nope'] }).expect(400)).body).toEqual(
      bgError('RESOURCE_UNKNOWN', '{sensitive} XS2A058E: nope is no payment or consent of this client'),
    );
    expect((await tpp.basket({ consentIds: [VALID_CONSENT] }).expect(409)).body).toEqual(
      bgError(
        'REFERENCE_STATUS_INVALID',
        `{sensitive} XS2A059E: consent ${VALID_CONSENT} is one of the bank's fixtures, not waiting for SCA`,
      ),
    );
    const executed = await tpp.payment(GEORG);
    await tpp.http().post(`/sandbox/sca/payments/${executed}`).send({ psuId: 'georg.mustermann', decision: 'approve' }).expect(200);
    expect((await tpp.basket({ paymentIds: [executed] }).expect(409)).body).toEqual(
      bgError('REFERENCE_STATUS_INVALID', `{sensitive} XS2A059E: payment ${executed} is ACSP, not waiting for SCA`),
    );
    const { basketId } = (await tpp.basket({ paymentIds: [paymentId] }).expect(201)).body;
    expect((await tpp.basket({ paymentIds: [paymentId] }).expect(409)).body).toEqual(
      bgError('REFERENCE_STATUS_INVALID', `{sensitive} XS2A059E: payment ${paymentId} is in signing basket ${basketId} already`),
    );
    expect((await tpp.get(`${BASKETS}/0b1bd7c4-4a6e-4c3f-9d77-1f3e4f2c9a10`).expect(404)).body).toEqual(
      bgError('RESOURCE_UNKNOWN', '{sensitive} XS2A060E: signing basket 0b1bd7c4-4a6e-4c3f-9d77-1f3e4f2c9a10 unknown'),
    );
    // A holder who does not hold every member decides nothing.
    const wrong = await tpp.decide(basketId, 'susanne.mustermann', 'approve').expect(401);
    expect(wrong.body).toEqual(
      bgError(
        'PSU_CREDENTIALS_INVALID',
        `{sensitive} XS2A022E: the PSU does not hold the accounts of every member of signing basket ${basketId}`,
      ),
    );
    expect([await tpp.basketStatus(basketId), await tpp.paymentStatus(paymentId)]).toEqual(['RCVD', 'RCVD']);
  });

  it('denied: the basket is RJCT, its members wait for their own SCA; deleted: CANC, and its members may join another', async () => {
    const [paymentId, consentId] = [await tpp.payment(GEORG), await tpp.consent({ balances: [{ iban: MARIANNE }] })];
    const denied = (await tpp.basket({ paymentIds: [paymentId], consentIds: [consentId] }).expect(201)).body.basketId;
    expect((await tpp.decide(denied, 'georg.mustermann', 'deny').expect(200)).body).toEqual({ transactionStatus: 'RJCT' });
    expect([await tpp.paymentStatus(paymentId), await tpp.consentStatus(consentId)]).toEqual(['RCVD', 'received']);

    const deleted = (await tpp.basket({ paymentIds: [paymentId], consentIds: [consentId] }).expect(201)).body.basketId;
    const [authorisationId] = (await tpp.get(`${BASKETS}/${deleted}/authorisations`).expect(200)).body.authorisationIds;
    await tpp.http().delete(`${BASKETS}/${deleted}`).set(tpp.as()).expect(204);
    expect(await tpp.basketStatus(deleted)).toBe('CANC');
    expect((await tpp.get(`${BASKETS}/${deleted}/authorisations/${authorisationId}`).expect(200)).body).toEqual({ scaStatus: 'failed' });
    await tpp.decide(deleted, 'georg.mustermann', 'approve').expect(409);
    const again = (await tpp.basket({ paymentIds: [paymentId], consentIds: [consentId] }).expect(201)).body.basketId;
    expect((await tpp.decide(again, 'georg.mustermann', 'approve').expect(200)).body).toEqual({ transactionStatus: 'ACTC' });
    expect([await tpp.paymentStatus(paymentId), await tpp.consentStatus(consentId)]).toEqual(['ACSP', 'valid']);
  });

  it('TPP-Explicit-Authorisation-Preferred: true creates payments and consents with no authorisation, a link to start one, ready for a basket', async () => {
    const explicit = tpp.as({ 'TPP-Explicit-Authorisation-Preferred': 'true', 'PSU-IP-Address': '192.0.2.10' });
    const payment = await tpp
      .http()
      .post(SEPA)
      .set(explicit)
      .send(sepaPayment('4.00', { debtorAccount: { iban: GEORG }, creditorAccount: { iban: ERWIN }, creditorName: 'Erwin Mustermann' }))
      .expect(201);
    const { paymentId } = payment.body;
    expect(payment.body).toEqual({
      transactionStatus: 'RCVD',
      paymentId,
      _links: {
        startAuthorisation: { href: `${SEPA}/${paymentId}/authorisations` },
        self: { href: `${SEPA}/${paymentId}` },
        status: { href: `${SEPA}/${paymentId}/status` },
      },
    });
    expect((await tpp.get(`${SEPA}/${paymentId}/authorisations`).expect(200)).body).toEqual({ authorisationIds: [] });
    const consent = await tpp
      .http()
      .post('/v1/consents')
      .set(explicit)
      .send(consentRequest({ balances: [{ iban: GEORG }] }))
      .expect(201);
    const { consentId } = consent.body;
    expect(consent.body).toEqual({
      consentStatus: 'received',
      consentId,
      _links: {
        startAuthorisation: { href: `/v1/consents/${consentId}/authorisations` },
        self: { href: `/v1/consents/${consentId}` },
        status: { href: `/v1/consents/${consentId}/status` },
      },
    });
    const funds = (
      await tpp
        .http()
        .post('/v2/consents/confirmation-of-funds')
        .set(explicit)
        .send({ account: { iban: MARIANNE } })
        .expect(201)
    ).body;
    expect(funds._links.startAuthorisation).toEqual({ href: `/v2/consents/confirmation-of-funds/${funds.consentId}/authorisations` });

    const basketId = (await tpp.basket({ paymentIds: [paymentId], consentIds: [consentId, funds.consentId] }).expect(201)).body.basketId;
    expect((await tpp.decide(basketId, 'georg.mustermann', 'approve').expect(200)).body).toEqual({ transactionStatus: 'ACTC' });
    expect([await tpp.paymentStatus(paymentId), await tpp.consentStatus(consentId)]).toEqual(['ACSP', 'valid']);
    // Or started explicitly, alone.
    const alone = (
      await tpp
        .http()
        .post(SEPA)
        .set(explicit)
        .send(sepaPayment('1.00', { debtorAccount: { iban: GEORG }, creditorAccount: { iban: ERWIN }, creditorName: 'Erwin Mustermann' }))
        .expect(201)
    ).body.paymentId;
    const started = await tpp.http().post(`${SEPA}/${alone}/authorisations`).set(tpp.as()).send({}).expect(201);
    expect(started.body._links.scaRedirect.href).toContain(`payment_id=${alone}`);
  });

  it('notifies the TPP of the basket and its authorisation, and shows the basket in the cockpit', async () => {
    const paymentId = await tpp.payment(GEORG, '1.50');
    const created = await tpp
      .basket(
        { paymentIds: [paymentId] },
        { 'TPP-Notification-URI': receiver.url('/basket'), 'TPP-Notification-Content-Preferred': 'status=SCA,PROCESS' },
      )
      .expect(201);
    expect(created.headers['aspsp-notification-support']).toBe('true');
    const { basketId } = created.body;
    const [authorisationId] = (await tpp.get(`${BASKETS}/${basketId}/authorisations`).expect(200)).body.authorisationIds;
    await tpp.decide(basketId, 'georg.mustermann', 'approve').expect(200);
    const status = { status: { href: `http://sandbox.test${BASKETS}/${basketId}/status` } };
    const bodies = (await receiver.waitFor('/basket', 2)).map(({ body }) => body);
    expect(bodies).toEqual([
      { basketId, transactionStatus: 'ACTC', _links: status },
      { basketId, authorisationId, scaStatus: 'finalised', _links: status },
    ]);
    for (let tries = 0; tries < 200; tries++) {
      const { events } = (await tpp.http().get(`/sandbox/events?resourceId=${basketId}&kind=notification`).expect(200)).body;
      if (events.length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const overview = (await tpp.http().get('/cockpit').expect(200)).text;
    expect(overview).toContain(`<a href="/cockpit/signing-baskets/${basketId}">${basketId}</a>`);
    const page = (await tpp.http().get(`/cockpit/signing-baskets/${basketId}`).expect(200)).text;
    expect(page).toContain(`Signing basket ${basketId}`);
    expect(page).toMatch(/<svg[^>]*>[\s\S]*RCVD[\s\S]*ACTC[\s\S]*<\/svg>/);
    expect(page).toContain(`<a href="/cockpit/payments/${paymentId}">${paymentId}</a>`);
  });

  it('a member the TPP cancelled before the SCA is skipped; raced, either the cancellation or the SCA wins, never both', async () => {
    const [cancelled, kept] = [await tpp.payment(GEORG), await tpp.payment(MARIANNE)];
    const basketId = (await tpp.basket({ paymentIds: [cancelled, kept] }).expect(201)).body.basketId;
    await tpp.http().delete(`${SEPA}/${cancelled}`).set(tpp.as()).expect(204);
    expect((await tpp.decide(basketId, 'georg.mustermann', 'approve').expect(200)).body).toEqual({ transactionStatus: 'ACTC' });
    expect([await tpp.paymentStatus(cancelled), await tpp.paymentStatus(kept)]).toEqual(['CANC', 'ACSP']);

    for (let round = 0; round < 5; round++) {
      const [raced, other] = [await tpp.payment(GEORG, '1.00'), await tpp.payment(GEORG, '1.00')];
      const raceBasket = (await tpp.basket({ paymentIds: [raced, other] }).expect(201)).body.basketId;
      const [cancellation, sca] = await Promise.all([
        tpp.http().delete(`${SEPA}/${raced}`).set(tpp.as()),
        tpp.decide(raceBasket, 'georg.mustermann', 'approve'),
      ]);
      expect(sca.status).toBe(200);
      expect(await tpp.basketStatus(raceBasket)).toBe('ACTC');
      expect(await tpp.paymentStatus(other)).toBe('ACSP');
      const status = await tpp.paymentStatus(raced);
      // Cancelled first: CANC, skipped by the SCA. Authorised first: executed, and the cancellation refused.
      expect(cancellation.status === 204 ? status : `${cancellation.status} ${status}`).toBe(
        cancellation.status === 204 ? 'CANC' : '405 ACSP',
      );
    }
  });
});

describe('signing baskets, SCA_MODE=auto: no holder to ask, so SCA is deemed done where it first can be', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'auto', PUBLIC_BASE_URL: 'http://sandbox.test' });
  const EXPLICIT = { 'TPP-Explicit-Authorisation-Preferred': 'true' };

  it("a basket's first read completes its SCA, as a payment's does: ACTC, its members authorised, its authorisation finalised", async () => {
    const tpp = client(sandbox);
    const paymentId = (
      await tpp
        .http()
        .post(SEPA)
        .set(tpp.as({ ...EXPLICIT, 'PSU-IP-Address': '192.0.2.10' }))
        .send(sepaPayment('3.00', { debtorAccount: { iban: SUSANNE }, creditorAccount: { iban: ERWIN }, creditorName: 'Erwin Mustermann' }))
        .expect(201)
    ).body.paymentId;
    const basketId = (await tpp.basket({ paymentIds: [paymentId] }).expect(201)).body.basketId;
    const links = { self: { href: `${BASKETS}/${basketId}` }, status: { href: `${BASKETS}/${basketId}/status` } };
    // No consent in it: the list is left out, as Berlin Group lists at least one item or none.
    expect((await tpp.get(`${BASKETS}/${basketId}`).expect(200)).body).toEqual({
      payments: [paymentId],
      transactionStatus: 'ACTC',
      _links: links,
    });
    expect((await tpp.get(`${BASKETS}/${basketId}/status`).expect(200)).body).toEqual({ transactionStatus: 'ACTC' });
    expect(await tpp.paymentStatus(paymentId)).toBe('ACSP');
    const [authorisationId] = (await tpp.get(`${BASKETS}/${basketId}/authorisations`).expect(200)).body.authorisationIds;
    expect((await tpp.get(`${BASKETS}/${basketId}/authorisations/${authorisationId}`).expect(200)).body).toEqual({
      scaStatus: 'finalised',
    });
    // Settled once: a delete finds it authorised.
    expect((await tpp.http().delete(`${BASKETS}/${basketId}`).set(tpp.as()).expect(409)).body.tppMessages[0].code).toBe('STATUS_INVALID');
  });

  it("an explicit start of a consent's, a payment's or a cancellation's authorisation is finalised at once", async () => {
    const tpp = client(sandbox);
    const consent = (
      await tpp
        .http()
        .post('/v1/consents')
        .set(tpp.as(EXPLICIT))
        .send(consentRequest({ balances: [{ iban: SUSANNE }] }))
        .expect(201)
    ).body.consentId;
    expect(await tpp.consentStatus(consent)).toBe('received');
    const started = await tpp.http().post(`/v1/consents/${consent}/authorisations`).set(tpp.as()).send({}).expect(201);
    // The start answers as a creation does in this mode: finalised, so no SCA page is linked, only the status.
    const consentAuthorisation = `/v1/consents/${consent}/authorisations/${started.body.authorisationId}`;
    expect(started.body).toEqual({
      scaStatus: 'finalised',
      authorisationId: expect.stringMatching(NEW_RESOURCE_ID),
      _links: { scaStatus: { href: consentAuthorisation } },
    });
    expect(await tpp.consentStatus(consent)).toBe('valid');
    await tpp
      .http()
      .get(`/v1/accounts/${SUSANNE}/balances`)
      .set(tpp.as({ 'Consent-ID': consent }))
      .expect(200);

    const periodic = {
      ...sepaPayment('9.00', { debtorAccount: { iban: SUSANNE }, creditorAccount: { iban: ERWIN }, creditorName: 'Erwin Mustermann' }),
      startDate: '2026-04-01',
      frequency: 'Monthly',
    };
    const path = '/v1/periodic-payments/sepa-credit-transfers';
    const paymentId = (
      await tpp
        .http()
        .post(path)
        .set(tpp.as({ ...EXPLICIT, 'PSU-IP-Address': '192.0.2.10' }))
        .send(periodic)
        .expect(201)
    ).body.paymentId;
    const paymentStart = (await tpp.http().post(`${path}/${paymentId}/authorisations`).set(tpp.as()).send({}).expect(201)).body;
    expect(paymentStart).toEqual({
      scaStatus: 'finalised',
      authorisationId: expect.stringMatching(NEW_RESOURCE_ID),
      _links: { scaStatus: { href: `${path}/${paymentId}/authorisations/${paymentStart.authorisationId}` } },
    });
    expect((await tpp.get(`${path}/${paymentId}/status`).expect(200)).body).toEqual({ transactionStatus: 'PDNG' });
    const cancelled = await tpp.http().delete(`${path}/${paymentId}`).set(tpp.as()).expect(202);
    expect(cancelled.body).toEqual({
      transactionStatus: 'PDNG',
      _links: { startAuthorisation: { href: `${path}/${paymentId}/cancellation-authorisations` } },
    });
    const cancellationStart = (await tpp.http().post(`${path}/${paymentId}/cancellation-authorisations`).set(tpp.as()).send({}).expect(201))
      .body;
    expect(cancellationStart).toEqual({
      scaStatus: 'finalised',
      authorisationId: expect.stringMatching(NEW_RESOURCE_ID),
      _links: { scaStatus: { href: `${path}/${paymentId}/cancellation-authorisations/${cancellationStart.authorisationId}` } },
    });
    expect((await tpp.get(`${path}/${paymentId}/status`).expect(200)).body).toEqual({ transactionStatus: 'CANC' });
  });
});

describe('signing baskets, AUTH_MODE=strict: a client sees and uses only its own', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'redirect', AUTH_MODE: 'strict' });

  it("another client's basket is unknown, and its payments are no members of one's own", async () => {
    const mine = client(sandbox, { Authorization: `Bearer ${await issueToken(sandbox.http)}` });
    const theirs = client(sandbox, { Authorization: `Bearer ${await issueToken(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2')}` });
    const paymentId = await mine.payment(GEORG);
    const basketId = (await mine.basket({ paymentIds: [paymentId] }).expect(201)).body.basketId;
    await theirs.get(`${BASKETS}/${basketId}`).expect(404);
    await theirs.http().delete(`${BASKETS}/${basketId}`).set(theirs.as()).expect(404);
    await theirs.decide(basketId, 'georg.mustermann', 'approve').expect(404);
    expect((await theirs.basket({ paymentIds: [paymentId] }).expect(400)).body.tppMessages[0].code).toBe('RESOURCE_UNKNOWN');
    expect((await mine.decide(basketId, 'georg.mustermann', 'approve').expect(200)).body).toEqual({ transactionStatus: 'ACTC' });
  });
});

describe('PROFILE=bank offers no signing baskets', () => {
  const sandbox = useSandbox({ PROFILE: 'bank' });

  it('serves none of their routes and documents none; ignores TPP-Explicit-Authorisation-Preferred', async () => {
    const payment = (
      await request(sandbox.http)
        .post(SEPA)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', 'TPP-Explicit-Authorisation-Preferred': 'true' }))
        .send(sepaPayment('1.00'))
        .expect(200)
    ).body;
    expect(Object.keys(payment._links)).toEqual(['scaRedirect', 'self', 'status', 'scaStatus']);
    await request(sandbox.http)
      .post(BASKETS)
      .set(tppHeaders())
      .send({ paymentIds: ['x'] })
      .expect(404);
    await request(sandbox.http).get(`${BASKETS}/x`).set(tppHeaders()).expect(404);
    await request(sandbox.http).post('/sandbox/sca/signing-baskets/x').send({ psuId: 'georg.mustermann', decision: 'approve' }).expect(404);
    await request(sandbox.http).get('/sca/signing-baskets?basket_id=x').expect(404);
    // Its history records no basket: the kind is refused as any other the document does not list.
    const kind = await request(sandbox.http).get('/sandbox/events?kind=basket').expect(400);
    expect(kind.body.tppMessages[0]).toMatchObject({
      code: 'FORMAT_ERROR',
      path: 'kind',
      text: '{sensitive} XS2A001E: kind must be one of the following values: consent, payment, authorisation, instalment, booking, clock, notification',
    });
    const document = (await request(sandbox.http).get('/docs-json').expect(200)).body;
    expect(Object.keys(document.paths).filter((path) => path.includes('signing-baskets'))).toEqual([]);
  });
});
