import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { inProfile } from './support/profile';
import { MARIANNE, sepaPayment } from './support/fixtures';
import { removeDatabase, startSandbox, temporaryDatabase, tppError, tppHeaders, useSandbox } from './support/sandbox';

/**
 * A bank team's profile (docs/profiles.md): the test copies the seed bank's fixtures into a folder
 * of its own, changes every key and adds a PSU with an account, and checks each key's effect on the
 * running sandbox; the example profile runs the walk its documentation gives.
 */

const NEW_IBAN = 'DE89370400440532013000';
const folder = mkdtempSync(join(tmpdir(), 'psd2-profile-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function writeProfile(): string {
  cpSync('profiles/bank/fixtures', join(folder, 'data'), { recursive: true });
  const json = (name: string) => JSON.parse(readFileSync(join(folder, 'data', name), 'utf8'));
  const accounts = json('accounts.json');
  accounts.push({
    iban: NEW_IBAN,
    name: 'Lena Test',
    currency: 'EUR',
    product: 'Girokonto',
    bic: 'TESTDEFF',
    balances: [
      { balanceType: 'forwardAvailable', amount: '700.00', currency: 'EUR', referenceDate: '2026-03-14' },
      { balanceType: 'interimAvailable', amount: '750.00', currency: 'EUR', referenceDate: '2026-03-14' },
    ],
  });
  const psus = json('psus.json');
  psus.push({
    psuId: 'lena.test',
    name: 'Lena Test',
    password: 'secret',
    accounts: [NEW_IBAN],
    scaMethods: [{ authenticationType: 'SMTP_OTP', authenticationMethodId: 'mail', name: 'TAN by e-mail' }],
    decoupledConfirmsAtPoll: 2,
  });
  writeFileSync(join(folder, 'data', 'accounts.json'), JSON.stringify(accounts));
  writeFileSync(join(folder, 'data', 'psus.json'), JSON.stringify(psus));
  writeFileSync(
    join(folder, 'profile.yaml'),
    [
      'name: Testbank Nord',
      'bic: TESTDEFF',
      'answers: berlin-group',
      'scaApproaches: [decoupled, embedded]',
      'paymentProducts:',
      '  payments: [sepa-credit-transfers]',
      '  periodic-payments: [sepa-credit-transfers]',
      'consents:',
      '  maxValidityDays: 30',
      '  maxFrequencyPerDay: 2',
      'permissionDashboard: false',
      'fixtures: data',
    ].join('\n'),
  );
  return folder;
}

const SEPA = '/v1/payments/sepa-credit-transfers';
const berlinGroup = <T>(body: T): T => inProfile('berlin-group', body);

describe('a profile folder a bank team wrote (SCA_MODE=redirect)', () => {
  const path = writeProfile();
  const sandbox = useSandbox({ PROFILE: path, SCA_MODE: 'redirect', PUBLIC_BASE_URL: 'http://sandbox.test' });
  const get = (url: string, headers: Record<string, string> = {}) => request(sandbox.http).get(url).set(tppHeaders(headers));
  const initiate = (url: string, body: object, headers: Record<string, string> = {}) =>
    request(sandbox.http)
      .post(url)
      .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', ...headers }))
      .send(body);

  it('name: health, the served document and the SCA pages name the bank', async () => {
    expect((await request(sandbox.http).get('/health').expect(200)).body).toEqual({
      status: 'ok',
      profile: { source: path, name: 'Testbank Nord', answers: 'berlin-group' },
    });
    const document = (await request(sandbox.http).get('/docs-json').expect(200)).body;
    expect(document.info.title).toBe('PSD2 sandbox: Testbank Nord');
    expect(document.info.description).toContain('The bank: Testbank Nord (BIC TESTDEFF)');
    const { paymentId } = (await initiate(SEPA, sepaPayment('1.00')).expect(201)).body;
    const page = await request(sandbox.http)
      .get(`/sca/payments?payment_id=${paymentId}&service=payments&product=sepa-credit-transfers`)
      .expect(200);
    expect(page.text).toContain('<title>Authorise a payment - Testbank Nord</title>');
    expect(page.text).toContain('Testbank Nord &middot; Online banking');
  });

  it("bic: a scenario account carries the bank's BIC", async () => {
    const scenario = await request(sandbox.http)
      .post('/sandbox/scenarios')
      .send({ accounts: [{ name: 'Scenario Holder', balances: { interimAvailable: '10.00', forwardAvailable: '10.00' } }] })
      .expect(201);
    const { consentId, accounts } = scenario.body;
    const account = await get(`/v1/accounts/${accounts[0].iban}`, { 'Consent-ID': consentId }).expect(200);
    expect(account.body.account.bic).toBe('TESTDEFF');
  });

  it('answers: berlin-group shapes, 201 on creation, no nulls', async () => {
    const created = await initiate(SEPA, sepaPayment('2.00')).expect(201);
    const { paymentId } = created.body;
    expect(created.body).toEqual({
      transactionStatus: 'RCVD',
      paymentId,
      _links: expect.objectContaining({ self: { href: `${SEPA}/${paymentId}` }, status: { href: `${SEPA}/${paymentId}/status` } }),
    });
    expect(JSON.stringify(created.body)).not.toContain('null');
  });

  it('scaApproaches: the first is the default; a preference the bank has is granted, one it has not gets the default, named in ASPSP-SCA-Approach', async () => {
    expect((await initiate(SEPA, sepaPayment('3.00')).expect(201)).headers['aspsp-sca-approach']).toBe('DECOUPLED');
    expect(
      (await initiate(SEPA, sepaPayment('3.00'), { 'TPP-Redirect-Preferred': 'true' }).expect(201)).headers['aspsp-sca-approach'],
    ).toBe('DECOUPLED');
    const embedded = await initiate(SEPA, sepaPayment('3.00'), { 'TPP-Redirect-Preferred': 'false', 'PSU-ID': 'georg.mustermann' }).expect(
      201,
    );
    expect(embedded.headers['aspsp-sca-approach']).toBe('EMBEDDED');
    const document = (await request(sandbox.http).get('/docs-json').expect(200)).body;
    expect(document.paths[SEPA].post.responses['201'].headers['ASPSP-SCA-Approach'].schema.enum).toEqual(['DECOUPLED', 'EMBEDDED']);
  });

  it('a PSU and an account the profile added: the PSU authorises a payment from the account (decoupled, confirming at the second poll)', async () => {
    const created = await initiate(SEPA, sepaPayment('25.00', { debtorAccount: { iban: NEW_IBAN } }), { 'PSU-ID': 'lena.test' }).expect(
      201,
    );
    const { paymentId } = created.body;
    const [authorisationId] = (await get(`${SEPA}/${paymentId}/authorisations`).expect(200)).body.authorisationIds;
    const poll = `${SEPA}/${paymentId}/authorisations/${authorisationId}`;
    expect((await get(poll).expect(200)).body.scaStatus).toBe('started');
    expect((await get(poll).expect(200)).body.scaStatus).toBe('finalised');
    expect((await get(`${SEPA}/${paymentId}/status`).expect(200)).body).toEqual({ transactionStatus: 'ACSP' });
  });

  it('paymentProducts: a product not offered answers 404 PRODUCT_UNKNOWN and is absent from the document', async () => {
    const refused = berlinGroup(
      tppError('PRODUCT_UNKNOWN', '{sensitive} XS2A014E: payment product instant-sepa-credit-transfers unknown', 'payment-product'),
    );
    expect((await initiate('/v1/payments/instant-sepa-credit-transfers', sepaPayment('4.00')).expect(404)).body).toEqual(refused);
    expect((await get('/v1/payments/instant-sepa-credit-transfers/00000000-0000-4000-8000-000000000000/status').expect(404)).body).toEqual(
      refused,
    );
    const bulk = await initiate('/v1/bulk-payments/sepa-credit-transfers', { debtorAccount: { iban: MARIANNE }, payments: [] }).expect(404);
    expect(bulk.body).toEqual(
      berlinGroup(tppError('PRODUCT_UNKNOWN', '{sensitive} XS2A014E: payment product sepa-credit-transfers unknown', 'payment-product')),
    );
    await initiate(
      '/v1/periodic-payments/sepa-credit-transfers',
      sepaPayment('5.00', { startDate: '2026-04-01', frequency: 'Monthly' }),
    ).expect(201);

    const paths = Object.keys((await request(sandbox.http).get('/docs-json').expect(200)).body.paths).filter((url) =>
      /^\/v1\/(bulk-|periodic-)?payments\//.test(url),
    );
    expect(paths.filter((url) => !url.includes('{product}'))).toEqual([
      '/v1/payments/sepa-credit-transfers',
      '/v1/periodic-payments/sepa-credit-transfers',
    ]);
    expect(paths.some((url) => url.startsWith('/v1/bulk-payments/'))).toBe(false);
    const document = (await request(sandbox.http).get('/docs-json').expect(200)).body;
    const product = document.paths['/v1/payments/{product}/{paymentId}'].get.parameters.find(
      ({ name }: { name: string }) => name === 'product',
    );
    expect(product.schema.enum).toEqual(['sepa-credit-transfers']);
  });

  it('permissionDashboard: false: neither the page nor its headless routes are served, nor documented', async () => {
    await request(sandbox.http).get('/dashboard').expect(404);
    await request(sandbox.http).get('/sandbox/psus/lena.test/permissions').expect(404);
    const { paths, info } = (await request(sandbox.http).get('/docs-json').expect(200)).body;
    expect(Object.keys(paths).filter((path) => path.startsWith('/sandbox/psus'))).toEqual([]);
    expect(info.description).not.toContain('Permission dashboard');
  });

  it('consents: a later validUntil and a higher frequencyPerDay are cut down to the limits, and the consent shows what it got', async () => {
    const created = await request(sandbox.http)
      .post('/v1/consents')
      .set(tppHeaders({ 'TPP-Redirect-Preferred': 'false', 'PSU-ID': 'lena.test' }))
      .send({
        access: { balances: [{ iban: NEW_IBAN }] },
        recurringIndicator: true,
        combinedServiceIndicator: false,
        validUntil: '2027-12-31',
        frequencyPerDay: 10,
      })
      .expect(201);
    const consent = (await get(`/v1/consents/${created.body.consentId}`).expect(200)).body;
    expect(consent).toEqual({
      access: { balances: [{ iban: NEW_IBAN }] },
      recurringIndicator: true,
      validUntil: '2026-04-14',
      frequencyPerDay: 2,
      lastActionDate: '2026-03-15',
      consentStatus: 'received',
    });
    const asked = await request(sandbox.http)
      .post('/v1/consents')
      .set(tppHeaders())
      .send({
        access: { availableAccounts: 'allAccounts' },
        recurringIndicator: false,
        combinedServiceIndicator: false,
        validUntil: '2026-03-20',
        frequencyPerDay: 1,
      })
      .expect(201);
    expect((await get(`/v1/consents/${asked.body.consentId}`).expect(200)).body).toMatchObject({
      validUntil: '2026-03-20',
      frequencyPerDay: 1,
    });
  });
});

describe('the example profile, alpenbank: the walk of docs/profiles.md', () => {
  const sandbox = useSandbox({ PROFILE: 'alpenbank', SCA_MODE: 'redirect' });
  const ANNA = 'AT233999900000012345';
  const get = (url: string, headers: Record<string, string> = {}) => request(sandbox.http).get(url).set(tppHeaders(headers));
  const put = (url: string, body: object) => request(sandbox.http).put(url).set(tppHeaders()).send(body);

  it("reads Anna's accounts with the fixture consent", async () => {
    const accounts = await get('/v1/accounts?withBalance=true', { 'Consent-ID': 'alpenbank-consent-anna' }).expect(200);
    expect(accounts.body.accounts.map(({ iban, name, product }: Record<string, string>) => ({ iban, name, product }))).toEqual([
      { iban: ANNA, name: 'Anna Huber', product: 'Alpenkonto' },
      { iban: 'AT473999900000023456', name: 'Anna Huber Savings', product: 'Sparkonto' },
    ]);
    const transactions = await get(`/v1/accounts/${ANNA}/transactions?bookingStatus=both`, {
      'Consent-ID': 'alpenbank-consent-anna',
    }).expect(200);
    expect(transactions.body.transactions.booked.map(({ transactionId }: { transactionId: string }) => transactionId)).toEqual([
      'ALP-12345-1',
      'ALP-12345-2',
    ]);
    expect(transactions.body.transactions.pending.map(({ transactionId }: { transactionId: string }) => transactionId)).toEqual([
      'ALP-12345-3',
    ]);
  });

  it('checks payees with its stricter close match (0.85) and knows its own payee at another bank', async () => {
    const check = (iban: string, name: string) =>
      request(sandbox.http).post('/v1/payee-verifications').set(tppHeaders()).send({ partyAccount: { iban }, party: { name } }).expect(200);
    // One letter of twelve missing: 0.92; two letters off: 0.83, a close match by default, none here.
    expect((await check('AT713999900000034567', 'Josef Grubr')).body.partyNameMatch).toBe('CMTC');
    expect((await check('AT713999900000034567', 'Jozef Grubr')).body.partyNameMatch).toBe('NMTC');
    expect((await check('AT24120000012345678901', 'Wiener Wohnen Hausverwaltung')).body).toEqual({
      partyNameMatch: 'CMTC',
      matchedName: 'Wiener Wohnen Hausverwaltung GmbH',
      additionalInformation: 'The name is close to the one registered for the account (matchedName).',
    });
  });

  it('pays by instant transfer with embedded SCA: the payee checked (vop.mode: always), password, the card reader, the TAN; decoupled gets embedded; cross-border is not offered', async () => {
    const payment = {
      debtorAccount: { iban: ANNA },
      instructedAmount: { currency: 'EUR', amount: '80.00' },
      creditorAccount: { iban: 'AT713999900000034567' },
      creditorName: 'Josef Gruber',
    };
    const url = '/v1/payments/instant-sepa-credit-transfers';
    const created = await request(sandbox.http)
      .post(url)
      .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10', 'PSU-ID': 'anna.huber', 'TPP-Decoupled-Preferred': 'true' }))
      .send(payment)
      .expect(201);
    expect(created.headers['aspsp-sca-approach']).toBe('EMBEDDED');
    const checked = [{ transactionStatus: 'RCVC', creditorNameMatch: 'MTCH' }];
    expect(created.body.transactionStatus).toBe('RCVC');
    expect(created.body.originalTransactionInformationAndVopStatus).toEqual(checked);
    const { paymentId } = created.body;
    const [authorisationId] = (await get(`${url}/${paymentId}/authorisations`).expect(200)).body.authorisationIds;
    const path = `${url}/${paymentId}/authorisations/${authorisationId}`;
    expect(created.body._links.updatePsuAuthentication).toEqual({ href: path });
    expect(
      (await put(path, { psuData: { password: 'alpen' } }).expect(200)).body.scaMethods.map(
        ({ authenticationMethodId }: { authenticationMethodId: string }) => authenticationMethodId,
      ),
    ).toEqual(['sms', 'chip']);
    expect((await put(path, { authenticationMethodId: 'chip' }).expect(200)).body.chosenScaMethod).toEqual({
      authenticationType: 'CHIP_OTP',
      authenticationMethodId: 'chip',
      name: 'Alpenbank card reader',
    });
    expect((await put(path, { scaAuthenticationData: '123456' }).expect(200)).body.scaStatus).toBe('finalised');
    expect((await get(`${url}/${paymentId}/status`).expect(200)).body).toEqual({
      transactionStatus: 'ACSP',
      originalTransactionInformationAndVopStatus: checked,
    });

    await request(sandbox.http)
      .post('/v1/payments/cross-border-credit-transfers')
      .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
      .send(payment)
      .expect(404);
  });
});

describe('one database, one profile', () => {
  it('a database seeded with one profile refuses to start under another, naming both', async () => {
    const database = temporaryDatabase();
    try {
      await (await startSandbox({ PROFILE: 'bank' }, database)).close();
      await expect(startSandbox({ PROFILE: 'alpenbank' }, database)).rejects.toThrow(
        /was seeded with the profile bank \(PSD2 Sandbox Bank, [0-9a-f]{12}\), and this instance runs PROFILE=alpenbank \(Alpenbank, [0-9a-f]{12}\): every instance on one database must run the same profile/,
      );
      // The same profile starts again on it.
      await (await startSandbox({ PROFILE: 'bank' }, database)).close();
    } finally {
      await removeDatabase(database);
    }
  });
});
