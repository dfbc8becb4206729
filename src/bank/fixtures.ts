import { Injectable, Type } from '@nestjs/common';
import { Consent } from '../consent/consent.entity';
import { BankProfile } from '../profile/bank-profile';
import { Account, Balance, Psu, Transaction } from './account.entity';

/**
 * The profile's fixtures, as the stores read them. Fixtures are scenery: the seed writes them and
 * nothing changes them (docs/profiles.md), so a store answers them from here and asks the database
 * only for the rest. One index a table and column, built at its first use: the only copy of the
 * fixtures in memory.
 */
@Injectable()
export class Fixtures {
  private readonly tables: Map<Type<object>, readonly object[]>;
  private readonly indexes = new Map<Type<object>, Map<PropertyKey, Map<unknown, object[]>>>();

  constructor(profile: BankProfile) {
    const { psus, accounts, balances, transactions, consents, services } = profile.rows;
    this.tables = new Map<Type<object>, readonly object[]>([
      [Psu, psus],
      [Account, accounts],
      [Balance, balances],
      [Transaction, transactions],
      [Consent, consents],
      ...services.map(({ entity, rows }): [Type<object>, readonly object[]] => [entity, rows]),
    ]);
  }

  /** The fixture rows of `entity` (the core's or an offered service's) whose `column` holds `value`, in the profile's order. */
  with<Row extends object, K extends keyof Row>(entity: Type<Row>, column: K, value: Row[K]): readonly Row[] {
    let byColumn = this.indexes.get(entity);
    if (!byColumn) this.indexes.set(entity, (byColumn = new Map()));
    let index = byColumn.get(column);
    if (!index) {
      index = new Map();
      for (const row of (this.tables.get(entity) ?? []) as Row[]) {
        const key: unknown = row[column];
        const same = index.get(key);
        if (same) same.push(row);
        else index.set(key, [row]);
      }
      byColumn.set(column, index);
    }
    return (index.get(value) ?? []) as Row[];
  }

  /** Whether a fixture row of `entity` holds `value` in `column`: then every row with it is a fixture, and the database holds no other. */
  has<Row extends object, K extends keyof Row>(entity: Type<Row>, column: K, value: Row[K]): boolean {
    return this.with(entity, column, value).length > 0;
  }
}
