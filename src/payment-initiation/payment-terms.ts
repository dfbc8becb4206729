import { AMOUNT_CEILING, isWithinCeiling, sumAmounts } from '../common/amount';
import { FormatError, refusal } from '../common/error-catalogue';
import type { BulkPaymentDto } from './dto/bulk-payment.dto';
import type { CrossBorderCreditTransferDto } from './dto/cross-border-credit-transfer.dto';
import type { PeriodicPaymentDto } from './dto/periodic-payment.dto';
import type { SepaCreditTransferDto } from './dto/sepa-credit-transfer.dto';
import { instalments } from './schedule';

export type PaymentBody = SepaCreditTransferDto | CrossBorderCreditTransferDto | BulkPaymentDto | PeriodicPaymentDto;

/** What the payment machine and the columns need from a body, whatever the product. */
export interface PaymentTerms {
  debtorIban: string;
  amount: string;
  currency: string;
  executionDate: string | null;
  /** A periodic payment's first instalment's execution date, null for any other payment (or a schedule with none). */
  nextExecutionDate: string | null;
}

/** Decisions §5: a bulk is checked for its sum, a periodic payment for one instalment from its startDate. */
export function termsOf(body: PaymentBody): PaymentTerms {
  const debtorIban = body.debtorAccount.iban;
  if ('payments' in body) {
    const amounts = body.payments.map((entry) => entry.instructedAmount);
    const amount = sumAmounts(amounts.map(({ amount }) => amount));
    // The sum is what the payment's column and its debit hold (docs/living-bank.md, "Ceiling").
    if (!isWithinCeiling(amount))
      throw new FormatError('payments', `the payments' instructedAmounts add up to ${amount}, beyond ${AMOUNT_CEILING}`);
    return {
      debtorIban,
      amount,
      currency: amounts[0].currency,
      executionDate: body.requestedExecutionDate ?? null,
      nextExecutionDate: null,
    };
  }
  const { amount, currency } = body.instructedAmount;
  if ('startDate' in body)
    return {
      debtorIban,
      amount,
      currency,
      executionDate: body.startDate,
      nextExecutionDate: instalments(body).next().value?.executionDate ?? null,
    };
  return { debtorIban, amount, currency, executionDate: body.requestedExecutionDate ?? null, nextExecutionDate: null };
}

/** Every creditor of the payment, in the body's order: what Verification of Payee checks. */
export function creditorsOf(body: PaymentBody): { iban: string; name: string }[] {
  const entries = 'payments' in body ? body.payments : [body];
  return entries.map(({ creditorAccount, creditorName }) => ({ iban: creditorAccount.iban, name: creditorName }));
}

/** Date rules that need today: nothing executes in the past, and a periodic payment ends after it starts. */
export function checkDates(body: PaymentBody, today: string): void {
  const dates: [string, string | null | undefined][] = [
    ['requestedExecutionDate', 'requestedExecutionDate' in body ? body.requestedExecutionDate : null],
    ['startDate', 'startDate' in body ? body.startDate : null],
  ];
  for (const [path, date] of dates) {
    if (date && date < today) {
      throw refusal('executionDateInvalid', `${path} ${date} is before today (${today})`, path);
    }
  }
  if ('startDate' in body && body.endDate && body.endDate < body.startDate) {
    throw new FormatError('endDate', `endDate ${body.endDate} is before startDate ${body.startDate}`);
  }
}
