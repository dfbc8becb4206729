import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Account, Balance, Psu, Transaction } from '../src/bank/account.entity';
import { Authorisation } from '../src/authorisation/authorisation.entity';
import { newResourceId } from '../src/common/resource-id';
import { Consent } from '../src/consent/consent.entity';
import { validateEnvironment } from '../src/config/environment';
import { DatabaseSetting, dataSourceOptions, openDataSource } from '../src/database/data-source';
import type { PaymentStatus } from '../src/payment-initiation/payment.machine';
import { Payment } from '../src/payment-initiation/payment.entity';
import { scenarioRows } from '../src/sandbox-control/scenario';
import type { BankProfile } from '../src/profile/bank-profile';
import { loadProfile } from '../src/profile/load-profile';
import { SERVICES } from '../src/services';
import { schemaOf } from '../src/schema/schema';
import { seeding } from '../src/schema/seed-fixtures';

/** Rows per INSERT: TypeORM builds long statements slowly, and 50 rows measured fastest. */
const CHUNK = 50;
/** Payments per transaction: keeps the write-ahead log small, so it never grows to the size of the load. */
const BATCH = 10_000;
/** Statuses a payment ends in once its holder decided, with the authorisation status that goes with each. */
const SETTLED: [PaymentStatus, Authorisation['status']][] = [
  ['ACSP', 'finalised'],
  ['ACSP', 'finalised'],
  ['RJCT', 'finalised'],
  ['CANC', 'failed'],
];

export interface BulkLoad {
  payments: number;
  transactions: number;
}

/** What the load added: one payment of it to read, and the large account with a consent on it. */
export interface BulkLoaded {
  paymentId: string;
  iban: string;
  consentId: string;
}

/**
 * A large data set for the scaling benchmark: `payments` settled SEPA payments (each with its
 * authorisation) from the fixture accounts, and one scenario account with `transactions` booked
 * transactions, ten a day going back from `today`, with a valid consent on it. Written in
 * multi-row INSERTs through TypeORM, in transactions of BATCH payments.
 */
async function seedBulk(
  dataSource: DataSource,
  profile: BankProfile,
  { payments, transactions }: BulkLoad,
  today: string,
): Promise<BulkLoaded> {
  const scenario = scenarioRows(
    {
      accounts: [
        {
          name: 'Bulk Mustermann',
          balances: { interimAvailable: '1000000.00', forwardAvailable: '1000000.00' },
          booked: Array.from({ length: transactions }, (_, number) => ({
            amount: number % 3 ? `-${(number % 500) + 1}.25` : '2500.00',
            bookingDate: daysBefore(today, Math.floor(number / 10)),
            counterpartyName: number % 3 ? 'Muster Handel GmbH' : 'Muster Arbeitgeber AG',
            counterpartyIban: 'AT611904300234573201',
            remittanceInformationUnstructured: `Bulk ${number + 1}`,
          })),
        },
      ],
    },
    { scenarioId: randomUUID(), consentId: randomUUID(), ownerId: null, bic: profile.settings.bic },
    today,
    [],
  );
  const debtors = profile.rows.accounts.map(({ iban }) => iban);
  await dataSource.transaction(async (manager) => {
    await manager.insert(Psu, scenario.psu);
    await manager.insert(Account, scenario.accounts);
    await manager.insert(Balance, scenario.balances);
    await insertInChunks(manager, Transaction, scenario.transactions);
    await manager.insert(Consent, scenario.consent);
  });
  let paymentId = '';
  for (let start = 0; start < payments; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, payments - start) }, (_, offset) => settledPayment(start + offset, debtors, today));
    paymentId ||= rows[0].payment.id;
    await dataSource.transaction(async (manager) => {
      await insertInChunks(
        manager,
        Payment,
        rows.map(({ payment }) => payment),
      );
      await insertInChunks(
        manager,
        Authorisation,
        rows.map(({ authorisation }) => authorisation),
      );
    });
  }
  return { paymentId, iban: scenario.accounts[0].iban, consentId: scenario.consent.id };
}

function settledPayment(number: number, debtors: string[], today: string): { payment: Payment; authorisation: Authorisation } {
  const [status, scaStatus] = SETTLED[number % SETTLED.length];
  const debtorIban = debtors[number % debtors.length];
  const amount = `${(number % 9000) + 1}.${String(number % 100).padStart(2, '0')}`;
  const body = {
    debtorAccount: { iban: debtorIban },
    instructedAmount: { currency: 'EUR', amount },
    creditorAccount: { iban: 'AT611904300234573201' },
    creditorName: 'Muster Handel GmbH',
    remittanceInformationUnstructured: `Invoice ${number + 1}`,
  };
  const id = newResourceId();
  return {
    payment: {
      id,
      service: 'payments',
      product: 'sepa-credit-transfers',
      status,
      debtorIban,
      amount,
      currency: 'EUR',
      executionDate: null,
      nextExecutionDate: null,
      instalmentsRun: 0,
      lastDueDate: null,
      body,
      ownerId: null,
      reasonCode: null,
      vopResults: null,
      document: null,
    },
    authorisation: {
      id: newResourceId(),
      kind: 'payment',
      resourceId: id,
      status: scaStatus,
      approach: 'REDIRECT',
      psuId: null,
      scaMethodId: null,
      failedAttempts: 0,
      polls: 0,
      tppRedirectUri: null,
      tppNokRedirectUri: null,
      ownerId: null,
      createdAt: `${today}T00:00:00.000Z`,
    },
  };
}

async function insertInChunks<T extends ObjectLiteral>(manager: EntityManager, entity: EntityTarget<T>, rows: T[]): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK)
    await manager.insert(entity, rows.slice(start, start + CHUNK) as QueryDeepPartialEntity<T>[]);
}

function daysBefore(today: string, days: number): string {
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

/** Migrates the database and seeds the profile's fixtures if that is still to do, then adds the load. */
export async function loadBulk(database: DatabaseSetting, load: BulkLoad, today: string, profile: BankProfile): Promise<BulkLoaded> {
  const dataSource = await openDataSource(dataSourceOptions(database, schemaOf(SERVICES)), seeding(profile));
  try {
    return await seedBulk(dataSource, profile, load, today);
  } finally {
    await dataSource.destroy();
  }
}

/** `npm run seed:bulk`: BULK_PAYMENTS and BULK_TRANSACTIONS on the server's database. */
async function main(): Promise<void> {
  const environment = validateEnvironment(process.env);
  const { SANDBOX_DATE } = environment;
  const load = { payments: Number(process.env.BULK_PAYMENTS ?? 1_000_000), transactions: Number(process.env.BULK_TRANSACTIONS ?? 100_000) };
  const started = performance.now();
  const loaded = await loadBulk(
    environment,
    load,
    SANDBOX_DATE ?? new Date().toISOString().slice(0, 10),
    loadProfile(environment.PROFILE, SERVICES),
  );
  console.log(
    `Added ${load.payments} payments and an account with ${load.transactions} transactions in ${Math.round(performance.now() - started)} ms:`,
    loaded,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
