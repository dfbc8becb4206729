import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ConsentStatus } from './consent.machine';

export interface AccountReference {
  iban: string;
  currency: string | null;
}

/** What the consent grants: an account in `accounts` is covered for every service (coverage.ts). */
export interface ConsentAccess {
  accounts: AccountReference[];
  balances: AccountReference[];
  transactions: AccountReference[];
  /** `allAccounts` while the accounts are still to be chosen by the account holder. */
  availableAccounts: 'allAccounts' | null;
}

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
}
