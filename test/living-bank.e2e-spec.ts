import fc from 'fast-check';
import request from 'supertest';
import { CREATED } from './support/profile';
import { GEORG, reference, transaction } from './support/fixtures';
import { removeDatabase, Sandbox, startSandbox, tppError, tppHeaders, useSandbox } from './support/sandbox';

interface Scenario {
  psuId: string;
  consentId: string;
  accounts: { iban: string }[];
}

type Entry = Record<string, unknown> & { transactionId: string };

const MONTHS = Array.from({ length: 12 }, (_, month) => String(month + 1));

/** A booking the sandbox makes, whole, in the bank's transaction shape (docs/living-bank.md). */
function booking(fields: {
  transactionId: string | RegExp;
  date: string;
  valueDate?: string | null;
  amount: string;
  creditorName: string;
  creditor: string | null;
  debtor: string;
  debtorName?: string | null;
  endToEndId?: string | null;
  remittance?: string;
  code: string | null;
}) {
  return transaction({
    transactionId: typeof fields.transactionId === 'string' ? fields.transactionId : expect.stringMatching(fields.transactionId),
    endToEndId: fields.endToEndId ?? null,
    bookingDate: fields.date,
    valueDate: fields.valueDate === undefined ? fields.date : fields.valueDate,
    transactionAmount: { currency: 'EUR', amount: fields.amount },
    creditorName: fields.creditorName,
    creditorAccount: fields.creditor === null ? null : reference(fields.creditor),
    debtorName: fields.debtorName ?? null,
    debtorAccount: reference(fields.debtor),
    remittanceInformationUnstructured: fields.remittance ?? '',
    bankTransactionCode: fields.code,
  });
}

/** The helpers every test here uses, on the given sandbox. */
function bank(sandbox: Sandbox) {
  const http = () => request(sandbox.http);
  const read = (path: string, consentId: string) =>
    http()
      .get(path)
      .set(tppHeaders({ 'Consent-ID': consentId, 'PSU-IP-Address': '192.0.2.10' }));
  return {
    setClock: (today: string) => http().put('/sandbox/clock').send({ today }).expect(200),
    advance: (days: number) => http().post('/sandbox/clock/advance').send({ days }).expect(200),
    async scenario(...amounts: string[]): Promise<Scenario> {
      const accounts = amounts.map((amount, index) => ({
        name: `Holder ${index + 1}`,
        balances: { interimAvailable: amount, forwardAvailable: amount },
      }));
      return (await http().post('/sandbox/scenarios').send({ accounts }).expect(201)).body;
    },
    async pay(service: string, body: object): Promise<string> {
      return (
        await http()
          .post(`/v1/${service}/sepa-credit-transfers`)
          .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
          .send(body)
          .expect(CREATED)
      ).body.paymentId;
    },
    /** The holder approves the payment, or with `/cancellation` its cancellation; answers the status. */
    async approve(paymentId: string, psuId: string, what = ''): Promise<string> {
      return (await http().post(`/sandbox/sca/payments/${paymentId}${what}`).send({ psuId, decision: 'approve' }).expect(200)).body
        .transactionStatus;
    },
    async balances({ accounts, consentId }: Scenario, index: number): Promise<Record<string, string>> {
      const { balances } = (await read(`/v1/accounts/${accounts[index].iban}/balances`, consentId).expect(200)).body;
      return Object.fromEntries(
        balances.map((balance: { balanceType: string; balanceAmount: { amount: string } }) => [
          balance.balanceType,
          balance.balanceAmount.amount,
        ]),
      );
    },
    async entries({ accounts, consentId }: Scenario, index: number, bookingStatus = 'booked'): Promise<Entry[]> {
      return (await read(`/v1/accounts/${accounts[index].iban}/transactions?bookingStatus=${bookingStatus}`, consentId).expect(200)).body
        .transactions[bookingStatus];
    },
    instalments: async (paymentId: string) => (await http().get(`/sandbox/payments/${paymentId}/instalments`).expect(200)).body,
    read,
    http,
  };
}

const transfer = (debtor: string, creditor: string, amount: string, extra: object = {}) => ({
  debtorAccount: { iban: debtor },
  instructedAmount: { currency: 'EUR', amount },
  creditorAccount: { iban: creditor },
  creditorName: creditor === GEORG ? 'Georg Mustermann' : 'Holder 2',
  ...extra,
});

describe('a living bank: executed payments move scenario accounts', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });
  const { setClock, advance, scenario, pay, approve, balances, entries, instalments, read, http } = bank(sandbox);

  it('a payment A→B of one scenario debits A and credits B, moves both balances, and answers its details', async () => {
    await setClock('2026-04-01');
    const own = await scenario('1000.00', '50.00');
    const [a, b] = own.accounts.map(({ iban }) => iban);
    const paymentId = await pay(
      'payments',
      transfer(a, b, '100.25', { endToEndIdentification: 'E2E-RENT-04', remittanceInformationUnstructured: 'Rent April' }),
    );
    expect(await approve(paymentId, own.psuId)).toBe('ACSP');

    const debit = booking({
      transactionId: /^[0-9a-z]{1,25}-D$/,
      date: '2026-04-01',
      amount: '-100.25',
      creditorName: 'Holder 2',
      creditor: b,
      debtor: a,
      endToEndId: 'E2E-RENT-04',
      remittance: 'Rent April',
      code: 'PMNT-ICDT-ESCT',
    });
    const [booked] = await entries(own, 0);
    expect(await entries(own, 0)).toEqual([debit]);
    expect(await entries(own, 1)).toEqual([
      booking({
        transactionId: booked.transactionId.replace(/D$/, 'C'),
        date: '2026-04-01',
        amount: '100.25',
        creditorName: 'Holder 2',
        creditor: b,
        debtor: a,
        debtorName: 'Holder 1',
        endToEndId: 'E2E-RENT-04',
        remittance: 'Rent April',
        code: 'PMNT-RCDT-ESCT',
      }),
    ]);
    const balance = (amount: string, balanceType: string) => ({
      balanceAmount: { currency: 'EUR', amount },
      balanceType,
      lastChangeDateTime: null,
      referenceDate: '2026-04-01',
      lastCommittedTransaction: null,
    });
    const response = await read(`/v1/accounts/${a}/balances`, own.consentId).expect(200);
    expect(response.body).toEqual({
      account: null,
      balances: [balance('899.75', 'forwardAvailable'), balance('899.75', 'interimAvailable')],
    });
    expect(await balances(own, 1)).toEqual({ forwardAvailable: '150.25', interimAvailable: '150.25' });

    const details = await read(`/v1/accounts/${a}/transactions/${booked.transactionId}`, own.consentId).expect(200);
    expect(details.body).toEqual({ transactionsDetails: { transactionDetails: debit } });
  });

  it("never books across scenarios: paying another scenario's account credits nothing there", async () => {
    await setClock('2026-04-01');
    const [own, other] = [await scenario('100.00'), await scenario('10.00')];
    const theirs = other.accounts[0].iban;
    expect(await approve(await pay('payments', transfer(own.accounts[0].iban, theirs, '40.00')), own.psuId)).toBe('ACSP');
    expect(await entries(own, 0)).toEqual([
      expect.objectContaining({ transactionAmount: { currency: 'EUR', amount: '-40.00' }, creditorAccount: reference(theirs) }),
    ]);
    expect(await entries(other, 0)).toEqual([]);
    expect(await balances(other, 0)).toEqual({ forwardAvailable: '10.00', interimAvailable: '10.00' });
  });

  it('a future-dated payment is pending from SCA, then booked on its own date as the clock passes it; a cancelled one disappears', async () => {
    await setClock('2026-04-01');
    const own = await scenario('500.00', '0.00');
    const [a, b] = own.accounts.map(({ iban }) => iban);
    const paymentId = await pay(
      'payments',
      transfer(a, b, '200.00', { requestedExecutionDate: '2026-04-10', endToEndIdentification: 'E2E-10' }),
    );
    expect(await approve(paymentId, own.psuId)).toBe('PDNG');
    const pending = booking({
      transactionId: /-D$/,
      date: '2026-04-10',
      valueDate: null,
      amount: '-200.00',
      creditorName: 'Holder 2',
      creditor: b,
      debtor: a,
      endToEndId: 'E2E-10',
      code: null,
    });
    expect(await entries(own, 0, 'pending')).toEqual([pending]);
    expect(await entries(own, 1, 'pending')).toEqual([]);
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '300.00', interimAvailable: '500.00' });

    const cancelled = await pay('payments', transfer(a, b, '100.00', { requestedExecutionDate: '2026-04-20' }));
    expect(await approve(cancelled, own.psuId)).toBe('PDNG');
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '200.00', interimAvailable: '500.00' });
    await http().delete(`/v1/payments/sepa-credit-transfers/${cancelled}`).set(tppHeaders()).expect(202);
    expect(await approve(cancelled, own.psuId, '/cancellation')).toBe('CANC');
    expect(await entries(own, 0, 'pending')).toEqual([pending]);
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '300.00', interimAvailable: '500.00' });

    // On its way to the 11th the clock passes the 10th: booked on the 10th, under the ID it had while pending.
    await advance(10);
    const [{ transactionId }] = await entries(own, 0, 'booked');
    expect(await entries(own, 0, 'booked')).toEqual([
      { ...pending, transactionId, valueDate: '2026-04-10', bankTransactionCode: 'PMNT-ICDT-ESCT' },
    ]);
    expect(transactionId).toMatch(/-D$/);
    expect(await entries(own, 0, 'pending')).toEqual([]);
    expect(await entries(own, 1)).toEqual([
      expect.objectContaining({
        bookingDate: '2026-04-10',
        transactionAmount: { currency: 'EUR', amount: '200.00' },
        debtorName: 'Holder 1',
      }),
    ]);
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '300.00', interimAvailable: '300.00' });
    expect(await balances(own, 1)).toEqual({ forwardAvailable: '200.00', interimAvailable: '200.00' });
    const status = await http().get(`/v1/payments/sepa-credit-transfers/${paymentId}/status`).set(tppHeaders()).expect(200);
    expect(status.body).toEqual({ transactionStatus: 'ACSP' });
  });

  it('the funds rule reads the live balance: a second payment that no longer fits is RJCT and books nothing', async () => {
    await setClock('2026-04-01');
    const own = await scenario('100.00');
    const a = own.accounts[0].iban;
    expect(await approve(await pay('payments', transfer(a, GEORG, '80.00')), own.psuId)).toBe('ACSP');
    expect(await approve(await pay('payments', transfer(a, GEORG, '30.00')), own.psuId)).toBe('RJCT');
    expect(await entries(own, 0)).toEqual([expect.objectContaining({ transactionAmount: { currency: 'EUR', amount: '-80.00' } })]);
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '20.00', interimAvailable: '20.00' });
  });

  it('future-dated payments meet the funds rule again on their date: of three of 60.00 approved from 100.00, one executes, the others are RJCT with AM04 and book nothing', async () => {
    await setClock('2026-04-01');
    const own = await scenario('100.00', '0.00');
    const [a, b] = own.accounts.map(({ iban }) => iban);
    const payments: string[] = [];
    for (const day of ['10', '11', '12'])
      payments.push(await pay('payments', transfer(a, b, '60.00', { requestedExecutionDate: `2026-04-${day}` })));
    // Each fits the balance at its approval: an approval reserves nothing ahead of its date.
    for (const paymentId of payments) expect(await approve(paymentId, own.psuId)).toBe('PDNG');
    await advance(14);
    const statuses = [];
    for (const paymentId of payments)
      statuses.push((await http().get(`/v1/payments/sepa-credit-transfers/${paymentId}`).set(tppHeaders()).expect(200)).body);
    expect(statuses.map(({ transactionStatus }) => transactionStatus)).toEqual(['ACSP', 'RJCT', 'RJCT']);
    expect(await entries(own, 0)).toEqual([expect.objectContaining({ transactionAmount: { currency: 'EUR', amount: '-60.00' } })]);
    expect(await entries(own, 0, 'pending')).toEqual([]);
    // No money is made: what the payer lost, the payee got, and no more.
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '40.00', interimAvailable: '40.00' });
    expect(await balances(own, 1)).toEqual({ forwardAvailable: '60.00', interimAvailable: '60.00' });
    const status = await http().get(`/v1/payments/sepa-credit-transfers/${payments[1]}/status`).set(tppHeaders()).expect(200);
    expect(status.body.transactionStatusReason).toBe('AM04');
    const { events } = (await http().get(`/sandbox/events?resourceId=${payments[1]}`).expect(200)).body;
    expect(
      events.filter(({ event }: Record<string, string>) => event === 'EXECUTE').map(({ from, to }: Record<string, string>) => [from, to]),
    ).toEqual([['PDNG', 'RJCT']]);
  });

  it('no balance passes the ceiling of an amount: a credit or a pending debit that would is RJCT with AM02 and books nothing; a bulk beyond it is 400', async () => {
    await setClock('2026-04-01');
    const own = await scenario('99999999999999.00', '99999999999999.00');
    const [a, b] = own.accounts.map(({ iban }) => iban);
    const atOnce = await pay('payments', transfer(a, b, '1.00'));
    expect(await approve(atOnce, own.psuId)).toBe('RJCT');
    const status = await http().get(`/v1/payments/sepa-credit-transfers/${atOnce}/status`).set(tppHeaders()).expect(200);
    expect(status.body).toEqual({
      transactionStatus: 'RJCT',
      transactionStatusReason: 'AM02',
      psuMessage: 'Rejected (AM02): the amount would take a balance beyond what an account holds.',
    });
    // Pending debits bind forwardAvailable: the third would take it below -99999999999999.999.
    const ahead = [];
    for (const day of ['10', '11', '12'])
      ahead.push(await pay('payments', transfer(a, GEORG, '99999999999999.000', { requestedExecutionDate: `2026-04-${day}` })));
    const statuses = [];
    for (const paymentId of ahead) statuses.push(await approve(paymentId, own.psuId));
    expect(statuses).toEqual(['PDNG', 'PDNG', 'RJCT']);
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '-99999999999999.00', interimAvailable: '99999999999999.00' });
    expect(await balances(own, 1)).toEqual({ forwardAvailable: '99999999999999.00', interimAvailable: '99999999999999.00' });
    const entry = {
      instructedAmount: { currency: 'EUR', amount: '99999999999999.999' },
      creditorAccount: { iban: GEORG },
      creditorName: 'G',
    };
    const bulk = await http()
      .post('/v1/bulk-payments/sepa-credit-transfers')
      .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
      .send({ debtorAccount: { iban: a }, payments: [entry, entry] })
      .expect(400);
    expect(bulk.body).toEqual(
      tppError(
        'FORMAT_ERROR',
        "{sensitive} XS2A001E: the payments' instructedAmounts add up to 199999999999999.998, beyond 99999999999999.999",
        'payments',
      ),
    );
  });

  it('approvals racing on one account: exactly as many execute as the balance covers, each booked once', async () => {
    await setClock('2026-04-01');
    const own = await scenario('100.00');
    const a = own.accounts[0].iban;
    const payments = await Promise.all(Array.from({ length: 10 }, () => pay('payments', transfer(a, GEORG, '30.00'))));
    const statuses = await Promise.all(payments.map((paymentId) => approve(paymentId, own.psuId)));
    expect(statuses.filter((status) => status === 'ACSP')).toHaveLength(3);
    expect(statuses.filter((status) => status === 'RJCT')).toHaveLength(7);
    expect(await entries(own, 0)).toHaveLength(3);
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '10.00', interimAvailable: '10.00' });
  });

  it('a monthly order books one instalment a month over a ten-week jump, is listed as a standing order while active, and none after its cancellation', async () => {
    await setClock('2026-05-04');
    const own = await scenario('1000.00', '0.00');
    const [a, b] = own.accounts.map(({ iban }) => iban);
    const order = {
      ...transfer(a, b, '100.00', { remittanceInformationUnstructured: 'Rent' }),
      startDate: '2026-05-10',
      frequency: 'Monthly',
      dayOfExecution: '10',
    };
    const paymentId = await pay('periodic-payments', order);
    expect(await approve(paymentId, own.psuId)).toBe('PDNG');
    const [standingOrder] = await entries(own, 0, 'information');
    expect(standingOrder).toEqual({
      ...booking({
        transactionId: /-S$/,
        date: '',
        amount: '-100.00',
        creditorName: 'Holder 2',
        creditor: b,
        debtor: a,
        remittance: 'Rent',
        code: 'PMNT-ICDT-STDO',
      }),
      bookingDate: null,
      valueDate: null,
      additionalInformationStructured: {
        standingOrderDetails: {
          startDate: '2026-05-10',
          frequency: 'Monthly',
          endDate: null,
          executionRule: 'following',
          withinAMonthFlag: null,
          monthsOfExecution: MONTHS,
          multiplicator: null,
          dayOfExecution: '10',
          limitAmount: null,
        },
      },
    });

    await advance(70); // 2026-07-13; the 10th of May is a Sunday: following, it runs on Monday the 11th
    const instalment = (number: number, date: string) =>
      booking({
        transactionId: new RegExp(`-${number}D$`),
        date,
        amount: '-100.00',
        creditorName: 'Holder 2',
        creditor: b,
        debtor: a,
        remittance: 'Rent',
        code: 'PMNT-ICDT-STDO',
      });
    expect(await entries(own, 0)).toEqual([instalment(3, '2026-07-10'), instalment(2, '2026-06-10'), instalment(1, '2026-05-11')]);
    expect((await entries(own, 1)).map(({ bookingDate }) => bookingDate)).toEqual(['2026-07-10', '2026-06-10', '2026-05-11']);
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '700.00', interimAvailable: '700.00' });
    expect(await balances(own, 1)).toEqual({ forwardAvailable: '300.00', interimAvailable: '300.00' });
    expect(await instalments(paymentId)).toEqual({ instalmentsRun: 3, nextExecutionDate: '2026-08-10', failed: [] });
    expect(await entries(own, 0, 'information')).toEqual([standingOrder]);

    const cancel = await http().delete(`/v1/periodic-payments/sepa-credit-transfers/${paymentId}`).set(tppHeaders()).expect(202);
    expect(cancel.body).toEqual({
      transactionStatus: 'ACSP',
      scaMethods: [],
      _links: { startAuthorisation: { href: 'cancellation_authorisation_not_available' } },
    });
    expect(await approve(paymentId, own.psuId, '/cancellation')).toBe('CANC');
    expect(await entries(own, 0, 'information')).toEqual([]);
    await advance(60);
    expect(await entries(own, 0)).toHaveLength(3);
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '700.00', interimAvailable: '700.00' });
    expect(await instalments(paymentId)).toEqual({ instalmentsRun: 3, nextExecutionDate: null, failed: [] });
  });

  it('an instalment the balance cannot cover books nothing and is listed as failed (AM04); the order ends after its endDate', async () => {
    await setClock('2026-06-01');
    const own = await scenario('150.00');
    const a = own.accounts[0].iban;
    const paymentId = await pay('periodic-payments', {
      ...transfer(a, GEORG, '100.00'),
      startDate: '2026-06-01',
      endDate: '2026-08-31',
      frequency: 'Monthly',
    });
    expect(await approve(paymentId, own.psuId)).toBe('ACSP'); // the first instalment runs today
    expect(await entries(own, 0)).toEqual([
      expect.objectContaining({ bookingDate: '2026-06-01', transactionAmount: { currency: 'EUR', amount: '-100.00' } }),
    ]);
    await advance(31);
    expect(await instalments(paymentId)).toEqual({
      instalmentsRun: 2,
      nextExecutionDate: '2026-08-03', // the 1st of August is a Saturday
      failed: [{ number: 2, dueDate: '2026-07-01', executionDate: '2026-07-01', reasonCode: 'AM04' }],
    });
    expect(await entries(own, 0)).toHaveLength(1);
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '50.00', interimAvailable: '50.00' });
    await advance(100);
    expect(await instalments(paymentId)).toEqual({
      instalmentsRun: 3,
      nextExecutionDate: null,
      failed: [
        { number: 2, dueDate: '2026-07-01', executionDate: '2026-07-01', reasonCode: 'AM04' },
        { number: 3, dueDate: '2026-08-01', executionDate: '2026-08-03', reasonCode: 'AM04' },
      ],
    });
    expect(await entries(own, 0, 'information')).toEqual([]);
  });

  it('a bulk books each of its payments, or one sum with batchBookingPreferred', async () => {
    await setClock('2026-04-01');
    const own = await scenario('1000.00', '0.00');
    const [a, b] = own.accounts.map(({ iban }) => iban);
    const entriesOf = (batchBookingPreferred: boolean | string) => ({
      batchBookingPreferred,
      debtorAccount: { iban: a },
      payments: [
        {
          instructedAmount: { currency: 'EUR', amount: '10.00' },
          creditorAccount: { iban: b },
          creditorName: 'Holder 2',
          endToEndIdentification: 'E2E-1',
        },
        {
          instructedAmount: { currency: 'EUR', amount: '20.00' },
          creditorAccount: { iban: GEORG },
          creditorName: 'Georg Mustermann',
          remittanceInformationUnstructured: 'Invoice',
        },
      ],
    });
    expect(await approve(await pay('bulk-payments', entriesOf(false)), own.psuId)).toBe('ACSP');
    expect(await entries(own, 0)).toEqual([
      booking({
        transactionId: /-D1$/,
        date: '2026-04-01',
        amount: '-10.00',
        creditorName: 'Holder 2',
        creditor: b,
        debtor: a,
        endToEndId: 'E2E-1',
        code: 'PMNT-ICDT-ESCT',
      }),
      booking({
        transactionId: /-D2$/,
        date: '2026-04-01',
        amount: '-20.00',
        creditorName: 'Georg Mustermann',
        creditor: GEORG,
        debtor: a,
        remittance: 'Invoice',
        code: 'PMNT-ICDT-ESCT',
      }),
    ]);
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '970.00', interimAvailable: '970.00' });

    const batch = await pay('bulk-payments', entriesOf('true'));
    expect(await approve(batch, own.psuId)).toBe('ACSP');
    const booked = await entries(own, 0);
    expect(booked).toHaveLength(3);
    expect(booked).toContainEqual(
      booking({
        transactionId: /-D$/,
        date: '2026-04-01',
        amount: '-30.00',
        creditorName: '',
        creditor: null,
        debtor: a,
        remittance: 'Batch booking of 2 payments',
        code: 'PMNT-ICDT-ESCT',
      }),
    );
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '940.00', interimAvailable: '940.00' });
    // Each creditor of the scenario still sees its own credit.
    expect((await entries(own, 1)).map(({ transactionAmount }) => transactionAmount)).toEqual([
      { currency: 'EUR', amount: '10.00' },
      { currency: 'EUR', amount: '10.00' },
    ]);
  });

  it('no sequence of payments, bulks, orders, denials, cancellations and clock moves makes money (a property of random runs)', async () => {
    await setClock('2026-04-01');
    // Amounts near the balances, so that payments that fit one by one often do not fit together.
    const cents = (min: number, max: number) => fc.integer({ min, max }).map((value) => (value / 100).toFixed(2));
    const money = cents(1, 40_000);
    const party = fc.integer({ min: 0, max: 1 });
    // Another scenario account, or the bank's fixture account outside: where money may leave, never come from.
    const payee = fc.oneof(party, fc.constant('out' as const));
    const decision = fc.constantFrom('approve', 'approve', 'approve', 'deny');
    const inDays = fc.integer({ min: 0, max: 20 });
    // Future-dated payments most: approvals reserve nothing, so their dates are where money could be made.
    const command = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record({ kind: fc.constant('single' as const), from: party, to: payee, amount: money, inDays, decision }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('bulk' as const),
          from: party,
          to: fc.tuple(payee, payee),
          amount: fc.tuple(money, money),
          inDays,
          decision,
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('order' as const), from: party, to: payee, amount: money, inDays, decision }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), which: fc.nat() }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 45 }) }) },
    );
    let today = '2026-04-01';
    const later = (days: number) => new Date(Date.parse(today) + days * 86_400_000).toISOString().slice(0, 10);
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(fc.tuple(cents(10_000, 60_000), cents(0, 60_000)), fc.array(command, { minLength: 3, maxLength: 12 })),
        async ([openings, commands]) => {
          const own = await scenario(...openings);
          const ibans = own.accounts.map(({ iban }) => iban);
          const creditor = (to: number | 'out') => (to === 'out' ? GEORG : ibans[to]);
          const made: { paymentId: string; service: string }[] = [];
          for (const step of commands) {
            if (step.kind === 'advance') {
              await advance(step.days);
              today = later(step.days);
              await holds();
              continue;
            }
            if (step.kind === 'cancel') {
              if (!made.length) continue;
              const { paymentId, service } = made[step.which % made.length];
              const asked = await http().delete(`/v1/${service}/sepa-credit-transfers/${paymentId}`).set(tppHeaders());
              expect([202, 204, 400, 405, 409]).toContain(asked.status);
              if (asked.status === 202)
                expect([200, 409]).toContain(
                  (await http().post(`/sandbox/sca/payments/${paymentId}/cancellation`).send({ psuId: own.psuId, decision: 'approve' }))
                    .status,
                );
              continue;
            }
            const from = ibans[step.from];
            const date = step.inDays ? { requestedExecutionDate: later(step.inDays) } : {};
            const [service, body] =
              step.kind === 'single'
                ? ['payments', transfer(from, creditor(step.to), step.amount, date)]
                : step.kind === 'bulk'
                  ? [
                      'bulk-payments',
                      {
                        debtorAccount: { iban: from },
                        ...date,
                        payments: step.to.map((to, index) => ({
                          instructedAmount: { currency: 'EUR', amount: step.amount[index] },
                          creditorAccount: { iban: creditor(to) },
                          creditorName: to === 'out' ? 'Georg Mustermann' : 'Holder 2',
                        })),
                      },
                    ]
                  : [
                      'periodic-payments',
                      {
                        ...transfer(from, creditor(step.to), step.amount),
                        startDate: later(step.inDays),
                        endDate: later(step.inDays + 100),
                        frequency: 'Monthly',
                      },
                    ];
            const paymentId = await pay(service, body);
            made.push({ paymentId, service });
            await http().post(`/sandbox/sca/payments/${paymentId}`).send({ psuId: own.psuId, decision: step.decision }).expect(200);
          }
          await advance(130);
          today = later(130);
          await holds();

          /** What the scenario's accounts hold and list must add up: no money made, none lost. */
          async function holds(): Promise<void> {
            const booked = await Promise.all(ibans.map((_, index) => allEntries(index, 'booked')));
            const pending = await Promise.all(ibans.map((_, index) => allEntries(index, 'pending')));
            const sum = (entries: Entry[]) =>
              entries.reduce((total, entry) => total + Math.round(Number((entry.transactionAmount as { amount: string }).amount) * 100), 0);
            for (const [index, opening] of openings.entries()) {
              const { interimAvailable, forwardAvailable } = await balances(own, index);
              const interim = Math.round(Number(interimAvailable) * 100);
              // Each balance is its opening and what booked on it; what is promised binds forwardAvailable; the funds rule lets none go below zero.
              expect(interim).toBe(Math.round(Number(opening) * 100) + sum(booked[index]));
              expect(Math.round(Number(forwardAvailable) * 100)).toBe(interim + sum(pending[index]));
              expect(interim).toBeGreaterThanOrEqual(0);
            }
            // Every credit on a scenario account is one debit of another, of the same amount on the same day, and the other way round.
            const transfers = (entries: Entry[], sign: 1 | -1) =>
              entries
                .filter((entry) => Math.sign(Number((entry.transactionAmount as { amount: string }).amount)) === sign)
                .map((entry) => {
                  const other = ((sign === 1 ? entry.debtorAccount : entry.creditorAccount) as { iban: string } | null)?.iban;
                  return { entry, other };
                });
            const debits = booked.flatMap((entries, index) =>
              transfers(entries, -1)
                .filter(({ other }) => other !== undefined && ibans.includes(other))
                .map(
                  ({ entry, other }) =>
                    `${ibans[index]}>${other} ${entry.bookingDate} ${(entry.transactionAmount as { amount: string }).amount.slice(1)}`,
                ),
            );
            const credits = booked.flatMap((entries, index) =>
              transfers(entries, 1).map(
                ({ entry, other }) =>
                  `${other}>${ibans[index]} ${entry.bookingDate} ${(entry.transactionAmount as { amount: string }).amount}`,
              ),
            );
            expect(credits.sort()).toEqual(debits.sort());
          }

          async function allEntries(index: number, bookingStatus: 'booked' | 'pending'): Promise<Entry[]> {
            const seen: Entry[] = [];
            for (let path: string | undefined = `/v1/accounts/${ibans[index]}/transactions?bookingStatus=${bookingStatus}`; path;) {
              const { transactions }: { transactions: Record<string, Entry[]> & { _links?: { next?: { href: string } } } } = (
                await read(path, own.consentId).expect(200)
              ).body;
              seen.push(...transactions[bookingStatus]);
              path = transactions._links?.next?.href;
            }
            return seen;
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a ten-year jump with a daily order books every instalment exactly once, in linked pages, within the normal test time', async () => {
    await setClock('2026-04-01');
    const own = await scenario('100000.00');
    const paymentId = await pay('periodic-payments', {
      ...transfer(own.accounts[0].iban, GEORG, '1.00'),
      startDate: '2026-04-01',
      endDate: '2036-03-31',
      frequency: 'Daily',
    });
    expect(await approve(paymentId, own.psuId)).toBe('ACSP');
    await advance(3653);
    // 2026-04-01 to 2036-03-31: 3653 days, three of them 29 February.
    expect(await instalments(paymentId)).toEqual({ instalmentsRun: 3653, nextExecutionDate: null, failed: [] });
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '96347.00', interimAvailable: '96347.00' });
    const seen: string[] = [];
    for (let path: string | undefined = `/v1/accounts/${own.accounts[0].iban}/transactions?bookingStatus=booked&pageSize=1000`; path;) {
      const { transactions }: { transactions: { booked: Entry[]; _links: { next?: { href: string } } } } = (
        await read(path, own.consentId).expect(200)
      ).body;
      seen.push(...transactions.booked.map(({ transactionId }: Entry) => transactionId));
      path = transactions._links.next?.href;
    }
    expect(seen).toHaveLength(3653);
    expect(new Set(seen).size).toBe(3653);
  });
});

describe('a living bank on the real date: the day change runs what fell due', () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    // Only Date is faked: the app's timers and I/O run for real.
    jest.useFakeTimers({
      doNotFake: [
        'nextTick',
        'setImmediate',
        'clearImmediate',
        'setTimeout',
        'clearTimeout',
        'setInterval',
        'clearInterval',
        'queueMicrotask',
        'hrtime',
        'performance',
      ],
      now: new Date('2030-01-07T23:59:00Z'),
    });
    sandbox = await startSandbox({ SCA_MODE: 'redirect', SANDBOX_DATE: undefined });
  });

  afterAll(async () => {
    jest.useRealTimers();
    await sandbox.close();
    await removeDatabase(sandbox.database);
  });

  it('a payment dated tomorrow is booked by the first request after midnight, whatever it asks', async () => {
    const { scenario, pay, approve, balances, entries, http } = bank(sandbox);
    const own = await scenario('100.00');
    const paymentId = await pay('payments', transfer(own.accounts[0].iban, GEORG, '60.00', { requestedExecutionDate: '2030-01-08' }));
    expect(await approve(paymentId, own.psuId)).toBe('PDNG');
    expect((await http().get('/sandbox/clock').expect(200)).body).toEqual({ today: '2030-01-07' });

    jest.setSystemTime(new Date('2030-01-08T00:00:30Z'));
    expect(await balances(own, 0)).toEqual({ forwardAvailable: '40.00', interimAvailable: '40.00' });
    expect(await entries(own, 0)).toEqual([
      expect.objectContaining({
        bookingDate: '2030-01-08',
        valueDate: '2030-01-08',
        transactionAmount: { currency: 'EUR', amount: '-60.00' },
      }),
    ]);
  });
});
