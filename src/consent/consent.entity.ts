import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn, Index } from 'typeorm';
import type { ConsentStatus } from './consent.machine';

export interface AccountReference {
  iban: string;
  currency: string | null;
}

/** A card account as a consent names it: by its masked PAN (docs/card-accounts.md). */
export interface CardAccountReference {
  maskedPan: string;
  currency: string | null;
}

/** An account a consent names: a payment account by its IBAN, a card account by its masked PAN. */
export type ConsentedAccount = AccountReference | CardAccountReference;

/** What identifies a consented account: its IBAN or its masked PAN (the two never look alike). */
export const accountKey = (reference: ConsentedAccount): string => ('iban' in reference ? reference.iban : reference.maskedPan);

/** Berlin Group's requests for every account the holder has, each granting its services (docs/behaviour.md, "Consent access"). */
export type AllAccountsKind = 'availableAccounts' | 'availableAccountsWithBalance' | 'allPsd2';

/**
 * What the consent grants (coverage.ts): an account in `accounts` is covered for every service
 * (the seed bank's rule), one in `details` (Berlin Group's `accounts`) for its details only.
 */
export interface ConsentAccess {
  accounts: ConsentedAccount[];
  /** Berlin Group's access rules only (consents.access): the accounts whose details alone it grants. */
  details?: ConsentedAccount[];
  balances: ConsentedAccount[];
  transactions: ConsentedAccount[];
  /** `allAccounts` while the accounts are still to be chosen by the account holder. */
  availableAccounts: 'allAccounts' | null;
  /** Berlin Group's access rules only: a request for every account, as asked, which the consent reads back. */
  allAccounts?: { kind: AllAccountsKind; value: 'allAccounts' | 'allAccountsWithOwnerName' };
  /** The accounts whose trusted beneficiaries may be listed (empty: every account of the consent); absent: none (docs/trusted-beneficiaries.md). */
  trustedBeneficiaries?: AccountReference[];
}

/**
 * What a consent for the confirmation of funds (PIIS, Berlin Group's consent of /v2/consents/confirmation-of-funds)
 * says of the card it is for, beside its one account (docs/funds-confirmation.md); every field is optional.
 */
export interface CardTerms {
  cardNumber: string | null;
  cardExpiryDate: string | null;
  cardInformation: string | null;
  registrationInformation: string | null;
}

/** Which service a consent is for: account information (/v1/consents) or the confirmation of funds (PIIS). */
export type ConsentPurpose = 'ais' | 'piis';

@WorldScoped({ column: 'ownerId', sharedWhen: { column: 'fixture', is: true }, resource: true })
@Index(['ownerId'])
@Entity('consents')
export class Consent {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 20 })
  status: ConsentStatus;

  @Column({ type: 'simple-json' })
  access: ConsentAccess;

  @Column({ type: 'boolean' })
  recurringIndicator: boolean;

  @Column({ type: 'date' })
  validUntil: string;

  @Column({ type: 'integer' })
  frequencyPerDay: number;

  @Column({ type: 'date' })
  lastActionDate: string;

  /** Fixtures are the bank's scenery: no TPP request changes them, db:reset keeps them. */
  @Column({ type: 'boolean', default: false })
  fixture: boolean;

  /** Set for data a test suite created with POST /sandbox/scenarios; null for the bank's fixtures. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  scenarioId: string | null;

  /** The client that created it, in AUTH_MODE=strict: only that client sees it. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ownerId: string | null;

  /** Set for a consent for the confirmation of funds (its account is the one in `access.accounts`); null for account information. */
  @Column({ type: 'simple-json', nullable: true })
  card: CardTerms | null;
}

export const purposeOf = (consent: Pick<Consent, 'card'>): ConsentPurpose => (consent.card === null ? 'ais' : 'piis');

/** Where a TPP finds the consents of each purpose. */
export const CONSENT_PATHS: Record<ConsentPurpose, string> = { ais: '/v1/consents', piis: '/v2/consents/confirmation-of-funds' };

/** The one account of a consent for the confirmation of funds: always named by IBAN (CreateFundsConsentDto). */
export const fundsAccountOf = (consent: Pick<Consent, 'access'>): AccountReference => consent.access.accounts[0] as AccountReference;

/** A consent's own path (its `self` link). */
export const consentPath = (consent: Pick<Consent, 'id' | 'card'>): string => `${CONSENT_PATHS[purposeOf(consent)]}/${consent.id}`;
