import { DataSource, DataSourceOptions } from 'typeorm';
import { resetSandbox, seedFixtures } from './seed-fixtures';
import { InitialSchema1795200000000 } from '../../migrations/1795200000000-InitialSchema';
import { Payments1795300000000 } from '../../migrations/1795300000000-Payments';
import { ScaAndClock1795400000000 } from '../../migrations/1795400000000-ScaAndClock';
import { Scenarios1795500000000 } from '../../migrations/1795500000000-Scenarios';
import { Hardening1795600000000 } from '../../migrations/1795600000000-Hardening';
import { SharedState1795700000000 } from '../../migrations/1795700000000-SharedState';
import { LivingBank1795800000000 } from '../../migrations/1795800000000-LivingBank';
import { ScaApproaches1795900000000 } from '../../migrations/1795900000000-ScaApproaches';
import { EventHistory1796000000000 } from '../../migrations/1796000000000-EventHistory';
import { Notifications1796100000000 } from '../../migrations/1796100000000-Notifications';
import { SeededProfile1796200000000 } from '../../migrations/1796200000000-SeededProfile';
import { VerificationOfPayee1796300000000 } from '../../migrations/1796300000000-VerificationOfPayee';
import { TppIdentity1796400000000 } from '../../migrations/1796400000000-TppIdentity';
import { FundsConfirmation1796500000000 } from '../../migrations/1796500000000-FundsConfirmation';
import { TrustedBeneficiaries1796600000000 } from '../../migrations/1796600000000-TrustedBeneficiaries';
import { SigningBaskets1796700000000 } from '../../migrations/1796700000000-SigningBaskets';
import { CardAccounts1796800000000 } from '../../migrations/1796800000000-CardAccounts';
import { SandboxEvent } from '../events/sandbox-event.entity';
import { AccessCount } from '../account-information/access-count.entity';
import { AccessToken, TppClient } from '../oauth/client.entity';
import { Account, Balance, Psu, Transaction } from '../bank/account.entity';
import { SandboxClock } from '../clock/sandbox-clock.entity';
import { SandboxSecret } from '../sca/sandbox-secret.entity';
import { Consent } from '../consent/consent.entity';
import { Environment } from '../config/environment';
import { Payment } from '../payment-initiation/payment.entity';
import { FailedInstalment } from '../payment-initiation/failed-instalment.entity';
import { Authorisation } from '../authorisation/authorisation.entity';
import { BankConditions } from '../conditions/bank-conditions.entity';
import { Notification, NotificationSubscription } from '../notifications/notification.entity';
import type { BankProfile } from '../profile/bank-profile';
import type { SandboxService } from '../core/sandbox-service';
import { SeededProfile } from './seeded-profile.entity';
import { PayeeCheck } from '../verification-of-payee/payee-check.entity';
import { CertificateAuthority, TppCertificate } from '../tpp-identity/tpp-certificate.entity';

/** Where the data lives: DATABASE_URL (PostgreSQL) when set, else the SQLite file at DATABASE_PATH. */
export type DatabaseSetting = Pick<Environment, 'DATABASE_PATH' | 'DATABASE_URL'>;

/** The core's tables; each registered service adds its own (SandboxService.entities). */
export const CORE_ENTITIES = [Consent, Psu, Account, Balance, Transaction, Payment, Authorisation, SandboxClock, SandboxSecret, TppClient, AccessToken, AccessCount, FailedInstalment, BankConditions, SandboxEvent, NotificationSubscription, Notification, SeededProfile, PayeeCheck, CertificateAuthority, TppCertificate];
// Listed as classes, not globs, so the same list works from ts-jest and from dist/.
const migrations = [InitialSchema1795200000000, Payments1795300000000, ScaAndClock1795400000000, Scenarios1795500000000, Hardening1795600000000, SharedState1795700000000, LivingBank1795800000000, ScaApproaches1795900000000, EventHistory1796000000000, Notifications1796100000000, SeededProfile1796200000000, VerificationOfPayee1796300000000, TppIdentity1796400000000, FundsConfirmation1796500000000, TrustedBeneficiaries1796600000000, SigningBaskets1796700000000, CardAccounts1796800000000];

/** The one TypeORM definition used by the app, the TypeORM CLI, the seed scripts and the tests: the core's tables and the registered services' (src/services.ts). */
export function dataSourceOptions({ DATABASE_PATH, DATABASE_URL }: DatabaseSetting, services: readonly SandboxService[]): DataSourceOptions {
  const entities = [...CORE_ENTITIES, ...services.flatMap((service) => service.entities)];
  if (DATABASE_URL) {
    // Pooled connections: each write is its own transaction, and they run side by side (write-strategy.ts).
    return { type: 'postgres', url: DATABASE_URL, entities, migrations, synchronize: false, extra: { max: 10 } };
  }
  // TypeORM's better-sqlite3 driver creates the file's folder when it connects.
  return {
    type: 'better-sqlite3',
    database: DATABASE_PATH,
    entities,
    migrations,
    synchronize: false,
    // The driver turns foreign keys on itself; WAL lets reads run beside a write. synchronous=FULL
    // fsyncs the log at every commit, so an answered write survives a power cut too; GroupCommit
    // shares one commit among the writes that arrive together, which keeps that affordable.
    enableWAL: true,
    prepareDatabase: (db) => {
      db.pragma('synchronous = FULL');
      // better-sqlite3 builds SQLite with a 16 MB page cache; SQLite's own default of 2 MB measured
      // as fast (the kernel caches the file as well) and keeps the process 15 MB smaller.
      db.pragma('cache_size = -2000');
    },
  };
}

/** The database as messages name it: the file, or the PostgreSQL URL without its password. */
export function databaseName(options: DataSourceOptions): string {
  if (options.type !== 'postgres') return String(options.database);
  const url = new URL(options.url!);
  if (url.password) url.password = '***';
  return url.toString();
}

/**
 * Opens, migrates, checks and seeds the database with the profile's fixtures: what the server, the
 * seed scripts and the tests start from. A database that cannot be opened (a garbage, truncated or
 * unwritable file, an unreachable server), a schema migrated by a newer version of the sandbox or
 * a database seeded with another profile is not a passing fault: it fails at once with a message
 * naming the database (docs/operations.md). `reseed` (db:reset) replaces every fixture instead.
 */
export async function openDataSource(options: DataSourceOptions, profile: BankProfile, { reseed = false } = {}): Promise<DataSource> {
  const dataSource = new DataSource(options);
  try {
    await dataSource.initialize();
  } catch (error) {
    throw new Error(`Cannot open the database ${databaseName(options)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    await oneAtATime(dataSource, async () => {
      await dataSource.runMigrations({ transaction: 'all' });
      const known = new Set(migrations.map((migration) => new migration().name));
      const applied = (await dataSource.query('SELECT name FROM migrations')) as { name: string }[];
      const newer = applied.map(({ name }) => name).filter((name) => !known.has(name));
      if (newer.length > 0) throw new Error(`The database ${databaseName(options)} was migrated by a newer version of the sandbox (${newer.join(', ')}): refusing to start on it`);
      if (reseed) await resetSandbox(dataSource, profile, databaseName(options));
      else await dataSource.transaction((manager) => seedFixtures(manager, profile, databaseName(options)));
    });
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

/**
 * Instances that start together on one PostgreSQL database would run the same migrations side by
 * side: a session advisory lock lets one migrate and seed while the others wait. SQLite's own
 * file lock already does this.
 */
async function oneAtATime(dataSource: DataSource, work: () => Promise<void>): Promise<void> {
  if (dataSource.options.type !== 'postgres') return work();
  const session = dataSource.createQueryRunner();
  await session.query('SELECT pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK]);
  try {
    await work();
  } finally {
    await session.query('SELECT pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK]);
    await session.release();
  }
}

const MIGRATION_LOCK = 'psd2-sandbox migrations';
