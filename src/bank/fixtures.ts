import { Injectable, Type } from '@nestjs/common';
import { fixtureConsentAuthorisations } from '../profile/fixture-authorisations';
import { Authorisation } from '../authorisation/authorisation.entity';
import { Consent } from '../consent/consent.entity';
import { fixturePayments } from '../payment-initiation/fixture-payments';
import { Payment } from '../payment-initiation/payment.entity';
import { BankProfile, deepFreeze } from '../profile/bank-profile';
import type { DerivedFixtures } from '../core/sandbox-service';
import { fixturePayeeChecks } from '../verification-of-payee/fixture-checks';
import { PayeeCheck } from '../verification-of-payee/payee-check.entity';
import { Account, Balance, Psu, Transaction } from './account.entity';

/**
 * The profile's fixtures, as the stores read them. Fixtures are scenery: the seed writes them and
 * nothing changes them (docs/profiles.md), so a store answers them from here and asks the database
 * only for the rest. Beside the profile's files, what the sandbox derives from them (fixture
 * payments, the fixtures' authorisations, a bulk payee check, what the offered services derive),
 * which live only here. One index a table and column, built at its first use: the only copy of
 * the fixtures in memory.
 */
@Injectable()
export class Fixtures {
  private readonly tables: Map<Type<object>, readonly object[]>;
  private readonly indexes = new Map<Type<object>, Map<PropertyKey, Map<unknown, object[]>>>();

  constructor(profile: BankProfile) {
    const { psus, accounts, balances, transactions, consents, services } = profile.rows;
    const payments = fixturePayments(profile);
    const sources: DerivedFixtures = [
      [Psu, psus],
      [Account, accounts],
      [Balance, balances],
      [Transaction, transactions],
      [Consent, consents],
      ...services.map(({ entity, rows }): [Type<object>, readonly object[]] => [entity, rows]),
      // Derived: the core's, then each offered service's.
      [Payment, payments.payments],
      [Authorisation, [...fixtureConsentAuthorisations(profile), ...payments.authorisations]],
      [PayeeCheck, fixturePayeeChecks(profile)],
      ...profile.services.flatMap((service) => service.derivedFixtures?.(profile) ?? []),
    ];
    this.tables = new Map();
    for (const [entity, rows] of sources) this.tables.set(entity, deepFreeze([...(this.tables.get(entity) ?? []), ...rows]));
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
