import type { Consent } from '../consent/consent.entity';
import { isCurrent, isOnRecord, toPermission, type PermissionFacts } from './permission';

const TODAY = '2026-03-15';
const OWN = 'AT439900000000010017';
const OTHERS = 'AT099900000000001511';
const CARD = '492950xxxxxx4711';

const consent = (fields: Partial<Consent>): Consent =>
  ({
    id: 'c1',
    status: 'valid',
    access: { accounts: [], balances: [], transactions: [], availableAccounts: null },
    recurringIndicator: true,
    validUntil: '2026-06-30',
    frequencyPerDay: 4,
    lastActionDate: TODAY,
    fixture: false,
    scenarioId: null,
    ownerId: 'sandbox-tpp',
    card: null,
    ...fields,
  }) as Consent;

const facts: PermissionFacts = {
  tpp: { clientId: 'sandbox-tpp', name: 'Sandbox TPP', organisationName: null, organisationIdentifier: null },
  grantedOn: TODAY,
  counts: [],
};
const held = new Set([OWN, CARD]);

describe('a consent as the permission dashboard shows it', () => {
  it("names only the holder's own accounts, each with what it may be used for; trusted beneficiaries where the consent lists them", () => {
    const access = {
      accounts: [{ maskedPan: CARD, currency: null }],
      balances: [
        { iban: OWN, currency: 'EUR' },
        { iban: OTHERS, currency: 'EUR' },
      ],
      transactions: [{ iban: OWN, currency: 'EUR' }],
      availableAccounts: null,
      trustedBeneficiaries: [{ iban: OWN, currency: null }],
    };
    expect(toPermission(consent({ access }), held, facts, TODAY, true).accounts).toEqual([
      { maskedPan: CARD, currency: null, uses: ['accountDetails', 'balances', 'transactions'] },
      { iban: OWN, currency: 'EUR', uses: ['accountDetails', 'balances', 'transactions', 'trustedBeneficiaries'] },
    ]);
    // An empty list of trusted beneficiaries' accounts: every account of the consent.
    const every = toPermission(consent({ access: { ...access, trustedBeneficiaries: [] } }), held, facts, TODAY, true).accounts;
    expect(every.map(({ uses }) => uses.includes('trustedBeneficiaries'))).toEqual([true, true]);
  });

  it('counts today the reads of the account read most, and the last day any was read', () => {
    const counts = [
      { accountIban: OWN, day: '2026-03-14', accesses: 4 },
      { accountIban: OWN, day: TODAY, accesses: 1 },
      { accountIban: CARD, day: TODAY, accesses: 3 },
    ];
    expect(toPermission(consent({}), held, { ...facts, counts }, TODAY, true)).toMatchObject({ usedToday: 3, lastAccessOn: TODAY });
    expect(
      toPermission(consent({}), held, { ...facts, counts: [{ accountIban: OWN, day: TODAY, accesses: 0 }] }, TODAY, true),
    ).toMatchObject({ usedToday: 0, lastAccessOn: null });
  });

  it.each([
    ['valid', '2026-06-30', true, { canWithdraw: true, canReestablish: false }, true],
    ['received', '2026-06-30', true, { canWithdraw: false, canReestablish: false }, true],
    ['revokedByPsu', TODAY, true, { canWithdraw: false, canReestablish: true }, true],
    ['revokedByPsu', '2026-03-14', true, { canWithdraw: false, canReestablish: false }, false],
    ['revokedByPsu', '2026-06-30', false, { canWithdraw: false, canReestablish: false }, false],
    ['expired', '2026-03-14', true, { canWithdraw: false, canReestablish: false }, false],
    ['terminatedByTpp', '2026-06-30', true, { canWithdraw: false, canReestablish: false }, false],
    ['rejected', '2026-06-30', true, { canWithdraw: false, canReestablish: false }, false],
  ] as const)('%s until %s (re-establishment allowed: %s): %j, current: %s', (status, validUntil, reestablish, can, current) => {
    const permission = toPermission(consent({ status, validUntil }), held, facts, TODAY, reestablish);
    expect(permission).toMatchObject(can);
    expect(isCurrent(permission)).toBe(current);
  });
});

describe('the record', () => {
  it('keeps an ended permission for two years after its last change, and no current one', () => {
    const ended = (lastActionDate: string) => toPermission(consent({ status: 'expired', lastActionDate }), held, facts, TODAY, true);
    expect([ended('2024-03-15'), ended('2024-03-14')].map((permission) => isOnRecord(permission, TODAY))).toEqual([true, false]);
    expect(isOnRecord(toPermission(consent({}), held, facts, TODAY, true), TODAY)).toBe(false);
  });
});
