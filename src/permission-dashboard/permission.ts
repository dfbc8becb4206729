import { addMonths } from '../common/dates';
import { accountKey, type Consent, type ConsentedAccount, purposeOf } from '../consent/consent.entity';
import { servicesByAccount } from '../consent/coverage';
import { isReestablishable, isRevocable, type ConsentStatus } from '../consent/consent.machine';

/** What a consent lets its TPP do with one account (docs/permission-dashboard.md). */
export type AccountUse = 'accountDetails' | 'balances' | 'transactions' | 'trustedBeneficiaries' | 'fundsConfirmation';

/** One of the holder's accounts a consent names, and what it may be used for. */
export interface PermittedAccount {
  iban?: string;
  maskedPan?: string;
  currency: string | null;
  uses: AccountUse[];
}

/** Who holds the permission: the client, where the sandbox knows it (AUTH_MODE=strict), and the certificate its creation was signed or sent with. */
export interface PermissionHolder {
  clientId: string | null;
  name: string | null;
  organisationName: string | null;
  organisationIdentifier: string | null;
}

/** A consent as the permission dashboard shows it to the account holder (docs/permission-dashboard.md). */
export interface Permission {
  consentId: string;
  consentStatus: ConsentStatus;
  /** The sandbox date of its last change (Berlin Group's lastActionDate). */
  lastActionDate: string;
  service: 'accountInformation' | 'fundsConfirmation';
  tpp: PermissionHolder;
  accounts: PermittedAccount[];
  grantedOn: string | null;
  validUntil: string;
  recurringIndicator: boolean;
  frequencyPerDay: number;
  usedToday: number;
  lastAccessOn: string | null;
  canWithdraw: boolean;
  canReestablish: boolean;
}

/** What the history and the access counters say of a consent, beside the consent itself. */
export interface PermissionFacts {
  tpp: PermissionHolder;
  /** The sandbox date it first became valid: approved, or valid on creation. */
  grantedOn: string | null;
  /** Its counted accesses (docs/behaviour.md, frequencyPerDay): account, day, how many. */
  counts: { accountIban: string; day: string; accesses: number }[];
}

/**
 * The dashboard's view of a consent: only the holder's `own` accounts (their accountKeys: a consent
 * naming someone else's account tells them nothing of it), what it may do with each, and whether
 * it can be withdrawn or re-established today.
 */
export function toPermission(
  consent: Consent,
  own: ReadonlySet<string>,
  facts: PermissionFacts,
  today: string,
  reestablish: boolean,
): Permission {
  const days = facts.counts.flatMap(({ day, accesses }) => (accesses > 0 ? [day] : [])).sort();
  return {
    consentId: consent.id,
    consentStatus: consent.status,
    lastActionDate: consent.lastActionDate,
    service: purposeOf(consent) === 'piis' ? 'fundsConfirmation' : 'accountInformation',
    tpp: facts.tpp,
    accounts: usesOf(consent)
      .filter(({ reference }) => own.has(accountKey(reference)))
      .map(({ reference, uses }) => ({ ...reference, uses })),
    grantedOn: facts.grantedOn,
    validUntil: consent.validUntil,
    recurringIndicator: consent.recurringIndicator,
    frequencyPerDay: consent.frequencyPerDay,
    // The limit holds per account: the one read most today is the one nearest it.
    usedToday: Math.max(0, ...facts.counts.filter(({ day }) => day === today).map(({ accesses }) => accesses)),
    lastAccessOn: days.at(-1) ?? null,
    canWithdraw: isRevocable(consent.status),
    canReestablish: reestablish && isReestablishable(consent, today),
  };
}

/** Current: granted, waiting for the holder, or withdrawn and still re-establishable; the rest is the record. */
export const isCurrent = ({ consentStatus, canReestablish }: Permission): boolean =>
  consentStatus === 'valid' || consentStatus === 'received' || canReestablish;

/** The record keeps an ended permission for two years after its last change (docs/permission-dashboard.md). */
export const isOnRecord = (permission: Permission, today: string): boolean =>
  !isCurrent(permission) && permission.lastActionDate >= addMonths(today, -24);

/** Each account the consent names with what it may be used for (the coverage rule, docs/behaviour.md), in the order it names them. */
function usesOf(consent: Consent): { reference: ConsentedAccount; uses: AccountUse[] }[] {
  if (consent.card) return consent.access.accounts.map((reference) => ({ reference, uses: ['fundsConfirmation'] }));
  // Trusted beneficiaries: listed for the accounts named there, or for every account of the consent where the list is empty.
  const { trustedBeneficiaries } = consent.access;
  const trusted = trustedBeneficiaries && new Set(trustedBeneficiaries.map(accountKey));
  return servicesByAccount(consent.access).map(({ reference, services }) => ({
    reference,
    uses: [
      ...services.map((service): AccountUse => (service === 'details' ? 'accountDetails' : service)),
      ...(trusted && (trusted.size === 0 || trusted.has(accountKey(reference))) ? ['trustedBeneficiaries' as const] : []),
    ],
  }));
}
