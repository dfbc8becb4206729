import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
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
  // better-sqlite3 creates the file but not its folder.
  if (databasePath !== ':memory:') mkdirSync(dirname(databasePath), { recursive: true });
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

/** For the TypeORM CLI (`npm run typeorm -- migration:show`). */
export default new DataSource(dataSourceOptions(process.env.DATABASE_PATH || new Environment().DATABASE_PATH));
