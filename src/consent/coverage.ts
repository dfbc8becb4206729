import { accountKey, ConsentAccess, ConsentedAccount } from './consent.entity';

/** What a TPP reads about one account: its details, its balances or its transactions. */
export type AccountService = 'details' | 'balances' | 'transactions';

export type Coverage = 'covered' | 'notInConsent' | 'serviceNotGranted';

/**
 * Decisions §4: an account in `accounts` is covered for every service; one in `balances` for
 * details and balances; one in `transactions` for details and transactions; one in `details`
 * (Berlin Group's `accounts`) for its details only.
 */
export function coverageOf(access: ConsentAccess, key: string, service: AccountService): Coverage {
  const names = (list: ConsentedAccount[] = []) => list.some((reference) => accountKey(reference) === key);
  if (names(access.accounts)) return 'covered';
  const granted = { details: names(access.details), balances: names(access.balances), transactions: names(access.transactions) };
  if (!granted.details && !granted.balances && !granted.transactions) return 'notInConsent';
  return service === 'details' || granted[service] ? 'covered' : 'serviceNotGranted';
}

/** Each account a consent names with the services it is covered for (coverageOf's rule, account by account), in the order it names them. */
export function servicesByAccount({
  accounts,
  details = [],
  balances,
  transactions,
}: ConsentAccess): { reference: ConsentedAccount; services: AccountService[] }[] {
  const found = new Map<string, { reference: ConsentedAccount; services: Set<AccountService> }>();
  const grant = (list: ConsentedAccount[], services: AccountService[]) => {
    for (const reference of list) {
      const entry = found.get(accountKey(reference)) ?? { reference, services: new Set<AccountService>(['details']) };
      services.forEach((service) => entry.services.add(service));
      found.set(accountKey(reference), entry);
    }
  };
  grant(accounts, ['balances', 'transactions']);
  grant(details, []);
  grant(balances, ['balances']);
  grant(transactions, ['transactions']);
  return [...found.values()].map(({ reference, services }) => ({ reference, services: [...services] }));
}

/** Every account a consent names (its IBAN or masked PAN, accountKey), in the order it names them, each once. */
export const consentedKeys = (access: ConsentAccess): string[] => named(access, accountKey);

/** The payment accounts a consent names, by IBAN, in the order it names them, each once. */
export const consentedIbans = (access: ConsentAccess): string[] =>
  named(access, (reference) => ('iban' in reference ? reference.iban : undefined));

/** The card accounts a consent names, by masked PAN (docs/card-accounts.md), in the order it names them, each once. */
export const consentedMaskedPans = (access: ConsentAccess): string[] =>
  named(access, (reference) => ('maskedPan' in reference ? reference.maskedPan : undefined));

function named(access: ConsentAccess, keyOf: (reference: ConsentedAccount) => string | undefined): string[] {
  const keys = [...access.accounts, ...(access.details ?? []), ...access.balances, ...access.transactions]
    .map(keyOf)
    .filter((key): key is string => key !== undefined);
  return [...new Set(keys)];
}
