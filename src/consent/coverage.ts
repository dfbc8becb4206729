import type { AccountReference, ConsentAccess } from './consent.entity';

/** What a TPP reads about one account: its details, its balances or its transactions. */
export type AccountService = 'details' | 'balances' | 'transactions';

export type Coverage = 'covered' | 'notInConsent' | 'serviceNotGranted';

/**
 * Decisions §4: an account in `accounts` is covered for every service; one in `balances` for
 * details and balances; one in `transactions` for details and transactions.
 */
export function coverageOf(access: ConsentAccess, iban: string, service: AccountService): Coverage {
  const names = (list: AccountReference[]) => list.some((reference) => reference.iban === iban);
  if (names(access.accounts)) return 'covered';
  const granted = { balances: names(access.balances), transactions: names(access.transactions) };
  if (!granted.balances && !granted.transactions) return 'notInConsent';
  return service === 'details' || granted[service] ? 'covered' : 'serviceNotGranted';
}

/** Every account a consent names, in the order it names them, each once. */
export function consentedIbans(access: ConsentAccess): string[] {
  return [...new Set([...access.accounts, ...access.balances, ...access.transactions].map((reference) => reference.iban))];
}
