import type { ConsentAccess } from './consent.entity';
import { accessDecidedBy } from './consent-access';

const ref = (iban: string) => ({ iban, currency: 'EUR' });
const georgHolds = [ref('GEORG'), ref('MARIANNE')];

describe('accessDecidedBy', () => {
  it("binds the holder's accounts to an allAccounts consent", () => {
    const access: ConsentAccess = { accounts: [], balances: [], transactions: [], availableAccounts: 'allAccounts' };
    expect(accessDecidedBy(access, georgHolds)).toEqual({ accounts: georgHolds, balances: [], transactions: [], availableAccounts: null });
  });

  it('keeps a named access whose accounts the holder all holds', () => {
    const access: ConsentAccess = { accounts: [], balances: [ref('MARIANNE')], transactions: [ref('GEORG')], availableAccounts: null };
    expect(accessDecidedBy(access, georgHolds)).toBe(access);
  });

  it('refuses a named access with one account the holder does not hold', () => {
    const access: ConsentAccess = { accounts: [], balances: [ref('MARIANNE')], transactions: [ref('SUSANNE')], availableAccounts: null };
    expect(accessDecidedBy(access, georgHolds)).toBeNull();
  });
});
