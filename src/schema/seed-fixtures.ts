import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Account, Balance, Psu, Transaction } from '../bank/account.entity';
import { Consent } from '../consent/consent.entity';
import type { BankProfile } from '../profile/bank-profile';
import { TppClient } from '../oauth/client.entity';
import { sha256 } from '../oauth/credentials';
import { SeededProfile } from '../database/seeded-profile.entity';
import { inPurgeOrder, scopeOf } from '../world/world-scope';

/**
 * Upserts every fixture of the profile by its fixed ID: safe to run on every start, and never
 * touches TPP-created rows. A database seeded with another profile (or another version of it) is
 * refused, so that every instance on one database is the same bank (docs/profiles.md). TypeORM
 * writes what the database answers back into the objects it is given (and with SQLite's row IDs
 * it wrote one consent's ID into another), so it is given copies.
 */
export async function seedFixtures(manager: EntityManager, profile: BankProfile, database: string): Promise<void> {
  const seeded = await manager.findOneBy(SeededProfile, { id: 1 });
  if (seeded && seeded.digest !== profile.digest) {
    throw new Error(
      `The database ${database} was seeded with the profile ${seeded.source} (${seeded.name}, ${seeded.digest.slice(0, 12)}), and this instance runs ` +
        `PROFILE=${profile.source} (${profile.name}, ${profile.digest.slice(0, 12)}): every instance on one database must run the same profile. ` +
        'Start with that profile, or reseed the database with this one (npm run db:reset).',
    );
  }
  const { psus, accounts, balances, transactions, consents, clients } = structuredClone({ ...profile.rows, services: [] });
  // The fixture clients' secrets are public (the profile's files), but kept hashed as every client's.
  const clientRows = clients.map(({ clientId, name, clientSecret }) => ({ clientId, name, secretHash: sha256(clientSecret) }));
  await manager.upsert(TppClient, clientRows, ['clientId']);
  await manager.upsert(Psu, psus, ['psuId']);
  await manager.upsert(Account, accounts, ['iban']);
  await manager.upsert(Balance, balances, ['accountIban', 'balanceType']);
  // TypeORM's deep-partial type cannot follow the open-ended JSON body; the rows are whole entities.
  await manager.upsert(Transaction, transactions as QueryDeepPartialEntity<Transaction>[], ['transactionId']);
  await manager.upsert(Consent, consents, ['id']);
  for (const { entity, conflictPaths, rows } of profile.rows.services)
    if (rows.length) await manager.upsert(entity, structuredClone(rows) as QueryDeepPartialEntity<object>[], conflictPaths);
  if (!seeded)
    await manager.insert(SeededProfile, { id: 1, source: profile.source.slice(0, 500), name: profile.name, digest: profile.digest });
}

/**
 * Forgets everything TPPs created and every fixture, and seeds the profile in force, as on a fresh
 * install: also how a database moves to another profile. Every table some world's rows are in is
 * emptied, as its entity declares it (`@WorldScoped`, docs/security.md, "A world's life"), and the
 * record of the seeded profile; the bank's own (its CA, its secrets) and what is kept by address
 * or session stay.
 */
export async function resetSandbox(dataSource: DataSource, profile: BankProfile, database: string): Promise<void> {
  await dataSource.transaction(async (manager) => {
    for (const entity of inPurgeOrder(dataSource))
      if (scopeOf(entity) !== 'none' || entity === SeededProfile) await manager.createQueryBuilder().delete().from(entity).execute();
    await seedFixtures(manager, profile, database);
  });
}

/** How openDataSource seeds for the server and `npm run seed`: upserts the profile's fixtures; `reseed` (db:reset) replaces everything instead. */
export const seeding =
  (profile: BankProfile, { reseed = false } = {}) =>
  (dataSource: DataSource, database: string): Promise<void> =>
    reseed ? resetSandbox(dataSource, profile, database) : dataSource.transaction((manager) => seedFixtures(manager, profile, database));
