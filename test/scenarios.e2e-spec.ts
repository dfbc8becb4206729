import request from 'supertest';
import { CREATED } from './support/profile';
import { isValidIban } from '../src/common/iban';
import { GEORG, MARIANNE, reference, VALID_CONSENT } from './support/fixtures';
import { allAccountsConsent, tppError, tppHeaders, useSandbox } from './support/sandbox';
import { Account } from '../src/bank/account.entity';

const scenario = (name: string, interimAvailable: string) => ({
  accounts: [
    {
      name,
      balances: { interimAvailable, forwardAvailable: '90.00' },
      booked: [
        {
          amount: '-42.50',
          bookingDate: '2026-03-01',
          counterpartyName: 'Stadtwerke Wien',
          counterpartyIban: 'AT483200000012345864',
          remittanceInformationUnstructured: 'Electricity',
        },
        {
          amount: '1500.00',
          bookingDate: '2026-03-05',
          counterpartyName: 'Muster GmbH',
          counterpartyIban: 'AT611904300234573201',
          remittanceInformationUnstructured: 'Salary',
        },
      ],
      pending: [{ amount: '-9.90', bookingDate: '2026-03-14', counterpartyName: 'Mobilfunk AG', counterpartyIban: 'AT022050302101023600' }],
      standingOrders: [
        {
          amount: '-650.00',
          counterpartyName: 'Hausverwaltung Muster',
          counterpartyIban: 'AT131490022010010999',
          startDate: '2026-01-01',
          frequency: 'Monthly',
          dayOfExecution: '1',
          remittanceInformationUnstructured: 'Rent',
        },
      ],
    },
    { name, currency: 'EUR', product: 'Savings', balances: { interimAvailable: '5000.00', forwardAvailable: '5000.00' } },
  ],
});

describe("scenarios: a suite's own test data", () => {
  const sandbox = useSandbox();
  const create = (body: object) => request(sandbox.http).post('/sandbox/scenarios').send(body);
  const read = (path: string, consentId: string) =>
    request(sandbox.http)
      .get(path)
      .set(tppHeaders({ 'Consent-ID': consentId }));

  it("two scenarios created in parallel: each reads its own accounts and never the other's; deleting one leaves the other", async () => {
    const [first, second] = (await Promise.all([create(scenario('Anna Test', '100.00')), create(scenario('Ben Test', '200.00'))])).map(
      (response) => {
        expect(response.status).toBe(201);
        return response.body;
      },
    );
    for (const created of [first, second]) {
      expect(created).toEqual({
        scenarioId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        psuId: `scenario-${created.scenarioId}`,
        password: 'sandbox',
        consentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        accounts: [
          { resourceId: created.accounts[0].iban, iban: created.accounts[0].iban, currency: 'EUR', name: expect.any(String) },
          { resourceId: created.accounts[1].iban, iban: created.accounts[1].iban, currency: 'EUR', name: expect.any(String) },
        ],
      });
      for (const { iban } of created.accounts) expect(isValidIban(iban)).toBe(true);
    }

    const own = await read('/v1/accounts?withBalance=true', first.consentId).expect(200);
    expect(own.body.accounts.map((account: { iban: string }) => account.iban)).toEqual(
      first.accounts.map((account: { iban: string }) => account.iban),
    );
    expect(own.body.accounts[0]).toMatchBody({ name: 'Anna Test', product: 'Giro', bic: 'TESTAT99' });
    expect(own.body.accounts[0].balances.map((balance: { balanceAmount: { amount: string } }) => balance.balanceAmount.amount)).toEqual([
      '90.00',
      '100.00',
    ]);

    const theirs = second.accounts[0].iban;
    for (const path of [
      `/v1/accounts/${theirs}`,
      `/v1/accounts/${theirs}/balances`,
      `/v1/accounts/${theirs}/transactions?bookingStatus=booked`,
    ]) {
      const response = await read(path, first.consentId).expect(404);
      expect(response.body).toEqualBody(
        tppError('RESOURCE_UNKNOWN', `{sensitive} XS2A016E: resource ${theirs} unknown, not found or not part of the current consent`),
      );
    }

    await request(sandbox.http).delete(`/sandbox/scenarios/${first.scenarioId}`).expect(204);
    await read('/v1/accounts', first.consentId).expect(403);
    const stillThere = await read(`/v1/accounts/${theirs}/transactions?bookingStatus=both`, second.consentId).expect(200);
    expect(stillThere.body.transactions.booked).toHaveLength(2);
    const again = await request(sandbox.http).delete(`/sandbox/scenarios/${first.scenarioId}`).expect(404);
    expect(again.body).toEqualBody(tppError('RESOURCE_UNKNOWN', `{sensitive} XS2A023E: scenario ${first.scenarioId} unknown`));
  });

  it("transactions and standing orders come in the bank's shape", async () => {
    const { consentId, accounts } = (await create(scenario('Cara Test', '100.00')).expect(201)).body;
    const iban = accounts[0].iban;
    const booked = (await read(`/v1/accounts/${iban}/transactions?bookingStatus=both`, consentId).expect(200)).body;
    expect(booked.transactions.booked[0]).toMatchBody({
      bookingDate: '2026-03-05',
      valueDate: '2026-03-05',
      transactionAmount: { currency: 'EUR', amount: '1500.00' },
      creditorName: 'Cara Test',
      creditorAccount: reference(iban),
      debtorAccount: reference('AT611904300234573201'),
      bankTransactionCode: 'PMNT-RCDT-ESCT',
    });
    expect(booked.transactions.pending).toMatchBody([{ bookingDate: '2026-03-14', valueDate: null }]);
    const information = (await read(`/v1/accounts/${iban}/transactions?bookingStatus=information`, consentId).expect(200)).body.transactions
      .information;
    expect(information[0].additionalInformationStructured.standingOrderDetails).toEqualBody({
      startDate: '2026-01-01',
      frequency: 'Monthly',
      endDate: null,
      executionRule: 'preceding',
      withinAMonthFlag: null,
      monthsOfExecution: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'],
      multiplicator: null,
      dayOfExecution: '1',
      limitAmount: null,
    });
  });

  it('scenario accounts behave like the fixtures: the funds rule and SCA by their PSU', async () => {
    const { accounts, psuId } = (await create(scenario('Dan Test', '100.00')).expect(201)).body;
    const pay = (amount: string) =>
      request(sandbox.http)
        .post('/v1/payments/sepa-credit-transfers')
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send({
          debtorAccount: { iban: accounts[0].iban },
          instructedAmount: { currency: 'EUR', amount },
          creditorAccount: { iban: GEORG },
          creditorName: 'Georg Mustermann',
        })
        .expect(CREATED);
    const funded = (await pay('100.00')).body.paymentId;
    const overdrawn = (await pay('100.01')).body.paymentId;
    await request(sandbox.http)
      .post(`/sandbox/sca/payments/${funded}`)
      .send({ psuId: 'georg.mustermann', decision: 'approve' })
      .expect(401);
    expect(
      (await request(sandbox.http).post(`/sandbox/sca/payments/${funded}`).send({ psuId, decision: 'approve' }).expect(200)).body,
    ).toEqualBody({ transactionStatus: 'ACSP' });
    expect(
      (await request(sandbox.http).post(`/sandbox/sca/payments/${overdrawn}`).send({ psuId, decision: 'approve' }).expect(200)).body,
    ).toEqualBody({ transactionStatus: 'RJCT' });
  });

  it("stays out of the bank's consents: the fixture consent and new allAccounts consents do not see scenario accounts", async () => {
    const { accounts } = (await create(scenario('Eve Test', '100.00')).expect(201)).body;
    const fixture = await read('/v1/accounts', VALID_CONSENT).expect(200);
    expect(fixture.body.accounts.map((account: { iban: string }) => account.iban)).toEqual([MARIANNE, GEORG]);
    const consentId = await allAccountsConsent(sandbox.http);
    const all = await read('/v1/accounts', consentId).expect(200);
    expect(all.body.accounts).toHaveLength(5);
    await read(`/v1/accounts/${accounts[0].iban}`, consentId).expect(404);
  });

  it.each([
    [{}, 'accounts', 'accounts is required'],
    [{ accounts: [] }, 'accounts', 'accounts must contain at least 1 elements'],
    [{ accounts: [{ name: 'X' }] }, 'accounts[0].balances', 'accounts[0].balances is required'],
    [{ accounts: [[]] }, 'accounts', 'each item of accounts must be an object'],
    [{ accounts: [{ name: 'X', balances: [] }] }, 'accounts[0].balances', 'accounts[0].balances must be an object'],
    [
      { accounts: [{ name: 'X', balances: { interimAvailable: '1', forwardAvailable: '1' }, booked: [[]] }] },
      'accounts[0].booked',
      'each item of accounts[0].booked must be an object',
    ],
    [
      { accounts: [{ name: 'X', balances: { interimAvailable: 'lots', forwardAvailable: '1' } }] },
      'accounts[0].balances.interimAvailable',
      'accounts[0].balances.interimAvailable must be a decimal string such as "-42.50"',
    ],
    [
      { accounts: [{ name: 'X', balances: { interimAvailable: '1', forwardAvailable: '1' }, booked: 'none' }] },
      'accounts[0].booked',
      'accounts[0].booked must be an array',
    ],
    [
      {
        accounts: [
          {
            name: 'X',
            balances: { interimAvailable: '1', forwardAvailable: '1' },
            booked: [{ amount: '1', bookingDate: '2026-02-30', counterpartyName: 'Y', counterpartyIban: GEORG }],
          },
        ],
      },
      'accounts[0].booked[0].bookingDate',
      'accounts[0].booked[0].bookingDate must be a real date written YYYY-MM-DD, from 1000-01-01 to 9999-12-31',
    ],
  ])('refuses %j with FORMAT_ERROR naming the field, storing nothing', async (body, path, description) => {
    const before = await sandbox.dataSource.getRepository(Account).count();
    const response = await create(body).expect(400);
    expect(response.body).toEqualBody(tppError('FORMAT_ERROR', `{sensitive} XS2A001E: ${description}`, path));
    expect(await sandbox.dataSource.getRepository(Account).count()).toEqual(before);
  });
});

describe('scenarios: optional fields sent as null', () => {
  const sandbox = useSandbox();

  it('count as absent: the defaults apply', async () => {
    const response = await request(sandbox.http)
      .post('/sandbox/scenarios')
      .send({
        accounts: [
          {
            name: 'Null Test',
            currency: null,
            product: null,
            balances: { interimAvailable: '1.00', forwardAvailable: '1.00' },
            booked: null,
            pending: null,
            standingOrders: null,
          },
        ],
      })
      .expect(201);
    expect(response.body.accounts).toEqualBody([expect.objectContaining({ currency: 'EUR', name: 'Null Test' })]);
    const transactions = await request(sandbox.http)
      .get(`/v1/accounts/${response.body.accounts[0].iban}/transactions?bookingStatus=both`)
      .set(tppHeaders({ 'Consent-ID': response.body.consentId }))
      .expect(200);
    expect(transactions.body.transactions).toMatchBody({ booked: [], pending: [], information: null });
  });
});
