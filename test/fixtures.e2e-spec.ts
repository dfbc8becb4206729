import request from 'supertest';
import { GEORG, MARIANNE } from './support/fixtures';
import { useSandbox, worldClient, WorldClient } from './support/sandbox';

/**
 * The fixtures the sandbox derives from the profile's (docs/profiles.md, "Fixtures"): a payment of
 * each service with its authorisations, a signing basket, a bulk payee check, and the consents that
 * grant card accounts, trusted beneficiaries and the confirmation of funds. The served document's
 * examples name them; two clients in worlds of their own read the same answers, and neither can
 * change them: each change is refused with what to do instead. PROFILE=berlin-group offers every
 * service; the IDs are read from the served document, as Swagger UI prefills them.
 */

const stays = (instead: string) => `one of the bank's fixtures, which stay as they are: ${instead} to try this`;
/** Berlin Group's error body; the Verification of Payee operations (creditor confirmation) name their list apiClientMessages. */
const bgError = (code: string, text: string, list = 'tppMessages') => ({
  [list]: [{ category: 'ERROR', code, text: `{sensitive} ${text}` }],
});

type Parameter = { name: string; in: string; example?: string };
type Document = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

/** The example the served document gives the parameter `name` of the operation `method path`. */
function exampleOf(document: Document, method: string, path: string, name: string): string {
  const example = document.paths[path][method].parameters?.find((parameter) => parameter.name === name)?.example;
  if (example === undefined) throw new Error(`${method} ${path} has no example of ${name}`);
  return example;
}

describe('the derived fixtures: every world reads them, none changes them (PROFILE=berlin-group, AUTH_MODE=strict)', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', AUTH_MODE: 'strict', SCA_MODE: 'redirect', SANDBOX_CONTROL: 'true' });
  let clients: WorldClient[];
  let document: Document;
  const id = (method: string, path: string, name: string) => exampleOf(document, method, path, name);

  beforeAll(async () => {
    clients = [
      await worldClient(sandbox.http, 'sandbox-tpp', 'sandbox-secret', { 'PSU-IP-Address': '192.0.2.10' }),
      await worldClient(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2', { 'PSU-IP-Address': '192.0.2.10' }),
    ];
    document = (await request(sandbox.http).get('/docs-json').expect(200)).body as Document;
  });

  it('a payment of each service, executed, its SCA finalised and its cancellation refused by the holder', async () => {
    const bodies: Record<string, object> = {
      payments: {
        debtorAccount: { iban: MARIANNE, currency: 'EUR' },
        instructedAmount: { currency: 'EUR', amount: '12.50' },
        creditorAccount: { iban: GEORG },
        creditorName: 'Georg Mustermann',
        remittanceInformationUnstructured: 'Try it out',
        requestedExecutionDate: '2019-03-04',
      },
    };
    for (const service of ['payments', 'bulk-payments', 'periodic-payments']) {
      const paymentId = id('get', `/v1/${service}/{product}/{paymentId}`, 'paymentId');
      const path = `/v1/${service}/sepa-credit-transfers/${paymentId}`;
      const authorisation = id('get', `/v1/${service}/{product}/{paymentId}/authorisations/{authorisationId}`, 'authorisationId');
      const cancellation = id(
        'get',
        `/v1/${service}/{product}/{paymentId}/cancellation-authorisations/{authorisationId}`,
        'authorisationId',
      );
      for (const { send } of clients) {
        const payment = (await send('get', path).expect(200)).body;
        if (service === 'payments') expect(payment).toEqual({ ...bodies.payments, transactionStatus: 'ACSP' });
        expect(payment.transactionStatus).toBe('ACSP');
        expect((await send('get', `${path}/status`).expect(200)).body).toEqual({ transactionStatus: 'ACSP' });
        expect((await send('get', `${path}/authorisations`).expect(200)).body).toEqual({ authorisationIds: [authorisation] });
        expect((await send('get', `${path}/authorisations/${authorisation}`).expect(200)).body).toEqual({ scaStatus: 'finalised' });
        expect((await send('get', `${path}/cancellation-authorisations`).expect(200)).body).toEqual({ authorisationIds: [cancellation] });
        expect((await send('get', `${path}/cancellation-authorisations/${cancellation}`).expect(200)).body).toEqual({
          scaStatus: 'failed',
        });
      }
    }
  });

  it('refuses every change of a fixture payment, saying what to do instead, and leaves it as it was', async () => {
    const paymentId = id('get', '/v1/payments/{product}/{paymentId}', 'paymentId');
    const path = `/v1/payments/sepa-credit-transfers/${paymentId}`;
    const authorisation = id('get', '/v1/payments/{product}/{paymentId}/authorisations/{authorisationId}', 'authorisationId');
    const instead = stays('initiate a payment of your own (POST /v1/payments/sepa-credit-transfers)');
    const [a, b] = clients;
    expect((await a.send('delete', path).expect(405)).body).toEqual(
      bgError('CANCELLATION_INVALID', `XS2A018E: payment ${paymentId} is ${instead}`),
    );
    for (const segment of ['authorisations', 'cancellation-authorisations'])
      expect((await a.send('post', `${path}/${segment}`, {}).expect(409)).body).toEqual(
        bgError('STATUS_INVALID', `XS2A021E: payment ${paymentId} is ${instead}`),
      );
    expect((await a.send('put', `${path}/authorisations/${authorisation}`, { psuData: { password: 'x' } }).expect(409)).body).toEqual(
      bgError(
        'STATUS_INVALID',
        `XS2A021E: authorisation ${authorisation} is ${stays('start the authorisation of a consent or payment of your own')}`,
      ),
    );
    expect((await a.send('put', `${path}/creditor-confirmation`, {}).expect(409)).body).toEqual(
      bgError('STATUS_INVALID', `XS2A040E: payment ${paymentId} is ${instead}`, 'apiClientMessages'),
    );
    expect(
      (await a.send('post', `/sandbox/sca/payments/${paymentId}`, { psuId: 'georg.mustermann', decision: 'approve' }).expect(409)).body,
    ).toEqual(bgError('STATUS_INVALID', `XS2A021E: payment ${paymentId} is ${instead}`));
    expect((await b.send('get', `${path}/status`).expect(200)).body).toEqual({ transactionStatus: 'ACSP' });
    expect((await b.send('get', `${path}/authorisations/${authorisation}`).expect(200)).body).toEqual({ scaStatus: 'finalised' });
  });

  it('a signing basket of the fixture payment, authorised; no basket of it, and no change of the basket', async () => {
    const basketId = id('get', '/v1/signing-baskets/{basketId}', 'basketId');
    const paymentId = id('get', '/v1/payments/{product}/{paymentId}', 'paymentId');
    const [a, b] = clients;
    for (const { send } of clients) {
      expect((await send('get', `/v1/signing-baskets/${basketId}`).expect(200)).body).toEqual({
        payments: [paymentId],
        transactionStatus: 'ACTC',
        _links: { self: { href: `/v1/signing-baskets/${basketId}` }, status: { href: `/v1/signing-baskets/${basketId}/status` } },
      });
      expect((await send('get', `/v1/signing-baskets/${basketId}/authorisations`).expect(200)).body).toEqual({
        authorisationIds: [id('get', '/v1/signing-baskets/{basketId}/authorisations/{authorisationId}', 'authorisationId')],
      });
    }
    expect((await a.send('delete', `/v1/signing-baskets/${basketId}`).expect(409)).body).toEqual(
      bgError(
        'STATUS_INVALID',
        `XS2A061E: signing basket ${basketId} is ${stays('create a basket of your own (POST /v1/signing-baskets)')}`,
      ),
    );
    expect((await b.send('post', '/v1/signing-baskets', { paymentIds: [paymentId] }).expect(409)).body).toEqual(
      bgError(
        'REFERENCE_STATUS_INVALID',
        `XS2A059E: payment ${paymentId} is ${stays('initiate a payment of your own with TPP-Explicit-Authorisation-Preferred: true and name it here')}`,
      ),
    );
  });

  it('a consent for the confirmation of funds, which checks and stays valid after a delete', async () => {
    const consentId = id('post', '/v1/funds-confirmations', 'Consent-ID');
    const check = { account: { iban: MARIANNE }, instructedAmount: { currency: 'EUR', amount: '12.50' }, cardNumber: '1234567891234' };
    for (const { send } of clients) {
      expect((await send('post', '/v1/funds-confirmations', check, { 'Consent-ID': consentId }).expect(200)).body).toEqual({
        fundsAvailable: true,
      });
      const deleted = await send('delete', `/v2/consents/confirmation-of-funds/${consentId}`).expect(204);
      expect(deleted.headers['sandbox-fixture-consent']).toBeDefined();
      expect((await send('get', `/v2/consents/confirmation-of-funds/${consentId}/status`).expect(200)).body).toEqual({
        consentStatus: 'valid',
      });
    }
  });

  it('consents that grant the example holder’s card accounts and trusted beneficiaries', async () => {
    const cards = id('get', '/v1/card-accounts', 'Consent-ID');
    const cardAccountId = id('get', '/v1/card-accounts/{cardAccountId}', 'cardAccountId');
    const trusted = id('get', '/v1/trusted-beneficiaries', 'Consent-ID');
    for (const { send } of clients) {
      const list = (await send('get', '/v1/card-accounts', undefined, { 'Consent-ID': cards }).expect(200)).body;
      expect(list.cardAccounts.map(({ resourceId }: { resourceId: string }) => resourceId)).toContain(cardAccountId);
      await send('get', `/v1/card-accounts/${cardAccountId}/balances`, undefined, { 'Consent-ID': cards }).expect(200);
      const beneficiaries = (await send('get', '/v1/trusted-beneficiaries', undefined, { 'Consent-ID': trusted }).expect(200)).body;
      expect(beneficiaries.trustedBeneficiaries.length).toBeGreaterThan(0);
    }
  });

  it('a bulk payee check of the example creditor', async () => {
    const vopBulkId = id('get', '/v1/bulk-payee-verifications/{vopBulkId}', 'vopBulkId');
    for (const { send } of clients) {
      const bulk = (await send('get', `/v1/bulk-payee-verifications/${vopBulkId}`).expect(200)).body;
      expect(bulk.partyVerificationRequestsAndResults.map(({ partyNameMatch }: { partyNameMatch: string }) => partyNameMatch)).toEqual([
        'MTCH',
        'CMTC',
      ]);
    }
  });
});
