import { consentedIbans } from './coverage';
import type { AccountReference, ConsentAccess } from './consent.entity';

/**
 * What an account holder's decision covers (docs/sca-flows.md): a consent for `allAccounts` binds the
 * accounts they hold; a consent naming accounts is theirs to decide only if they hold every one.
 * Null: not theirs to decide.
 */
export function accessDecidedBy(access: ConsentAccess, held: AccountReference[]): ConsentAccess | null {
  if (access.availableAccounts === 'allAccounts') {
    return { ...access, accounts: held, balances: [], transactions: [], availableAccounts: null };
  }
  const heldIbans = new Set(held.map(({ iban }) => iban));
  return consentedIbans(access).every((iban) => heldIbans.has(iban)) ? access : null;
}
