import { DataSource, DataSourceOptions } from 'typeorm';
import { InitialSchema1795200000000 } from '../../migrations/1795200000000-InitialSchema';
import { Payments1795300000000 } from '../../migrations/1795300000000-Payments';
import { ScaAndClock1795400000000 } from '../../migrations/1795400000000-ScaAndClock';
import { Scenarios1795500000000 } from '../../migrations/1795500000000-Scenarios';
import { Hardening1795600000000 } from '../../migrations/1795600000000-Hardening';
import { AccessCount } from '../account-information/access-count.entity';
import { AccessToken, TppClient } from '../auth/client.entity';
import { Account, Balance, Psu, Transaction } from '../account-information/account.entity';
import { SandboxClock } from '../common/sandbox-clock.entity';
import { Consent } from '../consent/consent.entity';
import { Environment } from '../config/environment';
import { Payment } from '../payment-initiation/payment.entity';
import { Authorisation } from '../authorisation/authorisation.entity';

/** The one TypeORM definition used by the app, the TypeORM CLI, the seed script and the tests. */
export function dataSourceOptions(databasePath: string): DataSourceOptions {
  // TypeORM's better-sqlite3 driver creates the file's folder when it connects.
  return {
    type: 'better-sqlite3',
    database: databasePath,
    entities: [Consent, Psu, Account, Balance, Transaction, Payment, Authorisation, SandboxClock, TppClient, AccessToken, AccessCount],
    // Listed as classes, not globs, so the same list works from ts-jest and from dist/.
    migrations: [InitialSchema1795200000000, Payments1795300000000, ScaAndClock1795400000000, Scenarios1795500000000, Hardening1795600000000],
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

/**
 * Opens, migrates and checks the database for the app. A file that cannot be opened (garbage,
 * truncated, unwritable) or a schema migrated by a newer version of the sandbox is not a passing
 * fault: the start fails at once with a message naming the file (docs/operations.md).
 */
export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = new DataSource(options);
  try {
    await dataSource.initialize();
  } catch (error) {
    throw new Error(`Cannot open the database ${String(options.database)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const known = new Set((options.migrations as (new () => { name?: string })[]).map((migration) => new migration().name));
  const applied = (await dataSource.query('SELECT name FROM migrations')) as { name: string }[];
  const newer = applied.map(({ name }) => name).filter((name) => !known.has(name));
  if (newer.length > 0) {
    await dataSource.destroy();
    throw new Error(`The database ${String(options.database)} was migrated by a newer version of the sandbox (${newer.join(', ')}): refusing to start on it`);
  }
  return dataSource;
}

/** For the TypeORM CLI (`npm run typeorm -- migration:show`). */
export default new DataSource(dataSourceOptions(process.env.DATABASE_PATH || new Environment().DATABASE_PATH));
