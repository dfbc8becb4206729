import request from 'supertest';
import { cancellationStart, CREATED, locationOf, scaStatusHref, shaped } from './support/profile';
import { Authorisation } from '../src/authorisation/authorisation.entity';
import { Payment } from '../src/payment-initiation/payment.entity';
import { GEORG, MARIANNE, NEW_RESOURCE_ID } from './support/fixtures';
import { removeDatabase, startSandbox, TODAY, tppError, tppHeaders, useSandbox } from './support/sandbox';

const NOT_OURS = 'DE89370400440532013000';
const eur = (amount: string) => ({ currency: 'EUR', amount });

/** A valid body per product, as the bank's examples send them; Marianne has 2850.49 interimAvailable. */
const sepa = {
  creditorName: 'Georg Mustermann',
  creditorAddress: { streetName: 'Karlsplatz', buildingNumber: '13', townName: 'Wien', postCode: '1040', country: 'AT' },
  creditorAgent: 'TESTAT99',
  creditorAccount: { iban: GEORG },
  debtorAccount: { iban: MARIANNE, currency: 'EUR' },
  instructedAmount: eur('123.50'),
  endToEndIdentification: 'E2E-0001',
  remittanceInformationUnstructured: 'Invoice 17',
  remittanceInformationStructured: { reference: 'RF18539007547034' },
};
const instant = { ...sepa, creditorAddress: undefined, requestedExecutionTime: '2026-03-20T10:00:00+01:00' };
const crossBorder = {
  debtorAccount: { iban: MARIANNE, currency: 'EUR' },
  creditorAccount: { iban: 'GB29NWBK60161331926819' },
  creditorAgent: 'NWBKGB2LXXX',
  creditorAccountBban: '',
  creditorAgentOtherId: '',
  creditorAgentIdType: 'GB',
  creditorAgentName: 'National Westminster Bank',
  creditorName: 'Jane Doe Ltd',
  creditorAddressStreet: 'High Street',
  creditorAddressBuildingNumber: '1',
  creditorAddressCity: 'London',
  creditorAddressPostalCode: 'EC1A 1BB',
  creditorAddressCountryCode: 'GB',
  creditorAddress: { streetName: 'High Street', buildingNumber: '1', townName: 'London', postCode: 'EC1A 1BB', country: 'GB' },
  instructedAmount: { currency: 'GBP', amount: '250.00' },
  endToEndIdentification: 'E2E-XB-0001',
  remittanceInformationUnstructured: 'Invoice 2026-17',
  requestedExecutionDate: TODAY,
  chargeBearer: 'DEBT',
};
const bulk = {
  batchBookingPreferred: 'true',
  debtorAccount: { iban: MARIANNE },
  payments: [
    {
      endToEndIdentification: 'E2E-BULK-1',
      instructedAmount: eur('100.00'),
      creditorName: 'Georg Mustermann',
      creditorAccount: { iban: GEORG },
      remittanceInformationUnstructured: 'One',
    },
    {
      instructedAmount: eur('50.25'),
      creditorName: 'Georg Mustermann',
      creditorAccount: { iban: GEORG },
      remittanceInformationUnstructured: 'Two',
    },
  ],
};
const periodic = {
  endToEndIdentification: 'E2E-RENT',
  debtorAccount: { iban: MARIANNE, currency: 'EUR' },
  requestedExecutionDate: null,
  creditorAccount: { iban: GEORG },
  creditorAgent: 'TESTAT99',
  creditorName: 'Georg Mustermann',
  creditorAddress: { streetName: 'Karlsplatz', buildingNumber: '13', townName: 'Wien', postCode: '1040', country: 'AT' },
  instructedAmount: eur('650.00'),
  e2eIdentification: 'E2E-RENT',
  remittanceInformationUnstructured: '',
  remittanceInformationStructured: { reference: 'RENT-2026' },
  startDate: TODAY,
  endDate: '2027-03-15',
  executionRule: 'following',
  frequency: 'Monthly',
  dayOfExecution: '15',
};

/** The payment object: every field of the product in this order, null where not sent (docs/behaviour.md, "Payments"). */
const SEPA_FIELDS = [
  'endToEndIdentification',
  'debtorAccount',
  'instructedAmount',
  'creditorAccount',
  'creditorAgent',
  'creditorAgentName',
  'creditorName',
  'creditorAddress',
  'remittanceInformationUnstructured',
  'remittanceInformationStructured',
  'requestedExecutionDate',
];
const CROSS_BORDER_FIELDS = Object.keys(crossBorder);
const BULK_FIELDS = ['batchBookingPreferred', 'debtorAccount', 'requestedExecutionDate', 'requestedExecutionTime', 'payments'];
const PERIODIC_FIELDS = [...Object.keys(periodic), 'monthsOfExecution'];
const echo = (fields: string[], body: Record<string, unknown>, transactionStatus: string) => ({
  ...Object.fromEntries(fields.map((field) => [field, body[field] ?? null])),
  transactionStatus,
});

const PRODUCTS: [string, string, Record<string, unknown>, string[]][] = [
  ['payments', 'sepa-credit-transfers', sepa, SEPA_FIELDS],
  ['payments', 'instant-sepa-credit-transfers', instant, [...SEPA_FIELDS, 'requestedExecutionTime']],
  ['payments', 'cross-border-credit-transfers', crossBorder, CROSS_BORDER_FIELDS],
  ['bulk-payments', 'sepa-credit-transfers', bulk, BULK_FIELDS],
  ['periodic-payments', 'sepa-credit-transfers', periodic, PERIODIC_FIELDS],
];

describe('payment initiation (SCA_MODE=auto)', () => {
  const sandbox = useSandbox({ PUBLIC_BASE_URL: 'http://sandbox.test:3000' });
  const headers = (extra: Record<string, string> = {}) => tppHeaders({ 'PSU-IP-Address': '192.0.2.10', ...extra });
  const countPayments = () => sandbox.dataSource.getRepository(Payment).count();
  const initiate = async (path: string, body: object): Promise<string> => {
    const response = await request(sandbox.http).post(`/v1/${path}`).set(headers()).send(body).expect(CREATED);
    return response.body.paymentId;
  };
  const read = (path: string) => request(sandbox.http).get(`/v1/${path}`).set(tppHeaders());
  const cancel = (path: string) =>
    request(sandbox.http)
      .delete(`/v1/${path}`)
      .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }));

  describe.each(PRODUCTS)('%s/%s', (service, product, body, fields) => {
    const base = `${service}/${product}`;

    it('initiates with TPP-Redirect-URI: 200, RCVD, the four links, redirectBackUrl in scaRedirect; stored', async () => {
      const before = await countPayments();
      const sent = headers({ 'TPP-Redirect-URI': 'https://tpp.example/callback?id=7' });
      const response = await request(sandbox.http).post(`/v1/${base}`).set(sent).send(body).expect(CREATED);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['x-request-id']).toBe(sent['X-Request-ID']);
      const { paymentId } = response.body;
      expect(paymentId).toMatch(NEW_RESOURCE_ID);
      const self = `/v1/${base}/${paymentId}`;
      expect(response.headers['location']).toBe(locationOf(self, 'http://sandbox.test:3000'));
      expect(response.headers['aspsp-sca-approach']).toBe('REDIRECT');
      const authorisation = await sandbox.dataSource.getRepository(Authorisation).findOneByOrFail({ resourceId: paymentId });
      expect(response.body).toEqualBody({
        transactionStatus: 'RCVD',
        paymentId,
        scaMethods: [],
        _links: {
          scaRedirect: {
            href: `http://sandbox.test:3000/sca/payments?payment_id=${paymentId}&service=${service}&product=${product}&redirectBackUrl=https%3A%2F%2Ftpp.example%2Fcallback%3Fid%3D7`,
          },
          self: { href: self },
          status: { href: `${self}/status` },
          scaStatus: { href: scaStatusHref(self, authorisation.id) },
        },
        tppMessages: [],
      });
      expect(await countPayments()).toBe(before + 1);
      expect(await sandbox.dataSource.getRepository(Payment).findOneByOrFail({ id: paymentId })).toMatchObject({
        service,
        product,
        status: 'RCVD',
      });
    });

    it('initiates without TPP-Redirect-URI: no redirectBackUrl', async () => {
      const response = await request(sandbox.http).post(`/v1/${base}`).set(headers()).send(body).expect(CREATED);
      const { paymentId } = response.body;
      expect(response.body._links.scaRedirect).toEqualBody({
        href: `http://sandbox.test:3000/sca/payments?payment_id=${paymentId}&service=${service}&product=${product}`,
      });
    });

    it('GET echoes every initiation field of the product and the status; the first read completes SCA', async () => {
      const paymentId = await initiate(base, body);
      const sent = tppHeaders();
      const response = await request(sandbox.http).get(`/v1/${base}/${paymentId}`).set(sent).expect(200);
      expect(response.headers['x-request-id']).toBe(sent['X-Request-ID']);
      expect(response.body).toEqualBody(echo(fields, body, 'ACSP'));
      expect(Object.keys(response.body)).toEqual(Object.keys(shaped(echo(fields, body, 'ACSP'))));
      const status = await read(`${base}/${paymentId}/status`).expect(200);
      expect(status.body).toEqualBody({ transactionStatus: 'ACSP' });
    });

    it('answers an unknown payment ID with 404 RESOURCE_UNKNOWN', async () => {
      for (const path of [`${base}/3d9a81b3-a47d-4130-8765-a9c0ff861b99`, `${base}/3d9a81b3-a47d-4130-8765-a9c0ff861b99/status`]) {
        const response = await read(path).expect(404);
        expect(response.body).toEqualBody(
          tppError('RESOURCE_UNKNOWN', '{sensitive} XS2A015E: payment 3d9a81b3-a47d-4130-8765-a9c0ff861b99 unknown'),
        );
      }
      await cancel(`${base}/3d9a81b3-a47d-4130-8765-a9c0ff861b99`).expect(404);
    });
  });

  describe('the funds rule', () => {
    it('an overdraft is created RCVD and later reads RJCT, on the payment and on the status', async () => {
      const paymentId = await initiate('payments/sepa-credit-transfers', { ...sepa, instructedAmount: eur('2850.50') });
      expect((await sandbox.dataSource.getRepository(Payment).findOneByOrFail({ id: paymentId })).status).toBe('RCVD');
      const payment = await read(`payments/sepa-credit-transfers/${paymentId}`).expect(200);
      expect(payment.body).toEqualBody(echo(SEPA_FIELDS, { ...sepa, instructedAmount: eur('2850.50') }, 'RJCT'));
      expect((await read(`payments/sepa-credit-transfers/${paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: 'RJCT',
      });
    });

    it('the status operation alone completes SCA too', async () => {
      const paymentId = await initiate('payments/cross-border-credit-transfers', {
        ...crossBorder,
        instructedAmount: { currency: 'USD', amount: '9999.00' },
      });
      expect((await read(`payments/cross-border-credit-transfers/${paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: 'RJCT',
      });
      expect((await read(`payments/cross-border-credit-transfers/${paymentId}`).expect(200)).body.transactionStatus).toBe('RJCT');
    });

    it('exactly the available amount passes', async () => {
      const paymentId = await initiate('payments/instant-sepa-credit-transfers', { ...instant, instructedAmount: eur('2850.49') });
      expect((await read(`payments/instant-sepa-credit-transfers/${paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: 'ACSP',
      });
    });

    it('a debtor that is no account of ours is rejected', async () => {
      const paymentId = await initiate('payments/sepa-credit-transfers', { ...sepa, debtorAccount: { iban: NOT_OURS } });
      expect((await read(`payments/sepa-credit-transfers/${paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: 'RJCT',
      });
    });

    it('a bulk of 100 payments, the most it may hold, is accepted', async () => {
      const paymentId = await initiate('bulk-payments/sepa-credit-transfers', { ...bulk, payments: Array(100).fill(bulk.payments[1]) });
      expect((await read(`bulk-payments/sepa-credit-transfers/${paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: 'RJCT',
      });
    });

    it('batchBookingPreferred as a JSON boolean, as clients generated from the Berlin Group yaml send it: accepted and echoed as sent', async () => {
      for (const batchBookingPreferred of [true, false, 'false']) {
        const paymentId = await initiate('bulk-payments/sepa-credit-transfers', { ...bulk, batchBookingPreferred });
        expect((await read(`bulk-payments/sepa-credit-transfers/${paymentId}`).expect(200)).body).toEqualBody(
          echo(BULK_FIELDS, { ...bulk, batchBookingPreferred }, 'ACSP'),
        );
      }
    });

    it('a bulk is checked for its sum', async () => {
      const paymentId = await initiate('bulk-payments/sepa-credit-transfers', {
        ...bulk,
        payments: [bulk.payments[0], { ...bulk.payments[1], instructedAmount: eur('2750.50') }],
      });
      expect((await read(`bulk-payments/sepa-credit-transfers/${paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: 'RJCT',
      });
    });

    it('a periodic payment is checked for one instalment', async () => {
      const paymentId = await initiate('periodic-payments/sepa-credit-transfers', {
        ...periodic,
        instructedAmount: eur('2000.00'),
        endDate: '2030-03-15',
      });
      expect((await read(`periodic-payments/sepa-credit-transfers/${paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: 'ACSP',
      });
    });

    it('concurrent first reads all see the one outcome', async () => {
      const paymentId = await initiate('payments/sepa-credit-transfers', sepa);
      const responses = await Promise.all(Array.from({ length: 10 }, () => read(`payments/sepa-credit-transfers/${paymentId}/status`)));
      expect(responses.map((response) => [response.status, response.body.transactionStatus])).toEqual(Array(10).fill([200, 'ACSP']));
    });
  });

  describe('future-dated payments', () => {
    it.each([
      ['payments/sepa-credit-transfers', { ...sepa, requestedExecutionDate: '2026-03-16' }],
      ['payments/cross-border-credit-transfers', { ...crossBorder, requestedExecutionDate: '2026-04-01' }],
      ['bulk-payments/sepa-credit-transfers', { ...bulk, requestedExecutionDate: '2026-04-01' }],
      ['periodic-payments/sepa-credit-transfers', { ...periodic, startDate: '2026-04-01' }],
    ])('%s reads PDNG; DELETE answers 202 and it stays PDNG', async (path, body) => {
      const paymentId = await initiate(path, body);
      expect((await read(`${path}/${paymentId}`).expect(200)).body.transactionStatus).toBe('PDNG');
      const sent = tppHeaders();
      const response = await request(sandbox.http).delete(`/v1/${path}/${paymentId}`).set(sent).expect(202);
      expect(response.headers['x-request-id']).toBe(sent['X-Request-ID']);
      expect(response.body).toEqualBody({
        transactionStatus: 'PDNG',
        scaMethods: [],
        _links: cancellationStart(`/v1/${path}/${paymentId}`),
      });
      expect((await read(`${path}/${paymentId}/status`).expect(200)).body).toEqualBody({ transactionStatus: 'PDNG' });
    });

    it('a future-dated bulk executes on its date, when the clock gets there', async () => {
      const paymentId = await initiate('bulk-payments/sepa-credit-transfers', { ...bulk, requestedExecutionDate: '2026-03-20' });
      expect((await read(`bulk-payments/sepa-credit-transfers/${paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: 'PDNG',
      });
      await request(sandbox.http).put('/sandbox/clock').send({ today: '2026-03-20' }).expect(200);
      expect((await read(`bulk-payments/sepa-credit-transfers/${paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: 'ACSP',
      });
      await request(sandbox.http).put('/sandbox/clock').send({ today: TODAY }).expect(200);
    });

    it('a bulk dated before today is refused, as a single payment is', async () => {
      const response = await request(sandbox.http)
        .post('/v1/bulk-payments/sepa-credit-transfers')
        .set(headers())
        .send({ ...bulk, requestedExecutionDate: '2026-03-14' })
        .expect(400);
      expect(response.body).toEqualBody(
        tppError(
          'EXECUTION_DATE_INVALID',
          `{sensitive} XS2A019E: requestedExecutionDate 2026-03-14 is before today (${TODAY})`,
          'requestedExecutionDate',
        ),
      );
    });

    it('a future-dated overdraft is rejected: funds come first', async () => {
      const paymentId = await initiate('payments/sepa-credit-transfers', {
        ...sepa,
        requestedExecutionDate: '2026-04-01',
        instructedAmount: eur('5000.00'),
      });
      expect((await read(`payments/sepa-credit-transfers/${paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: 'RJCT',
      });
    });
  });

  describe('cancellation', () => {
    it.each([
      ['payments/sepa-credit-transfers', sepa],
      ['payments/cross-border-credit-transfers', crossBorder],
      ['periodic-payments/sepa-credit-transfers', periodic],
      ['bulk-payments/sepa-credit-transfers', bulk],
    ])('%s in RCVD: 204 without body, then CANC', async (path, body) => {
      const paymentId = await initiate(path, body);
      const sent = tppHeaders({ 'PSU-IP-Address': '192.0.2.10' });
      const response = await request(sandbox.http).delete(`/v1/${path}/${paymentId}`).set(sent).expect(204);
      expect(response.headers['x-request-id']).toBe(sent['X-Request-ID']);
      expect(response.text).toBe('');
      expect((await read(`${path}/${paymentId}/status`).expect(200)).body).toEqualBody({ transactionStatus: 'CANC' });
      const again = await cancel(`${path}/${paymentId}`).expect(405);
      expect(again.body).toEqualBody(
        tppError('CANCELLATION_INVALID', `{sensitive} XS2A018E: payment ${paymentId} is CANC and cannot be cancelled`),
      );
    });

    it('an instant payment cannot be cancelled, even in RCVD: 405, still RCVD', async () => {
      const paymentId = await initiate('payments/instant-sepa-credit-transfers', instant);
      const response = await cancel(`payments/instant-sepa-credit-transfers/${paymentId}`).expect(405);
      expect(response.body).toEqualBody(
        tppError('CANCELLATION_INVALID', `{sensitive} XS2A018E: payment ${paymentId} is RCVD and cannot be cancelled`),
      );
      expect((await sandbox.dataSource.getRepository(Payment).findOneByOrFail({ id: paymentId })).status).toBe('RCVD');
    });

    it.each([
      ['ACSP', sepa],
      ['RJCT', { ...sepa, instructedAmount: eur('9000.00') }],
    ])('a payment in %s cannot be cancelled: 405', async (status, body) => {
      const paymentId = await initiate('payments/sepa-credit-transfers', body);
      expect((await read(`payments/sepa-credit-transfers/${paymentId}/status`).expect(200)).body).toEqualBody({
        transactionStatus: status,
      });
      const response = await cancel(`payments/sepa-credit-transfers/${paymentId}`).expect(405);
      expect(response.body).toEqualBody(
        tppError('CANCELLATION_INVALID', `{sensitive} XS2A018E: payment ${paymentId} is ${status} and cannot be cancelled`),
      );
    });

    it('of 20 concurrent DELETEs on one RCVD payment exactly one wins', async () => {
      const paymentId = await initiate('payments/sepa-credit-transfers', sepa);
      const responses = await Promise.all(Array.from({ length: 20 }, () => cancel(`payments/sepa-credit-transfers/${paymentId}`)));
      expect(responses.map((response) => response.status).sort()).toEqual([204, ...Array(19).fill(405)]);
      expect((await sandbox.dataSource.getRepository(Payment).findOneByOrFail({ id: paymentId })).status).toBe('CANC');
    });
  });

  describe('paths', () => {
    it.each([
      ['post', 'payments/sepa-direct-debits', 'sepa-direct-debits'],
      ['post', 'bulk-payments/instant-sepa-credit-transfers', 'instant-sepa-credit-transfers'],
      ['post', 'periodic-payments/cross-border-credit-transfers', 'cross-border-credit-transfers'],
      ['get', 'payments/sepa-direct-debits/3d9a81b3-a47d-4130-8765-a9c0ff861b99', 'sepa-direct-debits'],
      ['get', 'bulk-payments/instant-sepa-credit-transfers/3d9a81b3-a47d-4130-8765-a9c0ff861b99/status', 'instant-sepa-credit-transfers'],
      ['delete', 'periodic-payments/target-2-payments/3d9a81b3-a47d-4130-8765-a9c0ff861b99', 'target-2-payments'],
    ])('%s %s: 404 PRODUCT_UNKNOWN', async (method, path, product) => {
      const response = await request(sandbox.http)[method as 'get'](`/v1/${path}`).set(headers()).send(sepa).expect(404);
      expect(response.body).toEqualBody(
        tppError('PRODUCT_UNKNOWN', `{sensitive} XS2A014E: payment product ${product} unknown`, 'payment-product'),
      );
    });

    it.each([
      ['post', 'recurring-payments/sepa-credit-transfers'],
      ['get', 'recurring-payments/sepa-credit-transfers/3d9a81b3-a47d-4130-8765-a9c0ff861b99'],
    ])('%s %s: an unknown payment service is 404 RESOURCE_UNKNOWN', async (method, path) => {
      const response = await request(sandbox.http)[method as 'get'](`/v1/${path}`).set(headers()).send(sepa).expect(404);
      expect(response.body).toEqualBody(tppError('RESOURCE_UNKNOWN', `{sensitive} XS2A012E: no route ${method.toUpperCase()} /v1/${path}`));
    });

    it('a payment is not found under another service or product', async () => {
      const paymentId = await initiate('payments/sepa-credit-transfers', sepa);
      for (const path of [
        'payments/instant-sepa-credit-transfers',
        'payments/cross-border-credit-transfers',
        'bulk-payments/sepa-credit-transfers',
        'periodic-payments/sepa-credit-transfers',
      ]) {
        const response = await read(`${path}/${paymentId}`).expect(404);
        expect(response.body).toEqualBody(tppError('RESOURCE_UNKNOWN', `{sensitive} XS2A015E: payment ${paymentId} unknown`));
        await cancel(`${path}/${paymentId}`).expect(404);
      }
      expect((await sandbox.dataSource.getRepository(Payment).findOneByOrFail({ id: paymentId })).status).toBe('RCVD');
    });

    it('answers with and without a trailing slash', async () => {
      const response = await request(sandbox.http).post('/v1/payments/sepa-credit-transfers/').set(headers()).send(sepa).expect(CREATED);
      await read(`payments/sepa-credit-transfers/${response.body.paymentId}/`).expect(200);
    });
  });

  describe('bad input is refused and stores nothing', () => {
    const refused = async (path: string, body: unknown, sent: Record<string, string>, status: number, expected: object) => {
      const before = await countPayments();
      const response = await request(sandbox.http)
        .post(`/v1/${path}`)
        .set(sent)
        .send(body as object)
        .expect(status);
      expect(response.headers['x-request-id']).toBe(sent['X-Request-ID']);
      expect(response.body).toEqualBody(expected);
      expect(await countPayments()).toBe(before);
    };
    const format = (path: string, description: string) => tppError('FORMAT_ERROR', `{sensitive} XS2A001E: ${description}`, path);

    it.each([
      ['no PSU-IP-Address', tppHeaders()],
      ['a PSU-IP-Address that is not an IP address', tppHeaders({ 'PSU-IP-Address': 'my laptop' })],
    ])('%s: 400 FORMAT_ERROR', async (_, sent) => {
      await refused(
        'payments/sepa-credit-transfers',
        sepa,
        sent,
        400,
        format('PSU-IP-Address', "PSU-IP-Address must be the IP address of the account holder's device"),
      );
    });

    const SEPA = 'payments/sepa-credit-transfers';
    const INSTANT = 'payments/instant-sepa-credit-transfers';
    const CROSS = 'payments/cross-border-credit-transfers';
    const BULK = 'bulk-payments/sepa-credit-transfers';
    const PERIODIC = 'periodic-payments/sepa-credit-transfers';
    const invalid: [string, string, object, string, string][] = [
      [SEPA, 'no debtorAccount', { ...sepa, debtorAccount: undefined }, 'debtorAccount', 'debtorAccount is required'],
      [SEPA, 'no instructedAmount', { ...sepa, instructedAmount: undefined }, 'instructedAmount', 'instructedAmount is required'],
      [SEPA, 'no creditorAccount', { ...sepa, creditorAccount: undefined }, 'creditorAccount', 'creditorAccount is required'],
      [SEPA, 'no creditorName', { ...sepa, creditorName: undefined }, 'creditorName', 'creditorName is required'],
      [SEPA, 'an empty creditorName', { ...sepa, creditorName: '' }, 'creditorName', 'creditorName should not be empty'],
      [
        SEPA,
        'a creditorName over 70 characters',
        { ...sepa, creditorName: 'x'.repeat(71) },
        'creditorName',
        'creditorName must be shorter than or equal to 70 characters',
      ],
      [
        SEPA,
        'a debtor IBAN with a bad checksum',
        { ...sepa, debtorAccount: { iban: 'AT099900000000001512' } },
        'debtorAccount.iban',
        'debtorAccount.iban must be an IBAN with a valid checksum',
      ],
      [SEPA, 'a debtorAccount that is an array', { ...sepa, debtorAccount: [] }, 'debtorAccount', 'debtorAccount must be an object'],
      [
        SEPA,
        'an instructedAmount that is an array',
        { ...sepa, instructedAmount: [] },
        'instructedAmount',
        'instructedAmount must be an object',
      ],
      [
        SEPA,
        'a creditorAccount that is an array',
        { ...sepa, creditorAccount: [{ iban: 'AT439900000000010017' }] },
        'creditorAccount',
        'creditorAccount must be an object',
      ],
      [
        SEPA,
        'a creditorAddress that is an array',
        { ...sepa, creditorAddress: [] },
        'creditorAddress',
        'creditorAddress must be an object',
      ],
      [
        SEPA,
        'a creditor without IBAN',
        { ...sepa, creditorAccount: { bban: '123' } },
        'creditorAccount.iban',
        'creditorAccount.iban is required',
      ],
      [
        SEPA,
        'an amount that is not a string',
        { ...sepa, instructedAmount: { currency: 'EUR', amount: 12.5 } },
        'instructedAmount.amount',
        'instructedAmount.amount must be a positive decimal string such as "123.45"',
      ],
      [
        SEPA,
        'a zero amount',
        { ...sepa, instructedAmount: eur('0.00') },
        'instructedAmount.amount',
        'instructedAmount.amount must be a positive decimal string such as "123.45"',
      ],
      [
        SEPA,
        'a negative amount',
        { ...sepa, instructedAmount: eur('-5.00') },
        'instructedAmount.amount',
        'instructedAmount.amount must be a positive decimal string such as "123.45"',
      ],
      [
        SEPA,
        'a currency other than EUR',
        { ...sepa, instructedAmount: { currency: 'USD', amount: '5.00' } },
        'instructedAmount.currency',
        'instructedAmount.currency must be EUR for a SEPA payment',
      ],
      [
        SEPA,
        'a BIC of 9 characters',
        { ...sepa, creditorAgent: 'TESTAT99X' },
        'creditorAgent',
        'creditorAgent must be a BIC of 8 or 11 characters',
      ],
      [
        SEPA,
        'an address without country',
        { ...sepa, creditorAddress: { townName: 'Wien' } },
        'creditorAddress.country',
        'creditorAddress.country is required',
      ],
      [
        SEPA,
        'a country of three letters',
        { ...sepa, creditorAddress: { country: 'AUT' } },
        'creditorAddress.country',
        'creditorAddress.country must be an ISO 3166 code of two capital letters',
      ],
      [
        SEPA,
        'an endToEndIdentification over 35 characters',
        { ...sepa, endToEndIdentification: 'e'.repeat(36) },
        'endToEndIdentification',
        'endToEndIdentification must be shorter than or equal to 35 characters',
      ],
      [
        SEPA,
        'a structured reference over 35 characters',
        { ...sepa, remittanceInformationStructured: { reference: 'r'.repeat(36) } },
        'remittanceInformationStructured.reference',
        'remittanceInformationStructured.reference must be shorter than or equal to 35 characters',
      ],
      [
        SEPA,
        'a requestedExecutionDate that is no date',
        { ...sepa, requestedExecutionDate: '2026-02-30' },
        'requestedExecutionDate',
        'requestedExecutionDate must be a real date written YYYY-MM-DD, from 1000-01-01 to 9999-12-31',
      ],
      [
        INSTANT,
        'a requestedExecutionTime without offset',
        { ...instant, requestedExecutionTime: '2026-03-20T10:00:00' },
        'requestedExecutionTime',
        'requestedExecutionTime must be a date-time with a UTC offset, such as 2026-03-20T10:00:00+01:00',
      ],
      [
        INSTANT,
        'a currency other than EUR',
        { ...instant, instructedAmount: { currency: 'CHF', amount: '1.00' } },
        'instructedAmount.currency',
        'instructedAmount.currency must be EUR for a SEPA payment',
      ],
      [
        CROSS,
        'an instructedAmount that is an array',
        { ...crossBorder, instructedAmount: [] },
        'instructedAmount',
        'instructedAmount must be an object',
      ],
      [
        CROSS,
        'a currency in lower case',
        { ...crossBorder, instructedAmount: { currency: 'gbp', amount: '1.00' } },
        'instructedAmount.currency',
        'instructedAmount.currency must be an ISO 4217 code of three capital letters',
      ],
      [
        CROSS,
        'an unknown chargeBearer',
        { ...crossBorder, chargeBearer: 'ME' },
        'chargeBearer',
        'chargeBearer must be one of the following values: DEBT, CRED, SHAR, SLEV',
      ],
      [
        CROSS,
        'a creditor country code of three letters',
        { ...crossBorder, creditorAddressCountryCode: 'GBR' },
        'creditorAddressCountryCode',
        'creditorAddressCountryCode must be an ISO 3166 code of two capital letters',
      ],
      [
        CROSS,
        'a remittance text over 140 characters',
        { ...crossBorder, remittanceInformationUnstructured: 'r'.repeat(141) },
        'remittanceInformationUnstructured',
        'remittanceInformationUnstructured must be shorter than or equal to 140 characters',
      ],
      [BULK, 'no payments', { ...bulk, payments: undefined }, 'payments', 'payments is required'],
      [BULK, 'an empty payment list', { ...bulk, payments: [] }, 'payments', 'payments must contain at least 1 elements'],
      [
        BULK,
        'more than 100 payments',
        { ...bulk, payments: Array(101).fill(bulk.payments[0]) },
        'payments',
        'payments must contain no more than 100 elements',
      ],
      [BULK, 'a payment that is an array', { ...bulk, payments: [[]] }, 'payments', 'each item of payments must be an object'],
      [
        BULK,
        'a payment without creditorName',
        { ...bulk, payments: [{ ...bulk.payments[0], creditorName: undefined }] },
        'payments[0].creditorName',
        'payments[0].creditorName is required',
      ],
      [
        BULK,
        'a payment in another currency',
        { ...bulk, payments: [bulk.payments[0], { ...bulk.payments[1], instructedAmount: { currency: 'USD', amount: '1.00' } }] },
        'payments[1].instructedAmount.currency',
        'payments[1].instructedAmount.currency must be EUR for a SEPA payment',
      ],
      [
        BULK,
        'batchBookingPreferred neither a boolean nor its literal',
        { ...bulk, batchBookingPreferred: 'yes' },
        'batchBookingPreferred',
        'batchBookingPreferred must be true or false, as a boolean or a string',
      ],
      [
        BULK,
        'a requestedExecutionDate that is no date',
        { ...bulk, requestedExecutionDate: '2026-02-30' },
        'requestedExecutionDate',
        'requestedExecutionDate must be a real date written YYYY-MM-DD, from 1000-01-01 to 9999-12-31',
      ],
      [
        BULK,
        'an endToEndIdentification over 35 characters',
        { ...bulk, payments: [{ ...bulk.payments[0], endToEndIdentification: 'e'.repeat(36) }] },
        'payments[0].endToEndIdentification',
        'payments[0].endToEndIdentification must be shorter than or equal to 35 characters',
      ],
      [
        PERIODIC,
        'an unknown executionRule',
        { ...periodic, executionRule: 'nearest' },
        'executionRule',
        'executionRule must be one of the following values: following, preceding',
      ],
      [
        PERIODIC,
        'a month of execution 13',
        { ...periodic, frequency: 'MonthlyVariable', monthsOfExecution: ['1', '13'] },
        'monthsOfExecution',
        'each value in monthsOfExecution must be one of the following values: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12',
      ],
      [
        SEPA,
        'a creditorAgentName over 140 characters',
        { ...sepa, creditorAgentName: 'n'.repeat(141) },
        'creditorAgentName',
        'creditorAgentName must be shorter than or equal to 140 characters',
      ],
      [
        PERIODIC,
        'an instructedAmount that is an array',
        { ...periodic, instructedAmount: [] },
        'instructedAmount',
        'instructedAmount must be an object',
      ],
      [PERIODIC, 'no startDate', { ...periodic, startDate: undefined }, 'startDate', 'startDate is required'],
      [PERIODIC, 'no frequency', { ...periodic, frequency: undefined }, 'frequency', 'frequency is required'],
      [
        PERIODIC,
        'an unknown frequency',
        { ...periodic, frequency: 'Fortnightly' },
        'frequency',
        'frequency must be one of the following values: Daily, Weekly, EveryTwoWeeks, Monthly, EveryTwoMonths, Quarterly, SemiAnnual, Annual, MonthlyVariable',
      ],
      [
        PERIODIC,
        'a dayOfExecution of 32',
        { ...periodic, dayOfExecution: '32' },
        'dayOfExecution',
        `dayOfExecution must be one of the following values: ${Array.from({ length: 31 }, (_, day) => day + 1).join(', ')}`,
      ],
      [
        PERIODIC,
        'an endDate before the startDate',
        { ...periodic, endDate: '2026-03-14' },
        'endDate',
        `endDate 2026-03-14 is before startDate ${TODAY}`,
      ],
    ];

    it.each(invalid)('%s, %s: 400 FORMAT_ERROR naming the field', async (path, _, body, field, description) => {
      await refused(path, body, headers(), 400, format(field, description));
    });

    it.each([
      [
        SEPA,
        { ...sepa, requestedExecutionDate: '2026-03-14' },
        'requestedExecutionDate',
        'requestedExecutionDate 2026-03-14 is before today (2026-03-15)',
      ],
      [
        CROSS,
        { ...crossBorder, requestedExecutionDate: '2025-12-31' },
        'requestedExecutionDate',
        'requestedExecutionDate 2025-12-31 is before today (2026-03-15)',
      ],
      [PERIODIC, { ...periodic, startDate: '2026-03-01' }, 'startDate', 'startDate 2026-03-01 is before today (2026-03-15)'],
    ])('%s with a date in the past: 400 EXECUTION_DATE_INVALID', async (path, body, field, description) => {
      await refused(path, body, headers(), 400, tppError('EXECUTION_DATE_INVALID', `{sensitive} XS2A019E: ${description}`, field));
    });

    it('a body that is not JSON', async () => {
      const before = await countPayments();
      await request(sandbox.http)
        .post(`/v1/${SEPA}`)
        .set(headers({ 'Content-Type': 'application/json' }))
        .send('{"debtorAccount":')
        .expect(400);
      expect(await countPayments()).toBe(before);
    });
  });

  describe('fields the interface does not know', () => {
    it("are ignored: the bank's periodic example sends creditorAdress as a string", async () => {
      const body = { ...periodic, creditorAddress: undefined, creditorAdress: 'Karlsplatz 13, 1040 Wien' };
      const paymentId = await initiate('periodic-payments/sepa-credit-transfers', body);
      const response = await read(`periodic-payments/sepa-credit-transfers/${paymentId}`).expect(200);
      expect(response.body).toEqualBody({ ...echo(PERIODIC_FIELDS, periodic, 'ACSP'), creditorAddress: null });
    });

    it('are ignored and not echoed: extra keys of TPP clients (street, city, postalCode in an address); Berlin Group creditorAgentName is echoed', async () => {
      const body = {
        ...sepa,
        creditorAgentName: 'Test Bank',
        creditorAddress: { street: 'Karlsplatz', city: 'Wien', postalCode: '1040', country: 'AT' },
      };
      const paymentId = await initiate('payments/sepa-credit-transfers', body);
      const response = await read(`payments/sepa-credit-transfers/${paymentId}`).expect(200);
      expect(response.body).toEqualBody(
        echo(SEPA_FIELDS, { ...sepa, creditorAgentName: 'Test Bank', creditorAddress: { country: 'AT' } }, 'ACSP'),
      );
    });
  });
});

describe('payments (SCA_MODE=redirect)', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });

  it('stay RCVD when read: they wait for the account holder', async () => {
    const created = await request(sandbox.http)
      .post('/v1/payments/sepa-credit-transfers')
      .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
      .send(sepa)
      .expect(CREATED);
    const path = `/v1/payments/sepa-credit-transfers/${created.body.paymentId}`;
    expect((await request(sandbox.http).get(path).set(tppHeaders()).expect(200)).body.transactionStatus).toBe('RCVD');
    expect((await request(sandbox.http).get(`${path}/status`).set(tppHeaders()).expect(200)).body).toEqualBody({
      transactionStatus: 'RCVD',
    });
  });
});

describe('payments across a restart', () => {
  it('keep their status and body', async () => {
    const first = await startSandbox();
    const headers = tppHeaders({ 'PSU-IP-Address': '192.0.2.10' });
    const ids = {
      accepted: (await request(first.http).post('/v1/payments/sepa-credit-transfers').set(headers).send(sepa).expect(CREATED)).body
        .paymentId,
      pending: (
        await request(first.http)
          .post('/v1/periodic-payments/sepa-credit-transfers')
          .set(headers)
          .send({ ...periodic, startDate: '2026-04-01' })
          .expect(CREATED)
      ).body.paymentId,
      cancelled: (await request(first.http).post('/v1/bulk-payments/sepa-credit-transfers').set(headers).send(bulk).expect(CREATED)).body
        .paymentId,
      received: (await request(first.http).post('/v1/payments/instant-sepa-credit-transfers').set(headers).send(instant).expect(CREATED))
        .body.paymentId,
    };
    await request(first.http).get(`/v1/payments/sepa-credit-transfers/${ids.accepted}`).set(tppHeaders()).expect(200);
    await request(first.http).get(`/v1/periodic-payments/sepa-credit-transfers/${ids.pending}`).set(tppHeaders()).expect(200);
    await request(first.http).delete(`/v1/bulk-payments/sepa-credit-transfers/${ids.cancelled}`).set(tppHeaders()).expect(204);
    await first.close();

    const again = await startSandbox({}, first.database);
    try {
      const statuses = await again.dataSource.getRepository(Payment).find({ order: { id: 'ASC' } });
      expect(Object.fromEntries(statuses.map((payment) => [payment.id, payment.status]))).toEqual({
        [ids.accepted]: 'ACSP',
        [ids.pending]: 'PDNG',
        [ids.cancelled]: 'CANC',
        [ids.received]: 'RCVD',
      });
      const accepted = await request(again.http).get(`/v1/payments/sepa-credit-transfers/${ids.accepted}`).set(tppHeaders()).expect(200);
      expect(accepted.body).toEqualBody(echo(SEPA_FIELDS, sepa, 'ACSP'));
    } finally {
      await again.close();
      await removeDatabase(first.database);
    }
  });
});
