import { plainToInstance } from 'class-transformer';
import { BulkPaymentDto } from './dto/bulk-payment.dto';
import { PeriodicPaymentDto } from './dto/periodic-payment.dto';
import { SepaCreditTransferDto } from './dto/sepa-credit-transfer.dto';
import { detail } from '../common/error-catalogue';
import { nextStatus } from '../common/state-machine';
import { paymentMachine } from './payment.machine';
import { checkDates, PaymentBody, termsOf } from './payment-terms';

const debtorAccount = { iban: 'AT099900000000001511' };
const creditorAccount = { iban: 'AT439900000000010017' };
const eur = (amount: string) => ({ currency: 'EUR', amount });

const single = plainToInstance(SepaCreditTransferDto, {
  debtorAccount,
  creditorAccount,
  creditorName: 'G',
  instructedAmount: eur('1500.00'),
  requestedExecutionDate: '2026-04-01',
});
const bulk = plainToInstance(BulkPaymentDto, {
  debtorAccount,
  payments: [
    { instructedAmount: eur('1000.10'), creditorName: 'A', creditorAccount },
    { instructedAmount: eur('1850.395'), creditorName: 'B', creditorAccount },
  ],
});
const periodic = plainToInstance(PeriodicPaymentDto, {
  debtorAccount,
  creditorAccount,
  creditorName: 'G',
  instructedAmount: eur('2000.00'),
  startDate: '2026-03-20',
  endDate: '2027-03-20',
  frequency: 'Monthly',
});

describe('payment terms', () => {
  it('single: the amount and the requested execution date', () => {
    expect(termsOf(single)).toEqual({
      debtorIban: debtorAccount.iban,
      amount: '1500.00',
      currency: 'EUR',
      executionDate: '2026-04-01',
      nextExecutionDate: null,
    });
  });

  it('bulk: the sum of all payments, executed at once', () => {
    expect(termsOf(bulk)).toEqual({
      debtorIban: debtorAccount.iban,
      amount: '2850.495',
      currency: 'EUR',
      executionDate: null,
      nextExecutionDate: null,
    });
  });

  it("periodic: one instalment, from the start date; the first runs on the schedule's first execution date", () => {
    expect(termsOf(periodic)).toEqual({
      debtorIban: debtorAccount.iban,
      amount: '2000.00',
      currency: 'EUR',
      executionDate: '2026-03-20',
      nextExecutionDate: '2026-03-20',
    });
    expect(termsOf({ ...periodic, startDate: '2026-03-21', dayOfExecution: '1' }).nextExecutionDate).toBe('2026-04-01');
  });
});

describe('funds rule (Marianne: interimAvailable 2850.49)', () => {
  const outcome = (body: PaymentBody) => {
    const { amount, executionDate } = termsOf(body);
    return nextStatus(
      paymentMachine,
      'RCVD',
      { amount, executionDate, instant: false, instalmentsToCome: false },
      { type: 'SCA_COMPLETED', today: '2026-03-15', available: '2850.49', refusal: null },
    );
  };

  it('a single payment within the funds passes', () => {
    expect(outcome(single)).toBe('PDNG');
  });

  it('a bulk is checked for its sum: each entry fits, the sum does not', () => {
    expect(outcome(bulk)).toBe('RJCT');
  });

  it('a periodic payment is checked for one instalment, not the whole series', () => {
    expect(outcome(periodic)).toBe('PDNG');
  });
});

describe('date checks', () => {
  it('accept today and later', () => {
    expect(() => checkDates(single, '2026-04-01')).not.toThrow();
    expect(() => checkDates(periodic, '2026-03-20')).not.toThrow();
  });

  it.each([
    ['requestedExecutionDate', single, '2026-04-02'],
    ['startDate', periodic, '2026-03-21'],
  ] as const)('refuse a %s before today', (path, body, today) => {
    expect(() => checkDates(body, today)).toThrow(
      expect.objectContaining({ details: [detail('executionDateInvalid', expect.any(String) as string, path)] }),
    );
  });

  it('refuse a periodic endDate before its startDate', () => {
    const reversed = plainToInstance(PeriodicPaymentDto, { ...periodic, endDate: '2026-03-19' });
    expect(() => checkDates(reversed, '2026-03-15')).toThrow(
      expect.objectContaining({ details: [detail('formatError', expect.any(String) as string, 'endDate')] }),
    );
  });
});
