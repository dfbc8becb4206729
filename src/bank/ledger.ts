import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Store } from '../database/store';
import { Account, Balance, Transaction } from './account.entity';
import { LedgerEntry, LiveBalances, withEntry, withinCeiling } from './balances';
import { AccountStore } from './account-store';
import type { World } from '../world/world';
import { worldLock } from '../world/world-scope';

/** Scenario accounts are live: what is executed books on them. The bank's fixture accounts are scenery and never move (docs/living-bank.md). */
const isLive = (account: Account) => account.scenarioId !== null;

/** Where payments book. Open it inside a write, before any other change of that write. */
@Injectable()
export class Ledger {
  constructor(
    private readonly store: Store,
    private readonly accounts: AccountStore,
  ) {}

  /**
   * The accounts among `ibans` that `world` may see (AccountStore.visibleTo: another client's
   * scenario account is no account here, so nothing is checked against or booked on it), with their
   * balances. When one is live, the world's writes that book run one after the other from here to
   * their commit, so that no two funds checks read the same balance.
   */
  async open(ibans: string[], world: World): Promise<LedgerRun> {
    const find = (wanted: string[]) => this.store.read(Account).find({ where: { iban: In(wanted) }, relations: { balances: true } });
    let accounts = await this.accounts.visibleTo(await find([...new Set(ibans)]), world);
    if (accounts.some(isLive)) {
      await this.serialize(world);
      // As the last write that booked left them; whose they are does not change meanwhile.
      accounts = await find(accounts.map(({ iban }) => iban));
    }
    return new LedgerRun(this.store, accounts);
  }

  /**
   * Inside a write, before any other change of it: from here to its commit, no other write of the
   * world books. One lock a world: the accounts that move are scenario accounts, each one world's
   * (AccountStore.visibleTo), so two worlds never book on one account, and one's bookings never
   * hold another's (docs/development.md, "Bookings"). The world's lock: its resets and restores wait too.
   */
  async serialize(world: World): Promise<void> {
    await this.store.lock(worldLock(world));
  }
}

/** The entries a write adds to and takes from live accounts, and the balances they give, kept in memory until `commit`. */
export class LedgerRun {
  private readonly accounts: Map<string, Account>;
  private readonly balances = new Map<string, LiveBalances>();
  private readonly changed = new Set<string>();
  private readonly added: Transaction[] = [];
  private readonly removed: string[] = [];

  constructor(
    private readonly store: Store,
    accounts: Account[],
  ) {
    this.accounts = new Map(accounts.map((account) => [account.iban, account]));
    for (const account of accounts.filter(isLive)) {
      const amount = (type: string) => account.balances.find(({ balanceType }) => balanceType === type)!.amount;
      this.balances.set(account.iban, { interimAvailable: amount('interimAvailable'), forwardAvailable: amount('forwardAvailable') });
    }
  }

  /** The account, if it is live: the only kind anything books on. */
  live(iban: string): Account | undefined {
    const account = this.accounts.get(iban);
    return account && isLive(account) ? account : undefined;
  }

  /** interimAvailable as it stands, with this write's bookings; null for an account the bank does not hold. */
  available(iban: string): string | null {
    const stored = this.accounts.get(iban)?.balances.find(({ balanceType }) => balanceType === 'interimAvailable');
    return this.balances.get(iban)?.interimAvailable ?? stored?.amount ?? null;
  }

  add(row: Transaction): void {
    if (!this.balances.has(row.accountIban)) throw new Error(`${row.accountIban} is not a live account: nothing books on it`);
    if (putOn(this.balances, row)) this.changed.add(row.accountIban);
    this.added.push(row);
  }

  /** Takes entries away (a pending debit that executed or was cancelled, a standing order that ended); unknown IDs are ignored. */
  async remove(transactionIds: string[]): Promise<void> {
    for (const row of await this.stored(transactionIds)) {
      if (takeAway(this.balances, row)) this.changed.add(row.accountIban);
      this.removed.push(row.transactionId);
    }
  }

  /**
   * Whether taking the entries `replacing` away and adding `rows` would leave every balance
   * within AMOUNT_CEILING, what the balances' column and the interface's amounts hold
   * (docs/living-bank.md, "Ceiling"); nothing changes.
   */
  async fits(rows: Transaction[], replacing: string[] = []): Promise<boolean> {
    const after = new Map(this.balances);
    for (const row of await this.stored(replacing)) takeAway(after, row);
    for (const row of rows) putOn(after, row);
    return [...after.values()].every(withinCeiling);
  }

  private async stored(transactionIds: string[]): Promise<Transaction[]> {
    return transactionIds.length ? this.store.read(Transaction).findBy({ transactionId: In(transactionIds) }) : [];
  }

  /** Writes what was taken away, then what was added, and the balances, dated `today`. */
  async commit(today: string): Promise<void> {
    if (this.removed.length) await this.store.change(Transaction).delete({ transactionId: In(this.removed) });
    await this.store.insertMany(Transaction, this.added);
    for (const iban of this.changed) {
      for (const [balanceType, amount] of Object.entries(this.balances.get(iban)!)) {
        await this.store.change(Balance).update({ accountIban: iban, balanceType }, { amount, referenceDate: today });
      }
    }
  }
}

/** An entry added to the balances of its live account; whether they moved (a standing order's `information` moves none). */
function putOn(balances: Map<string, LiveBalances>, row: Transaction): boolean {
  return row.bookingStatus !== 'information' && move(balances, row, 1);
}

/** An entry taken away again: only a pending one moves the balances, a booked one is history. */
function takeAway(balances: Map<string, LiveBalances>, row: Transaction): boolean {
  return row.bookingStatus === 'pending' && move(balances, row, -1);
}

/** The row's entry on its account's balances, where the map holds them; whether it did. */
function move(balances: Map<string, LiveBalances>, row: Transaction, sign: 1 | -1): boolean {
  const current = balances.get(row.accountIban);
  if (!current) return false;
  const entry = { bookingStatus: row.bookingStatus as LedgerEntry['bookingStatus'], amount: row.body.transactionAmount.amount };
  balances.set(row.accountIban, withEntry(current, entry, sign));
  return true;
}
