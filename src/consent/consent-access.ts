import { consentedKeys } from './coverage';
import { accountKey, ConsentAccess, ConsentedAccount } from './consent.entity';

/**
 * What an account holder's decision covers (docs/sca-flows.md): a consent for every account binds
 * the accounts they hold, payment and card accounts (docs/card-accounts.md); a consent naming
 * accounts is theirs to decide only if they hold every one. Null: not theirs to decide.
 */
export function accessDecidedBy(access: ConsentAccess, held: ConsentedAccount[]): ConsentAccess | null {
  if (access.availableAccounts === 'allAccounts') return allAccountsGranted(access, held);
  const heldKeys = new Set(held.map(accountKey));
  return consentedKeys(access).every((key) => heldKeys.has(key)) ? access : null;
}

/**
 * A consent for every account once the accounts are known (`accounts`: the holder's, or in
 * SCA_MODE=auto the bank's), granting what it asked for: the seed bank's every service on each;
 * Berlin Group's availableAccounts their details, availableAccountsWithBalance their balances too,
 * allPsd2 every service (docs/behaviour.md, "Consent access").
 */
export function allAccountsGranted(access: ConsentAccess, accounts: ConsentedAccount[]): ConsentAccess {
  const granted = { ...access, accounts: [], balances: [], transactions: [], availableAccounts: null };
  switch (access.allAccounts?.kind) {
    case undefined:
      return { ...granted, accounts };
    case 'availableAccounts':
      return { ...granted, details: accounts };
    case 'availableAccountsWithBalance':
      return { ...granted, balances: accounts };
    case 'allPsd2':
      return { ...granted, balances: accounts, transactions: accounts };
  }
}
