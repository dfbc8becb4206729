import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { FRANZ, GEORG, MARIANNE, sepaPayment, SUSANNE } from './support/fixtures';
import { Sandbox, tppHeaders, useSandbox } from './support/sandbox';

/**
 * Berlin Group's trusted beneficiaries (docs/trusted-beneficiaries.md): listed under a consent that
 * asks for them, and, where the profile exempts them, paid without SCA. PROFILE=berlin-group lists
 * and exempts them (answers in its shape: no nulls, 201 on creation); the seed bank does neither.
 */

const SEPA = '/v1/payments/sepa-credit-transfers';
const STADTWERKE = 'DE43500105170012345678';
const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);
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

/** Georg's fixtures, as listed: the one for his own account, then the one for all of his. */
const FRANZ_OF_GEORG = {
  trustedBeneficiaryId: 'tb-georg-franz',
  debtorAccount: { iban: GEORG },
  creditorAccount: { iban: FRANZ },
  creditorAgent: 'TESTAT99',
  creditorName: 'Franz Mustermann',
  creditorAlias: 'Pocket money',
};
const STADTWERKE_OF_GEORG = {
  trustedBeneficiaryId: 'tb-georg-stadtwerke',
  creditorAccount: { iban: STADTWERKE },
  creditorName: 'Stadtwerke Musterstadt GmbH',
  creditorAlias: 'Electricity',
};

function client(sandbox: Sandbox) {
  const http = () => request(sandbox.http);
  return {
    http,
    get: (path: string, headers: Record<string, string> = {}) => http().get(path).set(tppHeaders(headers)),
    /** A consent approved by `psuId` through the control API. */
    async validConsent(access: object, psuId = 'georg.mustermann'): Promise<string> {
      const { consentId } = (await http().post('/v1/consents').set(tppHeaders()).send(consentRequest(access)).expect(201)).body;
      await http().post(`/sandbox/sca/consents/${consentId}`).send({ psuId, decision: 'approve' }).expect(200);
      return consentId;
    },
    list: (consentId: string) =>
      http()
        .get('/v1/trusted-beneficiaries')
        .set(tppHeaders({ 'Consent-ID': consentId })),
    pay: (body: object, path = SEPA) =>
      http()
        .post(path)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(body),
  };
}

describe('trusted beneficiaries (PROFILE=berlin-group, SCA_MODE=redirect)', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'redirect' });
  const tpp = client(sandbox);

  it("lists those of the accounts the consent's additionalInformation names, each whole; the consent shows what it asked", async () => {
    const consentId = await tpp.validConsent({
      balances: [{ iban: GEORG }, { iban: MARIANNE }],
      additionalInformation: { trustedBeneficiaries: [{ iban: GEORG }] },
    });
    const consent = (await tpp.get(`/v1/consents/${consentId}`).expect(200)).body;
    expect(consent.access).toEqual({
      balances: [{ iban: GEORG }, { iban: MARIANNE }],
      additionalInformation: { trustedBeneficiaries: [{ iban: GEORG }] },
    });
    const listed = await tpp.list(consentId).expect(200);
    expect(listed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(listed.body).toEqual({ trustedBeneficiaries: [FRANZ_OF_GEORG, STADTWERKE_OF_GEORG] });
  });

  it("an empty list asks for every account of the consent: Marianne's account, which Georg holds, has only his trusted for all of them", async () => {
    const consentId = await tpp.validConsent({ transactions: [{ iban: MARIANNE }], additionalInformation: { trustedBeneficiaries: [] } });
    expect((await tpp.list(consentId).expect(200)).body).toEqual({ trustedBeneficiaries: [STADTWERKE_OF_GEORG] });
    const susanne = await tpp.validConsent(
      { balances: [{ iban: FRANZ }, { iban: SUSANNE }], additionalInformation: { trustedBeneficiaries: [] } },
      'susanne.mustermann',
    );
    expect((await tpp.list(susanne).expect(200)).body).toEqual({
      trustedBeneficiaries: [
        {
          trustedBeneficiaryId: 'tb-susanne-georg',
          creditorAccount: { iban: GEORG },
          creditorAgent: 'TESTAT99',
          creditorName: 'Georg Mustermann',
        },
      ],
    });
  });

  it('refuses a consent that did not ask for them, one not valid, and a request that names an account for nothing else', async () => {
    const plain = await tpp.validConsent({ balances: [{ iban: GEORG }] });
    expect((await tpp.list(plain).expect(401)).body).toEqual(
      bgError(
        'CONSENT_INVALID',
        `{sensitive} XS2A057E: consent ${plain} does not grant the trusted beneficiaries (access.additionalInformation.trustedBeneficiaries)`,
      ),
    );
    const { consentId: waiting } = (
      await tpp
        .http()
        .post('/v1/consents')
        .set(tppHeaders())
        .send(consentRequest({ balances: [{ iban: GEORG }], additionalInformation: { trustedBeneficiaries: [] } }))
        .expect(201)
    ).body;
    expect((await tpp.list(waiting).expect(401)).body).toEqual(
      bgError('CONSENT_INVALID', `{sensitive} XS2A008E: consent ${waiting} is received, not valid`),
    );
    await tpp.list('0b1bd7c4-4a6e-4c3f-9d77-1f3e4f2c9a10').expect(403);
    await tpp.http().get('/v1/trusted-beneficiaries').set(tppHeaders()).expect(400);

    const stray = await tpp
      .http()
      .post('/v1/consents')
      .set(tppHeaders())
      .send(consentRequest({ balances: [{ iban: GEORG }], additionalInformation: { trustedBeneficiaries: [{ iban: MARIANNE }] } }))
      .expect(400);
    expect(stray.body).toEqual(
      bgError(
        'FORMAT_ERROR',
        `{sensitive} XS2A001E: ${MARIANNE} must be named in balances or transactions too`,
        'access.additionalInformation.trustedBeneficiaries',
      ),
    );
    const all = await tpp
      .http()
      .post('/v1/consents')
      .set(tppHeaders())
      .send(consentRequest({ availableAccounts: 'allAccounts', additionalInformation: { trustedBeneficiaries: [{ iban: GEORG }] } }))
      .expect(400);
    expect(all.body.tppMessages[0].text).toBe(
      '{sensitive} XS2A001E: with availableAccounts or allPsd2, additionalInformation.trustedBeneficiaries must be empty (every account the holder chooses)',
    );
    const malformed = await tpp
      .http()
      .post('/v1/consents')
      .set(tppHeaders())
      .send(consentRequest({ balances: [{ iban: GEORG }], additionalInformation: { trustedBeneficiaries: ['x'] } }))
      .expect(400);
    expect(malformed.body.tppMessages[0]).toEqual({
      category: 'ERROR',
      code: 'FORMAT_ERROR',
      path: 'access.additionalInformation.trustedBeneficiaries',
      text: '{sensitive} XS2A001E: each item of access.additionalInformation.trustedBeneficiaries must be an object',
    });
  });

  it('an allAccounts consent that asks for them lists those of every account the holder chose', async () => {
    const consentId = await tpp.validConsent(
      { availableAccounts: 'allAccounts', additionalInformation: { trustedBeneficiaries: [] } },
      'susanne.mustermann',
    );
    expect(
      (await tpp.list(consentId).expect(200)).body.trustedBeneficiaries.map(
        ({ trustedBeneficiaryId }: { trustedBeneficiaryId: string }) => trustedBeneficiaryId,
      ),
    ).toEqual(['tb-susanne-georg']);
  });

  it('exempts a payment to a trusted beneficiary of its debtor account from SCA: executed at once, no SCA link, no authorisation', async () => {
    const initiation = tppHeaders({ 'PSU-IP-Address': '192.0.2.10' });
    const created = await tpp
      .http()
      .post(SEPA)
      .set(initiation)
      .send(sepaPayment('5.00', { debtorAccount: { iban: GEORG }, creditorAccount: { iban: FRANZ }, creditorName: 'Franz Mustermann' }))
      .expect(201);
    const { paymentId } = created.body;
    expect(created.body).toEqual({
      transactionStatus: 'ACSP',
      paymentId,
      _links: { self: { href: `${SEPA}/${paymentId}` }, status: { href: `${SEPA}/${paymentId}/status` } },
    });
    expect((await tpp.get(`${SEPA}/${paymentId}/status`).expect(200)).body).toEqual({ transactionStatus: 'ACSP' });
    expect((await tpp.get(`${SEPA}/${paymentId}/authorisations`).expect(200)).body).toEqual({ authorisationIds: [] });
    const history = (await tpp.http().get(`/sandbox/events?resourceId=${paymentId}`).expect(200)).body.events;
    expect(history.map(({ from, to, event, cause }: Record<string, string>) => [from ?? null, to, event, cause])).toEqual([
      ['RCVD', 'ACSP', 'SCA_COMPLETED', initiation['X-Request-ID']],
      [null, 'RCVD', 'CREATED', initiation['X-Request-ID']],
    ]);
  });

  it('a payee trusted for another account, or not trusted, needs SCA as before; a bulk is exempted only when every payee is trusted', async () => {
    const other = (
      await tpp
        .pay(sepaPayment('5.00', { debtorAccount: { iban: MARIANNE }, creditorAccount: { iban: FRANZ }, creditorName: 'Franz Mustermann' }))
        .expect(201)
    ).body;
    expect(other.transactionStatus).toBe('RCVD');
    expect(Object.keys(other._links)).toEqual(['scaRedirect', 'self', 'status', 'scaStatus']);
    const stranger = (
      await tpp
        .pay(
          sepaPayment('5.00', { debtorAccount: { iban: GEORG }, creditorAccount: { iban: SUSANNE }, creditorName: 'Susanne Mustermann' }),
        )
        .expect(201)
    ).body;
    expect(stranger.transactionStatus).toBe('RCVD');

    const bulk = (creditors: [string, string][]) => ({
      debtorAccount: { iban: GEORG },
      payments: creditors.map(([iban, name]) => ({
        instructedAmount: { currency: 'EUR', amount: '1.00' },
        creditorAccount: { iban },
        creditorName: name,
      })),
    });
    const trusted = (
      await tpp
        .pay(
          bulk([
            [FRANZ, 'Franz Mustermann'],
            [STADTWERKE, 'Stadtwerke Musterstadt GmbH'],
          ]),
          '/v1/bulk-payments/sepa-credit-transfers',
        )
        .expect(201)
    ).body;
    expect(trusted.transactionStatus).toBe('ACSP');
    const mixed = (
      await tpp
        .pay(
          bulk([
            [FRANZ, 'Franz Mustermann'],
            [SUSANNE, 'Susanne Mustermann'],
          ]),
          '/v1/bulk-payments/sepa-credit-transfers',
        )
        .expect(201)
    ).body;
    expect(mixed.transactionStatus).toBe('RCVD');
  });

  it("a scenario's holder trusts the payees its body names: its consent lists them, a payment to one books at once, and one beyond the funds is refused", async () => {
    const body = {
      accounts: [{ name: 'Trusting Holder', balances: { interimAvailable: '100.00', forwardAvailable: '100.00' } }],
      trustedBeneficiaries: [{ creditorIban: GEORG, creditorName: 'Georg Mustermann', creditorAlias: 'Landlord' }],
    };
    const scenario = (await tpp.http().post('/sandbox/scenarios').send(body).expect(201)).body;
    const [{ iban }] = scenario.accounts;
    expect((await tpp.list(scenario.consentId).expect(200)).body).toEqual({
      trustedBeneficiaries: [
        { trustedBeneficiaryId: UUID, creditorAccount: { iban: GEORG }, creditorName: 'Georg Mustermann', creditorAlias: 'Landlord' },
      ],
    });
    expect((await tpp.pay(sepaPayment('60.00', { debtorAccount: { iban } })).expect(201)).body.transactionStatus).toBe('ACSP');
    const balances = (await tpp.get(`/v1/accounts/${iban}/balances`, { 'Consent-ID': scenario.consentId }).expect(200)).body.balances;
    expect(balances.find(({ balanceType }: { balanceType: string }) => balanceType === 'interimAvailable').balanceAmount.amount).toBe(
      '40.00',
    );
    expect((await tpp.pay(sepaPayment('60.00', { debtorAccount: { iban } })).expect(201)).body.transactionStatus).toBe('RJCT');

    const refused = await tpp
      .http()
      .post('/sandbox/scenarios')
      .send({ ...body, trustedBeneficiaries: [{ creditorIban: 'AT00', creditorName: '' }] })
      .expect(400);
    expect(refused.body.tppMessages.map(({ path }: { path: string }) => path)).toEqual([
      'trustedBeneficiaries[0].creditorIban',
      'trustedBeneficiaries[0].creditorName',
    ]);
    await tpp.http().delete(`/sandbox/scenarios/${scenario.scenarioId}`).expect(204);
    await tpp.list(scenario.consentId).expect(403);
  });
});

describe('trusted beneficiaries listed but not exempted (scaExemptions.trustedBeneficiaries: false)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-trusted-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  writeFileSync(join(folder, 'profile.yaml'), 'extends: berlin-group\nscaExemptions:\n  trustedBeneficiaries: false\n');
  const sandbox = useSandbox({ PROFILE: folder, SCA_MODE: 'redirect' });

  it('a payment to one waits for SCA as any other; the initiation answers only the statuses that need it', async () => {
    const created = (
      await client(sandbox)
        .pay(sepaPayment('5.00', { debtorAccount: { iban: GEORG }, creditorAccount: { iban: FRANZ }, creditorName: 'Franz Mustermann' }))
        .expect(201)
    ).body;
    expect(created.transactionStatus).toBe('RCVD');
    const document = (await request(sandbox.http).get('/docs-json').expect(200)).body;
    expect(document.components.schemas.PaymentInitiationResponse.properties.transactionStatus.enum).toEqual([
      'RCVD',
      'RCVC',
      'RVCM',
      'RVNC',
    ]);
    expect(document.components.schemas.ConsentAccessDto.properties.additionalInformation).toBeDefined();
  });
});

describe('PROFILE=bank lists no trusted beneficiaries and exempts no payment', () => {
  const sandbox = useSandbox({ PROFILE: 'bank', SCA_MODE: 'redirect' });

  it('serves no list, ignores what asks for one, and documents none of it', async () => {
    await request(sandbox.http)
      .get('/v1/trusted-beneficiaries')
      .set(tppHeaders({ 'Consent-ID': 'e6151d43-dca8-4fe1-b139-3a89bfeb57a2' }))
      .expect(404);
    // Stripped unread as any unknown field, even malformed.
    const { consentId } = (
      await request(sandbox.http)
        .post('/v1/consents')
        .set(tppHeaders())
        .send(consentRequest({ balances: [{ iban: GEORG }], additionalInformation: { trustedBeneficiaries: 'x' } }))
        .expect(200)
    ).body;
    expect(
      (await request(sandbox.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200)).body.access.additionalInformation,
    ).toBeNull();
    const scenario = (
      await request(sandbox.http)
        .post('/sandbox/scenarios')
        .send({
          accounts: [{ name: 'Holder', balances: { interimAvailable: '1.00', forwardAvailable: '1.00' } }],
          trustedBeneficiaries: 'x',
        })
        .expect(201)
    ).body;
    expect(
      (await request(sandbox.http).get(`/v1/consents/${scenario.consentId}`).set(tppHeaders()).expect(200)).body.access
        .additionalInformation,
    ).toBeNull();
    const payment = (
      await request(sandbox.http)
        .post(SEPA)
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(sepaPayment('5.00', { debtorAccount: { iban: GEORG }, creditorAccount: { iban: FRANZ } }))
        .expect(200)
    ).body;
    expect(payment.transactionStatus).toBe('RCVD');
    const document = (await request(sandbox.http).get('/docs-json').expect(200)).body;
    expect(document.paths['/v1/trusted-beneficiaries']).toBeUndefined();
    expect(document.components.schemas.ConsentAccessDto.properties.additionalInformation).toBeUndefined();
    expect(document.components.schemas.CreateScenarioDto.properties.trustedBeneficiaries).toBeUndefined();
  });
});
