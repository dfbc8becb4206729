import { Psu } from '../bank/account.entity';
import { WorldScoped } from '../world/world-scope';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { BookingStatus } from '../bank/account.entity';

/** One balance of a card account, in the card account's currency. */
export interface CardBalance {
  balanceType: string;
  amount: string;
  referenceDate: string;
}

/**
 * A credit card's account (Berlin Group's card account, docs/card-accounts.md): read under a
 * consent that names it by its masked PAN, or one for all the holder's accounts. Scenery, as the
 * bank's fixture accounts are: nothing a TPP does moves it.
 */
@WorldScoped({ through: () => Psu, column: 'scenarioId', parentColumn: 'scenarioId' })
@Entity('card_accounts')
@Index('IDX_card_accounts_psu', ['psuId'])
export class CardAccount {
  /** Its ID in paths: not the card number, which a TPP never sees whole. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  resourceId: string;

  /** What a consent names it by: unique, as the bank's card numbers are. */
  @Index('IDX_card_accounts_masked_pan', { unique: true })
  @Column({ type: 'varchar', length: 35 })
  maskedPan: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 70 })
  name: string;

  @Column({ type: 'varchar', length: 35 })
  product: string;

  /** The card's credit limit in its currency, where it has one. */
  @Column({ type: 'varchar', length: 20, nullable: true })
  creditLimit: string | null;

  @Column({ type: 'simple-json' })
  balances: CardBalance[];

  /** The test PSU who holds the card and may authorise for it. */
  @Column({ type: 'varchar', length: 64 })
  psuId: string;

  /** Set for data a test suite created with POST /sandbox/scenarios; null for the bank's fixtures. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  scenarioId: string | null;
}

/** A card transaction as the bank shows it (Berlin Group cardTransaction); the fixture files hold every field. */
export interface CardTransactionBody {
  cardTransactionId: string;
  transactionAmount: { currency: string; amount: string };
  [field: string]: unknown;
}

@WorldScoped({ cascade: () => CardAccount })
@Entity('card_transactions')
export class CardTransaction {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  cardAccountId: string;

  /** The body's cardTransactionId: unique on its card account. */
  @PrimaryColumn({ type: 'varchar', length: 35 })
  transactionId: string;

  @ManyToOne(() => CardAccount, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'cardAccountId' })
  cardAccount: CardAccount;

  @Column({ type: 'varchar', length: 11 })
  bookingStatus: Extract<BookingStatus, 'booked' | 'pending'>;

  /** The booking date, or a pending entry's transaction date: what dateFrom and dateTo filter and the list is ordered by. */
  @Column({ type: 'date', nullable: true })
  bookingDate: string | null;

  @Column({ type: 'simple-json' })
  body: CardTransactionBody;
}

/** A card account's transactions as rows: a booked one dated by its bookingDate, a pending one by its transactionDate. */
export function cardTransactionRows(
  cardAccountId: string,
  { booked = [], pending = [] }: { booked?: CardTransactionBody[]; pending?: CardTransactionBody[] },
): CardTransaction[] {
  const row = (bookingStatus: 'booked' | 'pending', body: CardTransactionBody) =>
    ({
      cardAccountId,
      transactionId: body.cardTransactionId,
      bookingStatus,
      bookingDate: (body.bookingDate ?? body.transactionDate) as string,
      body,
    }) as CardTransaction;
  return [...booked.map((body) => row('booked', body)), ...pending.map((body) => row('pending', body))];
}
