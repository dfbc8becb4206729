import { DataSource, EntityManager, IsNull, Not } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Account, Balance, BookingStatus, Psu, Transaction, TransactionBody } from '../src/account-information/account.entity';
import { Consent } from '../src/consent/consent.entity';
import { Payment } from '../src/payment-initiation/payment.entity';
import type { ConsentStatus } from '../src/consent/consent.machine';
import { TppClient } from '../src/auth/client.entity';
import accounts from './accounts.json';
import clients from './clients.json';
import consents from './consents.json';
import psus from './psus.json';
import transactions from './transactions.json';

/** The bank's fixtures (README, "Fixtures"): plain data in the JSON files beside this one. */
// consents.json also names the unknown fixture, which is never stored.
const FIXTURE_CONSENTS = consents.stored;
const FIXTURE_ACCOUNTS = accounts;
const FIXTURE_PSUS = psus;
export const FIXTURE_TRANSACTIONS: Record<string, Record<BookingStatus, TransactionBody[]>> = transactions;

/** The bank answers every consent request with an explicit account list with this Consent-ID. */
export const FIRST_VALID_CONSENT_ID = FIXTURE_CONSENTS.find((consent) => consent.status === 'valid')!.id;

/**
 * The fixture rows, built once: the seed upserts copies of them and the app serves them from
 * memory. Frozen all the way down: a caller that tried to change one would throw, not change
 * what every later request is answered from.
 */
export const FIXTURE_ROWS = deepFreeze(fixtureRows());

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function fixtureRows() {
  const holder = new Map(FIXTURE_PSUS.flatMap(({ psuId, accounts: ibans }) => ibans.map((iban) => [iban, psuId])));
  const balances: Balance[] = FIXTURE_ACCOUNTS.flatMap(({ iban, balances: list }) => list.map((balance) => ({ ...balance, accountIban: iban }) as Balance));
  return {
    psus: FIXTURE_PSUS.map(({ psuId, name, password }) => ({ psuId, name, password })),
    accounts: FIXTURE_ACCOUNTS.map(
      ({ iban, name, currency, product, bic }): Omit<Account, 'balances'> => ({ iban, name, currency, product, bic, psuId: holder.get(iban) ?? null, scenarioId: null }),
    ),
    balances,
    transactions: Object.entries(FIXTURE_TRANSACTIONS).flatMap(([accountIban, byStatus]) =>
      Object.entries(byStatus).flatMap(([bookingStatus, bodies]) =>
        bodies.map((body) => ({ transactionId: body.transactionId, accountIban, bookingStatus: bookingStatus as BookingStatus, bookingDate: body.bookingDate, body }) as Transaction),
      ),
    ),
    consents: FIXTURE_CONSENTS.map(
      ({ id, status, accounts: ibans, ...terms }): Consent => ({
        id,
        status: status as ConsentStatus,
        access: { accounts: ibans.map((iban) => ({ iban, currency: 'EUR' })), balances: [], transactions: [], availableAccounts: null },
        ...terms,
        fixture: true,
        scenarioId: null,
        ownerId: null,
      }),
    ),
  };
}

/**
 * Upserts every fixture by its fixed ID: safe to run on every start, and never touches TPP-created
 * rows. TypeORM writes what the database answers back into the objects it is given (and with
 * SQLite's row IDs it wrote one consent's ID into another), so it is given copies.
 */
export async function seedFixtures(manager: EntityManager): Promise<void> {
  const { psus, accounts, balances, transactions, consents: consentRows } = structuredClone(FIXTURE_ROWS);
  await manager.upsert(TppClient, clients, ['clientId']);
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
    await seedFixtures(manager);
  });
}
