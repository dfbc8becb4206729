import type { ConsentAccess } from './consent.entity';
import { AccountService, consentedIbans, Coverage, coverageOf } from './coverage';

const ref = (iban: string) => ({ iban, currency: null });
const access: ConsentAccess = {
  accounts: [ref('ALL')],
  balances: [ref('BAL'), ref('BOTH')],
  transactions: [ref('TRX'), ref('BOTH')],
  availableAccounts: null,
};

describe('coverage rule', () => {
  const table: [string, AccountService, Coverage][] = [
    ['ALL', 'details', 'covered'],
    ['ALL', 'balances', 'covered'],
    ['ALL', 'transactions', 'covered'],
    ['BAL', 'details', 'covered'],
    ['BAL', 'balances', 'covered'],
    ['BAL', 'transactions', 'serviceNotGranted'],
    ['TRX', 'details', 'covered'],
    ['TRX', 'balances', 'serviceNotGranted'],
    ['TRX', 'transactions', 'covered'],
    ['BOTH', 'details', 'covered'],
    ['BOTH', 'balances', 'covered'],
    ['BOTH', 'transactions', 'covered'],
    ['OTHER', 'details', 'notInConsent'],
    ['OTHER', 'balances', 'notInConsent'],
    ['OTHER', 'transactions', 'notInConsent'],
  ];

  it.each(table)('account %s, %s: %s', (iban, service, coverage) => {
    expect(coverageOf(access, iban, service)).toBe(coverage);
  });

  it('lists every consented account once, in the order the consent names them', () => {
    expect(consentedIbans(access)).toEqual(['ALL', 'BAL', 'BOTH', 'TRX']);
  });

  it('a consent still waiting for its accounts covers nothing', () => {
    const pending: ConsentAccess = { accounts: [], balances: [], transactions: [], availableAccounts: 'allAccounts' };
    expect(coverageOf(pending, 'ALL', 'details')).toBe('notInConsent');
    expect(consentedIbans(pending)).toEqual([]);
  });
});
