import type { Account, BookingStatus, Transaction } from '../bank/account.entity';
import { standingOrderDetails, transactionObject, TransactionFacts } from '../bank/transaction-object';
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

/** Where a payment books: any account the ledger holds live (bank/ledger.ts). */
export interface LiveAccounts {
  live(iban: string): Account | undefined;
}

/** Which entries: at once or on the execution date (booked), or ahead of it (pending), and for a periodic payment, which instalment. */
export interface BookingTerms {
  date: string;
  status: Extract<BookingStatus, 'booked' | 'pending'>;
  instalment?: number;
}

/**
 * The entries a payment books (docs/living-bank.md, "Bookings"): the debtor's debits and, once
 * booked, a credit of each creditor that is an account of the debtor's scenario. Pending and
 * booked entries of a transfer share their transactionId, so a pending debit keeps its ID once booked.
 */
export function bookingsOf(
  payment: Payment,
  debtor: Account,
  ledger: LiveAccounts,
  { date, status, instalment }: BookingTerms,
): Transaction[] {
  const booked = status === 'booked';
  const entry = (
    transactionId: string,
    accountIban: string,
    facts: Omit<TransactionFacts, 'transactionId' | 'bookingDate' | 'valueDate'>,
  ): Transaction =>
    ({
      transactionId,
      accountIban,
      bookingStatus: status,
      bookingDate: date,
      body: transactionObject({ ...facts, transactionId, bookingDate: date, valueDate: booked ? date : null }),
    }) as Transaction;
  const debitCode = booked ? (instalment ? 'PMNT-ICDT-STDO' : 'PMNT-ICDT-ESCT') : null;
  const debits = debitsOf(payment);
  const rows = debits.map((transfer, index) =>
    entry(entryId(payment, 'D', index, debits.length, instalment), debtor.iban, {
      ...debitFacts(debtor, transfer),
      bankTransactionCode: debitCode,
    }),
  );
  if (!booked) return rows;
  const transfers = transfersOf(payment);
  const credits = transfers.flatMap((transfer, index) => {
    const creditor = transfer.creditorIban === null ? undefined : ledger.live(transfer.creditorIban);
    // Never across scenarios: a suite's payments credit only its own accounts (and so, in AUTH_MODE=strict, its own client's).
    if (!creditor || creditor.scenarioId !== debtor.scenarioId) return [];
    return entry(entryId(payment, 'C', index, transfers.length, instalment), creditor.iban, {
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
  return [standingOrderId(payment), ...debitsOf(payment).map((_, index, debits) => entryId(payment, 'D', index, debits.length))];
}

/** A periodic payment, listed under `information` while it is active, in the shape of the bank's standing orders. */
export function standingOrderOf(payment: Payment, debtor: Account): Transaction {
  const body = payment.body as PeriodicPaymentDto;
  const transactionId = standingOrderId(payment);
  return {
    transactionId,
    accountIban: debtor.iban,
    bookingStatus: 'information',
    bookingDate: null,
    body: transactionObject({
      ...debitFacts(debtor, transfersOf(payment)[0]),
      transactionId,
      bookingDate: null,
      valueDate: null,
      bankTransactionCode: 'PMNT-ICDT-STDO',
      standingOrderDetails: standingOrderDetails({ ...body, executionRule: body.executionRule ?? 'following' }),
    }),
  } as Transaction;
}

/** A payment's debits: one per transfer, or one of their sum for a bulk with batchBookingPreferred. */
function debitsOf(payment: Payment): Transfer[] {
  const transfers = transfersOf(payment);
  if (!isBatch(payment)) return transfers;
  const amount = sumAmounts(transfers.map(({ amount }) => amount));
  return [
    {
      ...transfers[0],
      amount,
      creditorName: '',
      creditorIban: null,
      endToEndId: null,
      remittance: `Batch booking of ${transfers.length} payments`,
    },
  ];
}

/** What the debtor's side of a transfer says, whatever its date and status. */
const debitFacts = (debtor: Account, transfer: Transfer) => ({
  ...own(debtor),
  amount: `-${transfer.amount}`,
  currency: transfer.currency,
  counterpartyName: transfer.creditorName,
  counterpartyIban: transfer.creditorIban,
  endToEndId: transfer.endToEndId,
  remittanceInformationUnstructured: transfer.remittance,
});

/** `<payment>-[<instalment>]D|C[<n> of several]`: stable, and unique as the transactionId key requires. */
const entryId = (payment: Payment, side: 'D' | 'C', index: number, count: number, instalment?: number) =>
  `${idPrefix(payment)}-${instalment ?? ''}${side}${count > 1 ? index + 1 : ''}`;

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
