import { Injectable } from '@nestjs/common';
import { Between, FindOperator, In, LessThanOrEqual, MoreThanOrEqual } from 'typeorm';
import { Store } from '../database/store';
import type { World } from '../world/world';
import { Account, Balance, BookingStatus, Psu, Transaction } from './account.entity';
import { Fixtures } from './fixtures';

/** Which transactions a read asks for: the period applies to transactions (booked, pending), never to standing orders. */
export interface TransactionFilter {
  statuses: BookingStatus[];
  from?: string;
  to?: string;
}

/** Booked and pending entries are transactions; `information` lists standing orders. */
const isTransaction = (status: BookingStatus) => status !== 'information';

/** Newest booking first, then by ID: the order of every transaction list. */
const ORDER = { bookingDate: 'DESC', transactionId: 'ASC' } as const;

/**
 * Where account reads come from. The profile's fixture accounts are immutable scenery (the seed
 * upserts the same rows on every start and nothing changes them), so they are answered from the
 * profile's index (Fixtures); any other account (a scenario's, a bulk load's) is
 * read from the database.
 */
@Injectable()
export class AccountStore {
  /** The fixture accounts read so far, by IBAN (the profile's scenery: a few dozen). */
  private readonly fixtureAccounts = new Map<string, Account>();

  constructor(
    private readonly store: Store,
    private readonly fixtures: Fixtures,
  ) {}

  /** The accounts (with their balances by type) among `ibans` that `world` may see (visibleTo), in no particular order. */
  async find(ibans: string[], world: World): Promise<Account[]> {
    const found = ibans.flatMap((iban) => this.fixture(iban) ?? []);
    const elsewhere = ibans.filter((iban) => !this.isFixture(iban));
    if (!elsewhere.length) return found;
    const stored = await this.store
      .read(Account)
      .find({ where: { iban: In(elsewhere) }, relations: { balances: true }, order: { balances: { balanceType: 'ASC' } } });
    return [...found, ...(await this.visibleTo(stored, world))];
  }

  /** Whether `world` may see an account with this IBAN (visibleTo), without reading its balances. */
  async exists(iban: string, world: World): Promise<boolean> {
    return this.isFixture(iban) || (await this.visibleTo(await this.store.read(Account).findBy({ iban }), world)).length > 0;
  }

  /**
   * Whose is this account (docs/security.md, "Whose data"): the rule every entry point asks of an
   * account, a card or a payee a request names. The bank's (a fixture, no scenario) is everyone's;
   * a scenario's is its own client's only (AUTH_MODE=strict; in open mode everyone's). To anyone
   * else it does not exist: the rows it leaves out are answered as unknown ones.
   */
  async visibleTo<T extends { scenarioId: string | null; psuId: string | null }>(rows: T[], world: World): Promise<T[]> {
    const holders = [...new Set(rows.flatMap(({ scenarioId, psuId }) => (scenarioId !== null && psuId !== null ? [psuId] : [])))];
    if (world.clientId === null || holders.length === 0) return rows;
    const own = new Set((await this.store.read(Psu).findBy({ psuId: In(holders), ownerId: world.clientId })).map(({ psuId }) => psuId));
    return rows.filter(({ scenarioId, psuId }) => scenarioId === null || (psuId !== null && own.has(psuId)));
  }

  /** One booked or pending transaction of the account (standing orders have no details), or null. */
  async transaction(iban: string, transactionId: string): Promise<Transaction | null> {
    const wanted = (row: Transaction) => row.transactionId === transactionId && isTransaction(row.bookingStatus);
    if (this.isFixture(iban)) return this.fixtures.with(Transaction, 'accountIban', iban).find(wanted) ?? null;
    const row = await this.store.read(Transaction).findOneBy({ accountIban: iban, transactionId });
    return row && wanted(row) ? row : null;
  }

  /** An account's transactions that pass the filter, in list order. */
  async transactionsOf(iban: string, { statuses, from, to }: TransactionFilter): Promise<Transaction[]> {
    if (this.isFixture(iban)) return passing(this.fixtures.with(Transaction, 'accountIban', iban), { statuses, from, to }).sort(inOrder);
    const bookingDate = between(from, to);
    return this.store.read(Transaction).find({
      where: statuses.map((status) => ({
        accountIban: iban,
        bookingStatus: status,
        ...(bookingDate && isTransaction(status) ? { bookingDate } : {}),
      })),
      order: ORDER,
    });
  }

  private isFixture(iban: string): boolean {
    return this.fixtures.has(Account, 'iban', iban);
  }

  /** A fixture account with its balances by type, as the database's are read: made once, frozen as the fixtures are. */
  private fixture(iban: string): Account | undefined {
    let made = this.fixtureAccounts.get(iban);
    if (!made) {
      const [account] = this.fixtures.with(Account, 'iban', iban);
      if (!account) return undefined;
      const balances = [...this.fixtures.with(Balance, 'accountIban', iban)].sort((a, b) => compare(a.balanceType, b.balanceType));
      this.fixtureAccounts.set(iban, (made = Object.freeze({ ...account, balances: Object.freeze(balances) as Balance[] })));
    }
    return made;
  }
}

/** The rows in memory that pass the filter, as the query of transactionsOf selects them. */
export function passing<T extends Pick<Transaction, 'bookingStatus' | 'bookingDate'>>(
  rows: readonly T[],
  { statuses, from, to }: TransactionFilter,
): T[] {
  // As SQL compares: without a date a row fails any bound.
  const inPeriod = (date: string | null) => (!from || (date !== null && date >= from)) && (!to || (date !== null && date <= to));
  return rows.filter(
    ({ bookingStatus, bookingDate }) => statuses.includes(bookingStatus) && (!isTransaction(bookingStatus) || inPeriod(bookingDate)),
  );
}

/** ORDER, for rows in memory, comparing strings as SQL does (by code unit); each status is listed apart, so undated rows never meet dated ones. */
export function inOrder(
  a: Pick<Transaction, 'bookingDate' | 'transactionId'>,
  b: Pick<Transaction, 'bookingDate' | 'transactionId'>,
): number {
  return compare(b.bookingDate ?? '', a.bookingDate ?? '') || compare(a.transactionId, b.transactionId);
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function between(from?: string, to?: string): FindOperator<string> | undefined {
  if (from && to) return Between(from, to);
  if (from) return MoreThanOrEqual(from);
  if (to) return LessThanOrEqual(to);
  return undefined;
}
