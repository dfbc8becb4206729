import type { Account, BookingStatus, Transaction } from '../bank/account.entity';
import { transactionObject, TransactionFacts } from '../bank/transaction-object';
import { sumAmounts } from '../common/amount';
import type { PeriodicPaymentDto } from './dto/periodic-payment.dto';
import type { Payment } from './payment.entity';

/** One credit transfer of a payment: a bulk has one per entry, every other payment one. */
interface Transfer {
  amount: string;
  currency: string;
  creditorName: string;
  creditorIban: string | null;
  endToEndId: string | null;
  remittance: string;
}

/** What a payment books on: its debtor, and any account the ledger holds live. */
export interface BookingAccounts {
  debtor: Account;
  live(iban: string): Account | undefined;
}

/** Which entries: at once or on the execution date (booked), or ahead of it (pending), and for a periodic payment, which instalment. */
export interface BookingTerms {
  date: string;
  status: Extract<BookingStatus, 'booked' | 'pending'>;
  instalment?: number;
}

/**
 * The entries a payment books (docs/living-bank.md, "Bookings"): a debit of the debtor per
 * transfer, or one of the sum for a bulk with batchBookingPreferred, and, once booked, a credit
 * of each creditor that is an account of the debtor's scenario. Pending and booked entries of a
 * transfer share their transactionId, so a pending debit keeps its ID once booked.
 */
export function bookingsOf(payment: Payment, { debtor, live }: BookingAccounts, { date, status, instalment }: BookingTerms): Transaction[] {
  const transfers = transfersOf(payment);
  const prefix = `${idPrefix(payment)}-${instalment ?? ''}`;
  const booked = status === 'booked';
  const entry = (transactionId: string, accountIban: string, facts: Omit<TransactionFacts, 'transactionId' | 'bookingDate' | 'valueDate'>): Transaction =>
    ({ transactionId, accountIban, bookingStatus: status, bookingDate: date, body: transactionObject({ ...facts, transactionId, bookingDate: date, valueDate: booked ? date : null }) }) as Transaction;
  const debitCode = booked ? (instalment ? 'PMNT-ICDT-STDO' : 'PMNT-ICDT-ESCT') : null;
  const debits = isBatch(payment)
    ? [{ ...transfers[0], amount: sumAmounts(transfers.map(({ amount }) => amount)), creditorName: '', creditorIban: null, endToEndId: null, remittance: `Batch booking of ${transfers.length} payments` }]
    : transfers;
  const rows = debits.map((transfer, index) =>
    entry(`${prefix}D${debits.length > 1 ? index + 1 : ''}`, debtor.iban, {
      ...own(debtor),
      amount: `-${transfer.amount}`,
      currency: transfer.currency,
      counterpartyName: transfer.creditorName,
      counterpartyIban: transfer.creditorIban,
      endToEndId: transfer.endToEndId,
      remittanceInformationUnstructured: transfer.remittance,
      bankTransactionCode: debitCode,
    }),
  );
  if (!booked) return rows;
  const credits = transfers.flatMap((transfer, index) => {
    const creditor = transfer.creditorIban === null ? undefined : live(transfer.creditorIban);
    // Never across scenarios: a suite's payments credit only its own accounts (and so, in AUTH_MODE=strict, its own client's).
    if (!creditor || creditor.scenarioId !== debtor.scenarioId) return [];
    return entry(`${prefix}C${transfers.length > 1 ? index + 1 : ''}`, creditor.iban, {
      ...own(creditor),
      amount: transfer.amount,
      currency: transfer.currency,
      counterpartyName: debtor.name,
      counterpartyIban: debtor.iban,
      debtorName: debtor.name,
      endToEndId: transfer.endToEndId,
      remittanceInformationUnstructured: transfer.remittance,
      bankTransactionCode: 'PMNT-RCDT-ESCT',
    });
  });
  return [...rows, ...credits];
}

/** The accounts a payment may book on: its debtor's and its creditors'. */
export function accountsOf(payment: Payment): string[] {
  return [payment.debtorIban, ...transfersOf(payment).flatMap(({ creditorIban }) => creditorIban ?? [])];
}

/** The IDs of the entries a payment may hold ahead of execution: its pending debits, or a periodic payment's standing order. */
export function entriesAhead(payment: Payment): string[] {
  const count = isBatch(payment) ? 1 : transfersOf(payment).length;
  const prefix = `${idPrefix(payment)}-`;
  return [standingOrderId(payment), ...Array.from({ length: count }, (_, index) => `${prefix}D${count > 1 ? index + 1 : ''}`)];
}

/** A periodic payment, listed under `information` while it is active, in the shape of the bank's standing orders. */
export function standingOrderOf(payment: Payment, debtor: Account): Transaction {
  const body = payment.body as PeriodicPaymentDto;
  const [transfer] = transfersOf(payment);
  const transactionId = standingOrderId(payment);
  return {
    transactionId,
    accountIban: debtor.iban,
    bookingStatus: 'information',
    bookingDate: null,
    body: transactionObject({
      ...own(debtor),
      transactionId,
      amount: `-${transfer.amount}`,
      currency: transfer.currency,
      counterpartyName: transfer.creditorName,
      counterpartyIban: transfer.creditorIban,
      endToEndId: transfer.endToEndId,
      remittanceInformationUnstructured: transfer.remittance,
      bookingDate: null,
      valueDate: null,
      bankTransactionCode: 'PMNT-ICDT-STDO',
      standingOrderDetails: {
        startDate: body.startDate,
        frequency: body.frequency,
        endDate: body.endDate ?? null,
        executionRule: body.executionRule ?? 'following',
        withinAMonthFlag: null,
        monthsOfExecution: body.monthsOfExecution ?? Array.from({ length: 12 }, (_, month) => String(month + 1)),
        multiplicator: null,
        dayOfExecution: body.dayOfExecution ?? body.startDate.slice(8).replace(/^0/, ''),
        limitAmount: null,
      },
    }),
  } as Transaction;
}

function transfersOf({ body }: Payment): Transfer[] {
  const entries = 'payments' in body ? body.payments : [body];
  return entries.map((entry) => ({
    amount: entry.instructedAmount.amount,
    currency: entry.instructedAmount.currency,
    creditorName: entry.creditorName,
    creditorIban: entry.creditorAccount.iban,
    endToEndId: entry.endToEndIdentification ?? ('e2eIdentification' in entry ? entry.e2eIdentification : undefined) ?? null,
    remittance: entry.remittanceInformationUnstructured ?? '',
  }));
}

const isBatch = ({ body }: Payment) => 'payments' in body && String(body.batchBookingPreferred) === 'true';

const own = (account: Account) => ({ ownIban: account.iban, ownName: account.name });

/** 25 characters or fewer for a UUID: the entries' IDs fit the 35 of a transactionId. */
const idPrefix = ({ id }: Payment) => BigInt(`0x${id.replace(/-/g, '')}`).toString(36);

const standingOrderId = (payment: Payment) => `${idPrefix(payment)}-S`;
