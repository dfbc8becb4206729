import { DataSource, EntityManager, IsNull, Not } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Account, Balance, Psu, Transaction } from '../bank/account.entity';
import { BankConditions } from '../conditions/bank-conditions.entity';
import { Notification, NotificationSubscription } from '../notifications/notification.entity';
import { SandboxEvent } from '../events/sandbox-event.entity';
import { Consent } from '../consent/consent.entity';
import { FIXTURE_CLIENTS, FIXTURE_ROWS } from '../fixtures/fixtures';
import { TppClient } from '../oauth/client.entity';
import { Payment } from '../payment-initiation/payment.entity';

/**
 * Upserts every fixture by its fixed ID: safe to run on every start, and never touches TPP-created
 * rows. TypeORM writes what the database answers back into the objects it is given (and with
 * SQLite's row IDs it wrote one consent's ID into another), so it is given copies.
 */
export async function seedFixtures(manager: EntityManager): Promise<void> {
  const { psus, accounts, balances, transactions, consents: consentRows } = structuredClone(FIXTURE_ROWS);
  await manager.upsert(TppClient, FIXTURE_CLIENTS, ['clientId']);
  await manager.upsert(Psu, psus, ['psuId']);
  await manager.upsert(Account, accounts, ['iban']);
  await manager.upsert(Balance, balances, ['accountIban', 'balanceType']);
  // TypeORM's deep-partial type cannot follow the open-ended JSON body; the rows are whole entities.
  await manager.upsert(Transaction, transactions as QueryDeepPartialEntity<Transaction>[], ['transactionId']);
  await manager.upsert(Consent, consentRows, ['id']);
}

/** Forgets everything TPPs created and restores the fixtures, as on a fresh install. */
export async function resetSandbox(dataSource: DataSource): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await manager.delete(Consent, { fixture: false });
    // Scenarios are test suites' own data: consents first, then accounts (their data cascades), then PSUs.
    for (const entity of [Consent, Account, Psu]) await manager.delete(entity, { scenarioId: Not(IsNull()) });
    await manager.createQueryBuilder().delete().from(Payment).execute(); // every payment is a TPP's
    await manager.createQueryBuilder().delete().from(BankConditions).execute(); // the bank back in service, answering at once
    await manager.createQueryBuilder().delete().from(SandboxEvent).execute(); // a fresh install has no history
    for (const entity of [Notification, NotificationSubscription]) await manager.createQueryBuilder().delete().from(entity).execute(); // nor anything to notify
    await seedFixtures(manager);
  });
}
