import { WorldScoped } from '../world/world-scope';
import { Column, Entity, Index, JoinColumn, ManyToOne, OneToMany, PrimaryColumn } from 'typeorm';

/** A test account holder who logs in at the SCA pages (docs/sca-flows.md). */
@WorldScoped({ column: 'ownerId', sharedWhen: { column: 'scenarioId', is: null }, resource: true })
@Index(['ownerId'])
@Entity('psus')
export class Psu {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  psuId: string;

  @Column({ type: 'varchar', length: 140 })
  name: string;

  /** Test credentials, stored as given: this is a sandbox. */
  @Column({ type: 'varchar', length: 64 })
  password: string;

  /** Set for data a test suite created with POST /sandbox/scenarios; null for the bank's fixtures. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  scenarioId: string | null;

  /** The client that created it, in AUTH_MODE=strict: only that client sees it. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ownerId: string | null;
}

@WorldScoped({ through: () => Psu, column: 'scenarioId', parentColumn: 'scenarioId' })
@Entity('accounts')
export class Account {
  /** The bank uses the IBAN as resourceId. */
  @PrimaryColumn({ type: 'varchar', length: 34 })
  iban: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 140 })
  name: string;

  @Column({ type: 'varchar', length: 35 })
  product: string;

  @Column({ type: 'varchar', length: 11 })
  bic: string;

  /** The test PSU who holds the account and may authorise for it. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  psuId: string | null;

  /** Set for data a test suite created with POST /sandbox/scenarios; null for the bank's fixtures. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  scenarioId: string | null;

  @OneToMany(() => Balance, (balance) => balance.account)
  balances: Balance[];
}

@WorldScoped({ cascade: () => Account })
@Entity('balances')
export class Balance {
  @PrimaryColumn({ type: 'varchar', length: 34 })
  accountIban: string;

  @PrimaryColumn({ type: 'varchar', length: 30 })
  balanceType: string;

  @ManyToOne(() => Account, (account) => account.balances, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'accountIban' })
  account: Account;

  @Column({ type: 'varchar', length: 20 })
  amount: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'date' })
  referenceDate: string;
}

export type BookingStatus = 'booked' | 'pending' | 'information';

/** The Berlin Group transaction object as the bank shows it; the seed files hold every field. */
export interface TransactionBody {
  transactionId: string;
  bookingDate: string | null;
  transactionAmount: { currency: string; amount: string };
  [field: string]: unknown;
}

@WorldScoped({ cascade: () => Account })
@Entity('transactions')
@Index(['accountIban', 'bookingStatus', 'bookingDate'])
export class Transaction {
  @PrimaryColumn({ type: 'varchar', length: 35 })
  transactionId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'accountIban' })
  account: Account;

  @Column({ type: 'varchar', length: 34 })
  accountIban: string;

  @Column({ type: 'varchar', length: 11 })
  bookingStatus: BookingStatus;

  /** Copied from `body` so that date filters and ordering run in SQL. */
  @Column({ type: 'date', nullable: true })
  bookingDate: string | null;

  @Column({ type: 'simple-json' })
  body: TransactionBody;
}
