import request from 'supertest';
import { GEORG, MARIANNE, NEW_RESOURCE_ID, UNKNOWN_CONSENT, VALID_CONSENT, sepaPayment } from './support/fixtures';
import { tppHeaders, useSandbox } from './support/sandbox';
import { Authorisation } from '../src/authorisation/authorisation.entity';

/**
 * PROFILE=berlin-group answers what the Berlin Group 1.3.11 yaml describes where the bank departs
 * from it (docs/profiles.md): 201 with Location on creation, `{"account": …}` on account details,
 * 429 ACCESS_EXCEEDED, and no null anywhere. Every operation of the interface is called here, and
 * every answer is checked against the served document of this profile (useSandbox's contract).
 */
describe('PROFILE=berlin-group', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', PUBLIC_BASE_URL: 'http://sandbox.test' });
  const http = () => request(sandbox.http);
  const PSU_IP = { 'PSU-IP-Address': '192.0.2.10' };
  const consentBody = {
    access: { availableAccounts: 'allAccounts' },
    recurringIndicator: true,
    combinedServiceIndicator: false,
    validUntil: '2026-06-30',
    frequencyPerDay: 4,
  };
  const error = (code: string, text: string, path?: string) => ({
    tppMessages: [{ category: 'ERROR', code, ...(path ? { path } : {}), text }],
  });

  it('creates a consent with 201, Location and ASPSP-SCA-Approach, and leaves out the null SCA fields', async () => {
    const response = await http().post('/v1/consents').set(tppHeaders()).send(consentBody).expect(201);
    const { consentId } = response.body;
    expect(consentId).toMatch(NEW_RESOURCE_ID);
    expect(response.headers['location']).toBe(`http://sandbox.test/v1/consents/${consentId}`);
    expect(response.headers['aspsp-sca-approach']).toBe('REDIRECT');
    expect(response.body).toEqual({
      consentStatus: 'valid',
      consentId,
      // Valid at creation (SCA_MODE=auto): nothing is left to authorise, so no SCA link.
      _links: { self: { href: `/v1/consents/${consentId}` }, status: { href: `/v1/consents/${consentId}/status` } },
    });
    const consent = await http().get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
    expect(consent.body).toEqual({
      // As asked (docs/behaviour.md, "Consent access").
      access: { availableAccounts: 'allAccounts' },
      recurringIndicator: true,
      validUntil: '2026-06-30',
      frequencyPerDay: 4,
      lastActionDate: '2026-03-15',
      consentStatus: 'valid',
    });
    expect((await http().get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(200)).body).toEqual({ consentStatus: 'valid' });
  });

  it('answers account details inside {"account": …}, and every account-information answer without nulls', async () => {
    const headers = () => tppHeaders({ 'Consent-ID': VALID_CONSENT });
    const links = {
      balances: { href: `/v1/accounts/${MARIANNE}/balances` },
      transactions: { href: `/v1/accounts/${MARIANNE}/transactions` },
    };
    const marianne = {
      resourceId: MARIANNE,
      iban: MARIANNE,
      currency: 'EUR',
      name: 'Marianne Mustermann',
      product: 'Giro',
      bic: 'TESTAT99',
      _links: links,
    };
    const details = await http().get(`/v1/accounts/${MARIANNE}`).set(headers()).expect(200);
    expect(details.body).toEqual({ account: marianne });
    const list = await http().get('/v1/accounts').set(headers()).expect(200);
    expect(list.body.accounts[0]).toEqual(marianne);
    const balances = await http().get(`/v1/accounts/${MARIANNE}/balances`).set(headers()).expect(200);
    expect(balances.body).toEqual({
      balances: [
        { balanceAmount: { currency: 'EUR', amount: '1340.55' }, balanceType: 'forwardAvailable', referenceDate: '2019-03-07' },
        { balanceAmount: { currency: 'EUR', amount: '2850.49' }, balanceType: 'interimAvailable', referenceDate: '2019-03-06' },
      ],
    });
    const booked = await http().get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`).set(headers()).expect(200);
    expect(booked.body.transactions.booked[0]).toEqual({
      transactionId: '1511-B01',
      bookingDate: '2019-03-05',
      valueDate: '2019-03-05',
      transactionAmount: { currency: 'EUR', amount: '-1533.11' },
      creditorName: 'Georg Mustermann',
      creditorAccount: { iban: GEORG, currency: 'EUR' },
      debtorAccount: { iban: MARIANNE, currency: 'EUR' },
      remittanceInformationUnstructured: 'Salary',
      bankTransactionCode: 'PMNT-ICDT-ESCT',
    });
    expect(Object.keys(booked.body.transactions)).toEqual(['booked', '_links']);
    expect(JSON.stringify([list.body, balances.body, booked.body])).not.toContain('null');
    const orders = await http().get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=information`).set(headers()).expect(200);
    // monthsOfExecution only with MonthlyVariable, as the yaml has it; the bank lists all twelve months of a monthly order.
    const order = orders.body.transactions.information[0].additionalInformationStructured.standingOrderDetails;
    expect(order).toEqual(expect.objectContaining({ frequency: 'Monthly', executionRule: 'preceding' }));
    expect(order).not.toHaveProperty('monthsOfExecution');
    expect(JSON.stringify(orders.body)).not.toContain('null');
  });

  it('answers errors without path or _links where they would be null, with the same codes and texts', async () => {
    const unknown = await http().get(`/v1/consents/${UNKNOWN_CONSENT}`).set(tppHeaders()).expect(403);
    expect(unknown.body).toEqual(error('CONSENT_UNKNOWN', `{sensitive} XS2A017E: consent ${UNKNOWN_CONSENT} unknown`));
    const missing = await http().get('/v1/accounts').set(tppHeaders()).expect(400);
    expect(missing.body).toEqual(error('FORMAT_ERROR', '{sensitive} XS2A001E: the Consent-ID header is required', 'Consent-ID'));
    const notOurs = await http()
      .get(`/v1/accounts/AT959900000000012476/balances`)
      .set(tppHeaders({ 'Consent-ID': VALID_CONSENT }))
      .expect(404);
    expect(notOurs.body).toEqual(
      error(
        'RESOURCE_UNKNOWN',
        '{sensitive} XS2A016E: resource AT959900000000012476 unknown, not found or not part of the current consent',
      ),
    );
  });

  it('answers a body over 100 KiB with 400 FORMAT_ERROR: the yaml has no 413', async () => {
    const response = await http()
      .post('/v1/consents')
      .set(tppHeaders())
      .send({ ...consentBody, padding: 'x'.repeat(101 * 1024) })
      .expect(400);
    expect(response.body).toEqual(error('FORMAT_ERROR', '{sensitive} XS2A003E: the request body is larger than 100 KiB'));
  });

  it.each([
    ['payments', 'sepa-credit-transfers', sepaPayment('10.00')],
    ['payments', 'instant-sepa-credit-transfers', sepaPayment('10.00')],
    ['payments', 'cross-border-credit-transfers', sepaPayment('10.00', { instructedAmount: { currency: 'USD', amount: '10.00' } })],
    [
      'bulk-payments',
      'sepa-credit-transfers',
      {
        batchBookingPreferred: true,
        debtorAccount: { iban: MARIANNE },
        payments: [
          { instructedAmount: { currency: 'EUR', amount: '10.00' }, creditorName: 'Georg Mustermann', creditorAccount: { iban: GEORG } },
        ],
      },
    ],
    ['periodic-payments', 'sepa-credit-transfers', sepaPayment('10.00', { startDate: '2026-04-01', frequency: 'Monthly' })],
  ])('initiates %s/%s with 201 and Location, reads it without nulls, and its authorisations', async (service, product, body) => {
    const base = `/v1/${service}/${product}`;
    const created = await http().post(base).set(tppHeaders(PSU_IP)).send(body).expect(201);
    const { paymentId } = created.body;
    const self = `${base}/${paymentId}`;
    expect(created.headers['location']).toBe(`http://sandbox.test${self}`);
    expect(created.headers['aspsp-sca-approach']).toBe('REDIRECT');
    expect(created.body).toEqual({
      transactionStatus: 'RCVD',
      paymentId,
      _links: {
        scaRedirect: { href: `http://sandbox.test/sca/payments?payment_id=${paymentId}&service=${service}&product=${product}` },
        self: { href: self },
        status: { href: `${self}/status` },
        scaStatus: {
          href: `${self}/authorisations/${(await sandbox.dataSource.getRepository(Authorisation).findOneByOrFail({ resourceId: paymentId })).id}`,
        },
      },
    });
    const read = await http().get(self).set(tppHeaders()).expect(200);
    // The fields as sent, the status after SCA, and nothing that was not sent.
    expect(read.body).toEqual({ ...body, transactionStatus: service === 'periodic-payments' ? 'PDNG' : 'ACSP' });
    expect((await http().get(`${self}/authorisations`).set(tppHeaders()).expect(200)).body).toEqual({
      authorisationIds: [expect.stringMatching(NEW_RESOURCE_ID)],
    });
    const notWaiting = await http().post(`${self}/authorisations`).set(tppHeaders()).expect(409);
    expect(notWaiting.body.tppMessages[0]).toEqual({
      category: 'ERROR',
      code: 'STATUS_INVALID',
      text: expect.stringContaining('XS2A021E'),
    });
    const put = await http().put(`${self}/authorisations/authorization_not_yet_available`).set(tppHeaders()).send({}).expect(405);
    expect(put.body.tppMessages[0].code).toBe('SERVICE_INVALID');
  });

  it('cancels: 204 for RCVD, 202 for PDNG, 405 CANCELLATION_INVALID after execution', async () => {
    const base = '/v1/payments/sepa-credit-transfers';
    const received = (await http().post(base).set(tppHeaders(PSU_IP)).send(sepaPayment('10.00')).expect(201)).body.paymentId;
    await http().delete(`${base}/${received}`).set(tppHeaders()).expect(204);
    const pending = (
      await http()
        .post(base)
        .set(tppHeaders(PSU_IP))
        .send(sepaPayment('10.00', { requestedExecutionDate: '2026-04-01' }))
        .expect(201)
    ).body.paymentId;
    expect((await http().get(`${base}/${pending}/status`).set(tppHeaders()).expect(200)).body).toEqual({ transactionStatus: 'PDNG' });
    const accepted = await http().delete(`${base}/${pending}`).set(tppHeaders()).expect(202);
    // A real link: a generated client follows it (the bank answers its fixed text instead).
    expect(accepted.body).toEqual({
      transactionStatus: 'PDNG',
      _links: { startAuthorisation: { href: `${base}/${pending}/cancellation-authorisations` } },
    });
    const started = await http().post(`${base}/${pending}/cancellation-authorisations`).set(tppHeaders()).expect(201);
    expect(started.headers['location']).toBe(
      `http://sandbox.test${base}/${pending}/cancellation-authorisations/${started.body.authorisationId}`,
    );
    const executed = (await http().post(base).set(tppHeaders(PSU_IP)).send(sepaPayment('10.00')).expect(201)).body.paymentId;
    await http().get(`${base}/${executed}/status`).set(tppHeaders()).expect(200);
    const refused = await http().delete(`${base}/${executed}`).set(tppHeaders()).expect(405);
    expect(refused.body).toEqual(
      error('CANCELLATION_INVALID', `{sensitive} XS2A018E: payment ${executed} is ACSP and cannot be cancelled`),
    );
  });

  it('serves the document of this profile: 201 on creation, the wrapped account, no nullable field', async () => {
    const { body } = await http().get('/docs-json').expect(200);
    expect(Object.keys(body.paths['/v1/consents'].post.responses)).toContain('201');
    expect(Object.keys(body.paths['/v1/consents'].post.responses)).not.toContain('200');
    expect(body.paths['/v1/accounts/{accountId}'].get.responses['200'].content['application/json'].schema).toEqual({
      type: 'object',
      required: ['account'],
      properties: { account: { $ref: '#/components/schemas/AccountResponse' } },
    });
    expect(JSON.stringify(body)).not.toMatch(/"nullable"|x-berlin-group/);
  });
});

describe('PROFILE=bank (the default) keeps the bank’s shapes', () => {
  const sandbox = useSandbox({ PROFILE: 'bank' });

  it('serves the document of this profile: 200 on creation, the bare account, nullable fields; no profile markers', async () => {
    const { body } = await request(sandbox.http).get('/docs-json').expect(200);
    expect(Object.keys(body.paths['/v1/consents'].post.responses)).toContain('200');
    expect(body.paths['/v1/accounts/{accountId}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/AccountResponse',
    });
    expect(JSON.stringify(body)).toContain('"nullable":true');
    expect(JSON.stringify(body)).not.toContain('x-berlin-group');
  });
});
