import { consentedKeys } from './coverage';
import { accountKey, ConsentAccess, ConsentedAccount } from './consent.entity';

/**
 * What an account holder's decision covers (docs/sca-flows.md): a consent for `allAccounts` binds the
 * accounts they hold, payment and card accounts (docs/card-accounts.md); a consent naming accounts is
 * theirs to decide only if they hold every one. Null: not theirs to decide.
 */
export function accessDecidedBy(access: ConsentAccess, held: ConsentedAccount[]): ConsentAccess | null {
  if (access.availableAccounts === 'allAccounts') {
    return { ...access, accounts: held, balances: [], transactions: [], availableAccounts: null };
  }
  const heldKeys = new Set(held.map(accountKey));
  return consentedKeys(access).every((key) => heldKeys.has(key)) ? access : null;
}
