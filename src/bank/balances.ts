import { fromThousandths, isWithinCeiling, toThousandths } from '../common/amount';

/** The two balances a scenario account shows, as the bank's accounts do. */
export interface LiveBalances {
  interimAvailable: string;
  forwardAvailable: string;
}

/** What a balance sees of an entry the sandbox books: whether it is booked or still pending, and its signed amount. */
export interface LedgerEntry {
  bookingStatus: 'booked' | 'pending';
  amount: string;
}

/**
 * A scenario account's balances (docs/living-bank.md, "Balances"): its opening balances, plus
 * every booking since on both, and on forwardAvailable minus the debits still pending.
 */
export function deriveBalances(opening: LiveBalances, entries: LedgerEntry[]): LiveBalances {
  return entries.reduce((balances, entry) => withEntry(balances, entry, 1), opening);
}

/** The balances once an entry is added (1), or taken away again (-1: a pending debit that executed or was cancelled). */
export function withEntry(balances: LiveBalances, { bookingStatus, amount }: LedgerEntry, sign: 1 | -1): LiveBalances {
  const change = toThousandths(amount) * BigInt(sign);
  if (bookingStatus === 'booked')
    return { interimAvailable: plus(balances.interimAvailable, change), forwardAvailable: plus(balances.forwardAvailable, change) };
  // Pending credits wait for their booking; only the debits already bind what is available ahead.
  return toThousandths(amount) < 0n ? { ...balances, forwardAvailable: plus(balances.forwardAvailable, change) } : balances;
}

const plus = (amount: string, change: bigint) => fromThousandths(toThousandths(amount) + change);

/** Both balances within AMOUNT_CEILING: what a booking may leave (docs/living-bank.md, "Ceiling"). */
export const withinCeiling = ({ interimAvailable, forwardAvailable }: LiveBalances): boolean =>
  isWithinCeiling(interimAvailable) && isWithinCeiling(forwardAvailable);
