import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Payment } from '../src/payment-initiation/payment.entity';
import { PayeeCheck } from '../src/verification-of-payee/payee-check.entity';
import { GEORG, MARIANNE, sepaPayment } from './support/fixtures';
import { CREATED, PROFILE, scaStatusHref } from './support/profile';
import { Authorisation } from '../src/authorisation/authorisation.entity';
import { issueToken, tppError, tppHeaders, useSandbox } from './support/sandbox';

const SEPA = '/v1/payments/sepa-credit-transfers';
const BULK = '/v1/bulk-payments/sepa-credit-transfers';
const PERIODIC = '/v1/periodic-payments/sepa-credit-transfers';
const STADTWERKE = 'DE43500105170012345678';
const BOULANGERIE = 'FR1420041010050500013M02606';
const NOT_KNOWN = 'DE89370400440532013000';
const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);
const VOP = { 'Client-VOP-Requested': 'true' };
const PSU_IP = { 'PSU-IP-Address': '192.0.2.10' };
const INFORMATION = {
  MTCH: 'The name matches the one registered for the account.',
  CMTC: 'The name is close to the one registered for the account (matchedName).',
  NMTC: 'The name does not match the one registered for the account.',
  NOAP: "The payee's bank could not be asked: the name could not be checked.",
};
const party = (iban: string, name?: string, identification?: object) => ({
  partyAccount: { iban },
  party: { ...(name === undefined ? {} : { name }), ...(identification ? { identification } : {}) },
});
/**
 * The error list of a Verification of Party operation: in Berlin Group's answers `apiClientMessages`,
 * as the 1.3.16 yaml names it (docs/verification-of-payee.md); the bank's is `tppMessages`.
 */
const MESSAGES = PROFILE === 'berlin-group' ? 'apiClientMessages' : 'tppMessages';
const vopError = (code: string, text: string, path: string | null = null) => tppError(code, text, path, MESSAGES);
const organisation = (id: string) => ({ organisationId: { others: [{ identification: id }] } });

describe('Verification of Payee (SCA_MODE=redirect)', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect', PUBLIC_BASE_URL: 'http://sandbox.test' });
  const post = (path: string, body: object, headers: Record<string, string> = {}) =>
    request(sandbox.http).post(path).set(tppHeaders(headers)).send(body);
  const get = (path: string) => request(sandbox.http).get(path).set(tppHeaders());
  const put = (path: string) => request(sandbox.http).put(path).set(tppHeaders());
  const initiate = (path: string, body: object, headers: Record<string, string> = VOP) => post(path, body, { ...PSU_IP, ...headers });
  const links = (base: string, paymentId: string) => ({
    self: { href: `${base}/${paymentId}` },
    status: { href: `${base}/${paymentId}/status` },
  });
  const redirectLinks = async (base: string, paymentId: string, service: string) => ({
    scaRedirect: { href: `http://sandbox.test/sca/payments?payment_id=${paymentId}&service=${service}&product=sepa-credit-transfers` },
    ...links(base, paymentId),
    scaStatus: {
      href: scaStatusHref(
        `${base}/${paymentId}`,
        (await sandbox.dataSource.getRepository(Authorisation).findOneByOrFail({ resourceId: paymentId })).id,
      ),
    },
  });
  const confirmationLinks = (base: string, paymentId: string) => ({
    creditorNameConfirmation: { href: `${base}/${paymentId}/creditor-confirmation` },
    ...links(base, paymentId),
  });
  const approve = (paymentId: string) =>
    request(sandbox.http).post(`/sandbox/sca/payments/${paymentId}`).send({ psuId: 'georg.mustermann', decision: 'approve' });
  const stored = () => sandbox.dataSource.getRepository(Payment).count();

  describe('the dedicated check', () => {
    it.each([
      ['the registered name', GEORG, 'Georg Mustermann', { partyNameMatch: 'MTCH', additionalInformation: INFORMATION.MTCH }],
      [
        'case, diacritics and spaces aside',
        GEORG,
        '  georg  MUSTERMANN ',
        { partyNameMatch: 'MTCH', additionalInformation: INFORMATION.MTCH },
      ],
      [
        'two letters swapped',
        GEORG,
        'Goerg Mustermann',
        { partyNameMatch: 'CMTC', matchedName: 'Georg Mustermann', additionalInformation: INFORMATION.CMTC },
      ],
      [
        'first and last name reordered',
        GEORG,
        'Mustermann Georg',
        { partyNameMatch: 'CMTC', matchedName: 'Georg Mustermann', additionalInformation: INFORMATION.CMTC },
      ],
      [
        'the legal form left out',
        STADTWERKE,
        'Stadtwerke Musterstadt',
        { partyNameMatch: 'CMTC', matchedName: 'Stadtwerke Musterstadt GmbH', additionalInformation: INFORMATION.CMTC },
      ],
      ['another name', GEORG, 'Erika Musterfrau', { partyNameMatch: 'NMTC', additionalInformation: INFORMATION.NMTC }],
      [
        'an IBAN of no bank the sandbox knows',
        NOT_KNOWN,
        'Georg Mustermann',
        { partyNameMatch: 'NOAP', additionalInformation: INFORMATION.NOAP },
      ],
      [
        'a payee whose bank does not answer',
        BOULANGERIE,
        'Boulangerie Lefèvre SARL',
        { partyNameMatch: 'NOAP', additionalInformation: INFORMATION.NOAP },
      ],
    ])('%s: 200 and the outcome', async (_, iban, name, answer) => {
      const sent = tppHeaders();
      const response = await request(sandbox.http).post('/v1/payee-verifications').set(sent).send(party(iban, name)).expect(200);
      expect(response.headers['x-request-id']).toBe(sent['X-Request-ID']);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toEqualBody(answer);
    });

    it("a scenario's account answers by the name the scenario gave it", async () => {
      const scenario = { accounts: [{ name: 'Zoë Beispiel', balances: { interimAvailable: '10.00', forwardAvailable: '10.00' } }] };
      const { iban } = (await request(sandbox.http).post('/sandbox/scenarios').send(scenario).expect(201)).body.accounts[0];
      expect((await post('/v1/payee-verifications', party(iban, 'Zoe Beispiel')).expect(200)).body).toEqualBody({
        partyNameMatch: 'MTCH',
        additionalInformation: INFORMATION.MTCH,
      });
      expect((await post('/v1/payee-verifications', party(iban, 'Zoe Beispeil')).expect(200)).body).toEqualBody({
        partyNameMatch: 'CMTC',
        matchedName: 'Zoë Beispiel',
        additionalInformation: INFORMATION.CMTC,
      });
    });

    it('an organisation ID sent as null is none: only the name is answered', async () => {
      const body = { partyAccount: { iban: GEORG }, party: { name: 'Georg Mustermann', identification: { organisationId: null } } };
      expect((await post('/v1/payee-verifications', body).expect(200)).body).toEqualBody({
        partyNameMatch: 'MTCH',
        partyIdMatch: 'NOAP',
        additionalInformation: INFORMATION.MTCH,
      });
    });

    it('an organisation ID is compared too: the registered one, another one, and an account with none registered', async () => {
      expect(
        (
          await post('/v1/payee-verifications', party(STADTWERKE, 'Stadtwerke Musterstadt GmbH', organisation('DE 129 273 398'))).expect(
            200,
          )
        ).body,
      ).toEqualBody({
        partyNameMatch: 'MTCH',
        partyIdMatch: 'MTCH',
        additionalInformation: INFORMATION.MTCH,
      });
      expect(
        (await post('/v1/payee-verifications', party(STADTWERKE, undefined, organisation('DE999999999'))).expect(200)).body,
      ).toEqualBody({
        partyIdMatch: 'NMTC',
        additionalInformation: 'The identification does not match the one registered for the account.',
      });
      expect(
        (await post('/v1/payee-verifications', party(GEORG, undefined, { privateId: { others: [{ identification: 'X1' }] } })).expect(200))
          .body,
      ).toEqualBody({
        partyIdMatch: 'NOAP',
        additionalInformation:
          'The identification could not be checked: none is registered for the account, or its bank could not be asked.',
      });
    });

    it.each([
      [
        'a malformed IBAN',
        party('AT439900000000010018', 'Georg Mustermann'),
        'partyAccount.iban',
        'partyAccount.iban must be an IBAN with a valid checksum',
      ],
      ['an empty party', party(GEORG), 'party.name', 'party.name is required'],
      ['no party', { partyAccount: { iban: GEORG } }, 'party', 'party is required'],
      [
        'a party whose identification is null',
        { partyAccount: { iban: GEORG }, party: { identification: null } },
        'party.name',
        'party.name is required',
      ],
    ])('%s: 400 FORMAT_ERROR, nothing stored', async (_, body, path, text) => {
      const before = await sandbox.dataSource.getRepository(PayeeCheck).count();
      const response = await post('/v1/payee-verifications', body).expect(400);
      expect(response.body[MESSAGES]).toContainEqual({
        category: 'ERROR',
        code: 'FORMAT_ERROR',
        path,
        text: `{sensitive} XS2A001E: ${text}`,
      });
      expect(await sandbox.dataSource.getRepository(PayeeCheck).count()).toBe(before);
    });
  });

  it("names its error list alike for a body that cannot even be read (apiClientMessages in Berlin Group's answers)", async () => {
    const response = await request(sandbox.http)
      .post('/v1/payee-verifications')
      .set(tppHeaders({ 'Content-Type': 'application/json' }))
      .send('{"partyAccount":')
      .expect(400);
    expect(response.body[MESSAGES].map(({ code }: { code: string }) => code)).toEqual(['FORMAT_ERROR']);
  });

  describe('the bulk check', () => {
    const entries = [
      { uetr: '0b9c2a1e-0000-4000-8000-000000000001', ...party(GEORG, 'Georg Mustermann') },
      { uetr: '0b9c2a1e-0000-4000-8000-000000000002', ...party(GEORG, 'Georg Musterman') },
      { uetr: '0b9c2a1e-0000-4000-8000-000000000003', ...party(NOT_KNOWN, 'Jane Doe') },
    ];
    const answers = [
      { ...entries[0], partyNameMatch: 'MTCH', additionalInformation: INFORMATION.MTCH },
      { ...entries[1], partyNameMatch: 'CMTC', matchedName: 'Georg Mustermann', additionalInformation: INFORMATION.CMTC },
      { ...entries[2], partyNameMatch: 'NOAP', additionalInformation: INFORMATION.NOAP },
    ];

    it('answers every entry at once, in order', async () => {
      const response = await post('/v1/bulk-payee-verifications', { partyVerificationRequests: entries }).expect(200);
      expect(response.body).toEqualBody({ vopBulkStatus: 'completed', partyVerificationResponses: answers });
    });

    it('asynchronously: 202 with the status link, then completed at the next read', async () => {
      const response = await post(
        '/v1/bulk-payee-verifications',
        { partyVerificationRequests: entries },
        { 'Client-Asynchronous-Process-Preferred': 'true' },
      ).expect(202);
      const { vopBulkId } = response.body;
      // No list until there are answers: the 1.3.16 yaml's list has at least one item.
      expect(response.body).toEqualBody({
        vopBulkId: UUID,
        vopBulkStatus: 'recieved',
        _links: {
          self: { href: `/v1/bulk-payee-verifications/${vopBulkId}` },
          status: { href: `/v1/bulk-payee-verifications/${vopBulkId}/status` },
        },
      });
      expect((await get(`/v1/bulk-payee-verifications/${vopBulkId}/status`).expect(200)).body).toEqualBody({
        vopBulkId,
        vopBulkStatus: 'completed',
      });
      expect((await get(`/v1/bulk-payee-verifications/${vopBulkId}`).expect(200)).body).toEqualBody({
        vopBulkId,
        vopBulkStatus: 'completed',
        partyVerificationRequestsAndResults: answers,
      });
    });

    it('an unknown vopBulkId is 404; an empty list and an entry without uetr are 400', async () => {
      for (const path of [
        '/v1/bulk-payee-verifications/0b9c2a1e-0000-4000-8000-0000000000ff',
        '/v1/bulk-payee-verifications/0b9c2a1e-0000-4000-8000-0000000000ff/status',
      ]) {
        expect((await get(path).expect(404)).body).toEqualBody(
          vopError('RESOURCE_UNKNOWN', '{sensitive} XS2A042E: bulk payee check 0b9c2a1e-0000-4000-8000-0000000000ff unknown'),
        );
      }
      await post('/v1/bulk-payee-verifications', { partyVerificationRequests: [] }).expect(400);
      await post('/v1/bulk-payee-verifications', { partyVerificationRequests: [party(GEORG, 'Georg Mustermann')] }).expect(400);
      await post(
        '/v1/bulk-payee-verifications',
        { partyVerificationRequests: entries },
        { 'Client-Asynchronous-Process-Preferred': 'maybe' },
      ).expect(400);
    });
  });

  describe('in a payment', () => {
    it('no VoP header: the answer of today, RCVD and no result block', async () => {
      const response = await initiate(SEPA, sepaPayment('1.00', { creditorName: 'Somebody Else' }), {}).expect(CREATED);
      expect(response.body.transactionStatus).toBe('RCVD');
      expect(response.body).not.toHaveProperty('originalTransactionInformationAndVopStatus');
    });

    it('a match: RCVC, the SCA links, the result; SCA then executes it', async () => {
      const response = await initiate(SEPA, sepaPayment('1.00', { endToEndIdentification: 'E2E-VOP-1' })).expect(CREATED);
      const { paymentId } = response.body;
      expect(response.headers['aspsp-sca-approach']).toBe('REDIRECT');
      expect(response.body).toEqualBody({
        transactionStatus: 'RCVC',
        paymentId: UUID,
        scaMethods: [],
        _links: await redirectLinks(SEPA, paymentId, 'payments'),
        originalTransactionInformationAndVopStatus: [
          { originalEndToEndId: 'E2E-VOP-1', transactionStatus: 'RCVC', creditorNameMatch: 'MTCH' },
        ],
        tppMessages: [],
      });
      // One object in an authorisation's answers, as the 1.3.16 yaml types it there (an array in the initiation's and the status).
      const block = { originalEndToEndId: 'E2E-VOP-1', transactionStatus: 'RCVC', creditorNameMatch: 'MTCH' };
      const started = await post(`${SEPA}/${paymentId}/authorisations`, {}).expect(201);
      expect(started.body).toEqualBody({
        scaStatus: 'received',
        authorisationId: UUID,
        _links: {
          scaRedirect: (await redirectLinks(SEPA, paymentId, 'payments')).scaRedirect,
          scaStatus: { href: `${SEPA}/${paymentId}/authorisations/${started.body.authorisationId}` },
        },
        originalTransactionInformationAndVopStatus: block,
      });
      await approve(paymentId).expect(200);
      expect((await get(`${SEPA}/${paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: 'ACSP',
        originalTransactionInformationAndVopStatus: [
          { originalEndToEndId: 'E2E-VOP-1', transactionStatus: 'RCVC', creditorNameMatch: 'MTCH' },
        ],
      });
    });

    it('a close match: RVCM, only the confirmation link; SCA refused until the payer confirms; confirmed, SCA then execution', async () => {
      const body = sepaPayment('2.00', { creditorName: 'Goerg Mustermann' });
      const response = await initiate(SEPA, body).expect(CREATED);
      const { paymentId } = response.body;
      const block = [{ transactionStatus: 'RVCM', creditorNameMatch: 'CMTC', matchedCreditorName: 'Georg Mustermann' }];
      expect(response.body).toEqualBody({
        transactionStatus: 'RVCM',
        paymentId: UUID,
        _links: confirmationLinks(SEPA, paymentId),
        originalTransactionInformationAndVopStatus: block,
        tppMessages: [],
      });
      expect((await get(`${SEPA}/${paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: 'RVCM',
        originalTransactionInformationAndVopStatus: block,
      });
      const read = (await get(`${SEPA}/${paymentId}`).expect(200)).body;
      expect(read.transactionStatus).toBe('RVCM');
      expect(read.originalTransactionInformationAndVopStatus).toEqual(block);
      expect((await post(`${SEPA}/${paymentId}/authorisations`, {}).expect(409)).body).toEqualBody(
        tppError('STATUS_INVALID', `{sensitive} XS2A021E: payment ${paymentId} is RVCM, not waiting for the account holder`),
      );
      await approve(paymentId).expect(409);

      const confirmed = await put(`${SEPA}/${paymentId}/creditor-confirmation`).expect(200);
      expect(confirmed.body).toEqualBody({
        transactionStatus: 'RCVC',
        scaMethods: [],
        _links: await redirectLinks(SEPA, paymentId, 'payments'),
      });
      expect((await put(`${SEPA}/${paymentId}/creditor-confirmation`).expect(409)).body).toEqualBody(
        vopError('STATUS_INVALID', `{sensitive} XS2A040E: payment ${paymentId} is RCVC, not waiting for the payer to confirm the payee`),
      );
      await approve(paymentId).expect(200);
      expect((await get(`${SEPA}/${paymentId}/status`).expect(200)).body.transactionStatus).toBe('ACSP');
      // The history, newest first, tells the whole way.
      const events = (await request(sandbox.http).get(`/sandbox/events?resourceId=${paymentId}&kind=payment`).expect(200)).body.events as {
        event: string;
        to: string;
      }[];
      expect(events.map(({ event, to }) => `${event}>${to}`)).toEqual([
        'SCA_COMPLETED>ACSP',
        'CREDITOR_CONFIRMED>RCVC',
        'VOP_MISMATCHED>RVCM',
        'CREATED>RCVD',
      ]);
    });

    it.each([
      ['no match', GEORG, 'Erika Musterfrau', 'RVCM', 'NMTC'],
      ['an IBAN of no bank the sandbox knows', NOT_KNOWN, 'Jane Doe', 'RVCM', 'NOAP'],
      ['a payee whose bank does not answer', BOULANGERIE, 'Boulangerie Lefevre SARL', 'RVNC', 'NOAP'],
    ])('%s: %s with %s; DELETE cancels it at once, nothing booked', async (_, iban, creditorName, status, match) => {
      const response = await initiate(SEPA, sepaPayment('3.00', { creditorName, creditorAccount: { iban } })).expect(CREATED);
      const { paymentId } = response.body;
      expect(response.body).toEqualBody({
        transactionStatus: status,
        paymentId: UUID,
        _links: confirmationLinks(SEPA, paymentId),
        originalTransactionInformationAndVopStatus: [{ transactionStatus: status, creditorNameMatch: match }],
        tppMessages: [],
      });
      await request(sandbox.http).delete(`${SEPA}/${paymentId}`).set(tppHeaders()).expect(204);
      expect((await get(`${SEPA}/${paymentId}/status`).expect(200)).body.transactionStatus).toBe('CANC');
      expect((await put(`${SEPA}/${paymentId}/creditor-confirmation`).expect(409)).body[MESSAGES][0].code).toBe('STATUS_INVALID');
    });

    it('an instant payment in RVCM is cancelled too', async () => {
      const { paymentId } = (
        await initiate('/v1/payments/instant-sepa-credit-transfers', sepaPayment('4.00', { creditorName: 'Nobody' })).expect(CREATED)
      ).body;
      await request(sandbox.http).delete(`/v1/payments/instant-sepa-credit-transfers/${paymentId}`).set(tppHeaders()).expect(204);
    });

    it('a bulk: each entry is checked, one mismatch puts the bulk in RVCM with every result', async () => {
      const body = {
        debtorAccount: { iban: MARIANNE },
        payments: [
          {
            endToEndIdentification: 'E2E-B1',
            instructedAmount: { currency: 'EUR', amount: '1.00' },
            creditorName: 'Georg Mustermann',
            creditorAccount: { iban: GEORG },
          },
          {
            instructedAmount: { currency: 'EUR', amount: '2.00' },
            creditorName: 'Stadtwerke Musterstadt',
            creditorAccount: { iban: STADTWERKE },
          },
        ],
      };
      const response = await initiate(BULK, body).expect(CREATED);
      const { paymentId } = response.body;
      expect(response.body).toEqualBody({
        transactionStatus: 'RVCM',
        paymentId: UUID,
        _links: confirmationLinks(BULK, paymentId),
        originalTransactionInformationAndVopStatus: [
          { originalEndToEndId: 'E2E-B1', transactionStatus: 'RCVC', creditorNameMatch: 'MTCH' },
          { transactionStatus: 'RVCM', creditorNameMatch: 'CMTC', matchedCreditorName: 'Stadtwerke Musterstadt GmbH' },
        ],
        tppMessages: [],
      });
      expect((await put(`${BULK}/${paymentId}/creditor-confirmation`).expect(200)).body).toEqualBody({
        transactionStatus: 'RCVC',
        scaMethods: [],
        _links: await redirectLinks(BULK, paymentId, 'bulk-payments'),
      });
    });

    it('a periodic payment is checked once, at initiation', async () => {
      const body = {
        ...sepaPayment('5.00', { creditorName: 'Georg Mustermann' }),
        startDate: '2026-03-20',
        frequency: 'Monthly',
        dayOfExecution: '20',
      };
      const response = await initiate(PERIODIC, body).expect(CREATED);
      expect(response.body.transactionStatus).toBe('RCVC');
      await approve(response.body.paymentId).expect(200);
      expect((await get(`${PERIODIC}/${response.body.paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: 'PDNG',
        originalTransactionInformationAndVopStatus: [{ transactionStatus: 'RCVC', creditorNameMatch: 'MTCH' }],
      });
    });

    it('an embedded payment confirmed gets the link of its embedded authorisation', async () => {
      const response = await initiate(SEPA, sepaPayment('6.00', { creditorName: 'Nobody' }), {
        ...VOP,
        'TPP-Redirect-Preferred': 'false',
      }).expect(CREATED);
      const { paymentId } = response.body;
      const confirmed = await put(`${SEPA}/${paymentId}/creditor-confirmation`).expect(200);
      expect(confirmed.headers['aspsp-sca-approach']).toBe('EMBEDDED');
      const [authorisationId] = (await get(`${SEPA}/${paymentId}/authorisations`).expect(200)).body.authorisationIds;
      const path = `${SEPA}/${paymentId}/authorisations/${authorisationId}`;
      expect(confirmed.body).toEqualBody({
        transactionStatus: 'RCVC',
        scaMethods: [],
        _links: { updatePsuAuthentication: { href: path }, ...links(SEPA, paymentId), scaStatus: { href: path } },
      });
      const updated = await request(sandbox.http)
        .put(path)
        .set(tppHeaders({ 'PSU-ID': 'georg.mustermann' }))
        .send({ psuData: { password: 'sandbox' } })
        .expect(200);
      expect(updated.body.originalTransactionInformationAndVopStatus).toEqual({ transactionStatus: 'RVCM', creditorNameMatch: 'NMTC' });
    });

    it('Client-VOP-Request-ID names an earlier check of the creditor: the payment is checked; unknown or of another creditor, 400 and nothing stored', async () => {
      const check = tppHeaders();
      await request(sandbox.http).post('/v1/payee-verifications').set(check).send(party(GEORG, 'Georg Mustermann')).expect(200);
      const reuse = { 'Client-VOP-Request-ID': check['X-Request-ID'] };
      expect((await initiate(SEPA, sepaPayment('7.00'), reuse).expect(CREATED)).body.transactionStatus).toBe('RCVC');
      const before = await stored();
      const other = await initiate(SEPA, sepaPayment('7.00', { creditorAccount: { iban: STADTWERKE } }), reuse).expect(400);
      const description = (id: string) =>
        `{sensitive} XS2A039E: Client-VOP-Request-ID ${id} names no payee check of this client for the creditor of this payment`;
      expect(other.body).toEqualBody(tppError('FORMAT_ERROR', description(check['X-Request-ID']), 'Client-VOP-Request-ID'));
      const unknown = '0b9c2a1e-0000-4000-8000-0000000000aa';
      expect((await initiate(SEPA, sepaPayment('7.00'), { 'Client-VOP-Request-ID': unknown }).expect(400)).body).toEqualBody(
        tppError('FORMAT_ERROR', description(unknown), 'Client-VOP-Request-ID'),
      );
      expect(await stored()).toBe(before);
    });

    it.each([
      [{ 'Client-VOP-Requested': 'yes' }, 'Client-VOP-Requested', 'Client-VOP-Requested must be true or false'],
      [
        { 'Client-VOP-Request-ID': 'not-a-uuid' },
        'Client-VOP-Request-ID',
        'Client-VOP-Request-ID must be the X-Request-ID (a UUID) of an earlier payee check',
      ],
    ])('a bad header %j: 400 FORMAT_ERROR, nothing stored', async (headers, path, text) => {
      const before = await stored();
      expect((await initiate(SEPA, sepaPayment('8.00'), headers).expect(400)).body).toEqualBody(
        tppError('FORMAT_ERROR', `{sensitive} XS2A001E: ${text}`, path),
      );
      expect(await stored()).toBe(before);
    });

    it('a confirmation racing a cancellation: one wins, the other gets the error of the status it found', async () => {
      for (let round = 0; round < 5; round++) {
        const { paymentId } = (await initiate(SEPA, sepaPayment('9.00', { creditorName: 'Nobody' })).expect(CREATED)).body;
        const [confirmed, cancelled] = await Promise.all([
          put(`${SEPA}/${paymentId}/creditor-confirmation`),
          request(sandbox.http).delete(`${SEPA}/${paymentId}`).set(tppHeaders()),
        ]);
        // Cancellation first: the confirmation finds CANC (409). Confirmation first: RCVC, which DELETE cancels at once too.
        expect([confirmed.status, cancelled.status]).toEqual(expect.arrayContaining([204]));
        expect([200, 409]).toContain(confirmed.status);
        expect((await get(`${SEPA}/${paymentId}/status`).expect(200)).body.transactionStatus).toBe('CANC');
      }
    });
  });
});

describe('Verification of Payee, AUTH_MODE=strict: a client sees only its own checks', () => {
  const sandbox = useSandbox({ AUTH_MODE: 'strict' });

  it("another client's check is neither named by a payment nor read", async () => {
    const [first, second] = [await issueToken(sandbox.http), await issueToken(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2')];
    const as = (token: string, extra: Record<string, string> = {}) => tppHeaders({ Authorization: `Bearer ${token}`, ...extra });
    const check = as(first);
    await request(sandbox.http).post('/v1/payee-verifications').set(check).send(party(GEORG, 'Georg Mustermann')).expect(200);
    const reuse = { ...PSU_IP, 'Client-VOP-Request-ID': check['X-Request-ID'] };
    await request(sandbox.http).post(SEPA).set(as(second, reuse)).send(sepaPayment('1.00')).expect(400);
    await request(sandbox.http).post(SEPA).set(as(first, reuse)).send(sepaPayment('1.00')).expect(CREATED);
    const bulk = await request(sandbox.http)
      .post('/v1/bulk-payee-verifications')
      .set(as(first, { 'Client-Asynchronous-Process-Preferred': 'true' }))
      .send({ partyVerificationRequests: [{ uetr: '0b9c2a1e-0000-4000-8000-000000000001', ...party(GEORG, 'Georg Mustermann') }] })
      .expect(202);
    await request(sandbox.http).get(`/v1/bulk-payee-verifications/${bulk.body.vopBulkId}`).set(as(second)).expect(404);
    await request(sandbox.http).get(`/v1/bulk-payee-verifications/${bulk.body.vopBulkId}`).set(as(first)).expect(200);
  });
});

describe('Verification of Payee off (vop.mode: off)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-vop-off-'));
  writeFileSync(join(folder, 'profile.yaml'), `extends: ${PROFILE}\nvop:\n  mode: off\n`);
  const sandbox = useSandbox({ PROFILE: folder });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('no payment is checked, whatever the headers ask; the dedicated checks are not offered', async () => {
    const created = await request(sandbox.http)
      .post(SEPA)
      .set(tppHeaders({ ...PSU_IP, ...VOP }))
      .send(sepaPayment('1.00', { creditorName: 'Nobody' }))
      .expect(CREATED);
    expect(created.body.transactionStatus).toBe('RCVD');
    expect(created.body).not.toHaveProperty('originalTransactionInformationAndVopStatus');
    await request(sandbox.http)
      .post(SEPA)
      .set(tppHeaders({ ...PSU_IP, 'Client-VOP-Requested': 'yes' }))
      .send(sepaPayment('1.00'))
      .expect(400);
    for (const path of ['/v1/payee-verifications', '/v1/bulk-payee-verifications']) {
      const body =
        path === '/v1/payee-verifications'
          ? party(GEORG, 'Georg Mustermann')
          : { partyVerificationRequests: [{ uetr: '0b9c2a1e-0000-4000-8000-000000000001', ...party(GEORG, 'Georg Mustermann') }] };
      const refused = await request(sandbox.http).post(path).set(tppHeaders()).send(body).expect(405);
      expect(refused.body).toEqualBody(
        vopError('SERVICE_INVALID', '{sensitive} XS2A041E: this bank offers no Verification of Payee (vop.mode: off)'),
      );
    }
  });
});
