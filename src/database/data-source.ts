import type { Type } from '@nestjs/common';
import { DataSource, DataSourceOptions, MigrationInterface } from 'typeorm';
import { Environment } from '../config/environment';
import { SendHeldInserts } from './write-strategy';
import { worldScopeProblems } from '../world/world-scope';

/** Where the data lives: DATABASE_URL (PostgreSQL) when set, else the SQLite file at DATABASE_PATH. */
export type DatabaseSetting = Pick<Environment, 'DATABASE_PATH' | 'DATABASE_URL'>;

/** The tables and migrations a data source knows, as classes (src/schema/schema.ts). */
export interface Schema {
  entities: Type[];
  migrations: Type<MigrationInterface>[];
}

/** The one TypeORM definition used by the app, the TypeORM CLI, the seed scripts and the tests. */
export function dataSourceOptions({ DATABASE_PATH, DATABASE_URL }: DatabaseSetting, { entities, migrations }: Schema): DataSourceOptions {
  if (DATABASE_URL) {
    // Pooled connections: each write is its own transaction, and they run side by side; a write's
    // statements wait for the inserts it holds back (write-strategy.ts).
    return {
      type: 'postgres',
      url: DATABASE_URL,
      entities,
      migrations,
      subscribers: [SendHeldInserts],
      synchronize: false,
      extra: { max: 10 },
    };
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
      // A savepoint (GroupCommit gives each write one) or a statement of several rows keeps its
      // undo in a sub-journal, by default a temporary file made and unlinked at every transaction;
      // in memory it costs no system calls, and a sort too large for the page cache takes memory
      // instead (docs/benchmark.md, "What was tried"). A crash needs only the WAL, never that journal.
      db.pragma('temp_store = MEMORY');
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
 * Opens, migrates, checks and seeds the database (`seed`, src/schema/seed-fixtures.ts): what the
 * server, the seed scripts and the tests start from. A database that cannot be opened (a garbage,
 * truncated or unwritable file, an unreachable server), a schema migrated by a newer version of
 * the sandbox or a database seeded with another profile is not a passing fault: it fails at once
 * with a message naming the database (docs/operations.md).
 */
export async function openDataSource(
  options: DataSourceOptions,
  seed: (dataSource: DataSource, database: string) => Promise<void>,
): Promise<DataSource> {
  const dataSource = new DataSource(options);
  try {
    await dataSource.initialize();
  } catch (error) {
    throw new Error(`Cannot open the database ${databaseName(options)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  // What a reset forgets and a deletion purges is read from the entities' declarations: none may be missing.
  const undeclared = worldScopeProblems(dataSource);
  if (undeclared.length) {
    await dataSource.destroy();
    throw new Error(`The schema does not say whose its rows are:\n${undeclared.join('\n')}`);
  }
  try {
    await oneAtATime(dataSource, async () => {
      await dataSource.runMigrations({ transaction: 'all' });
      const known = new Set((options.migrations as (new () => { name?: string })[]).map((migration) => new migration().name));
      const applied = (await dataSource.query('SELECT name FROM migrations')) as { name: string }[];
      const newer = applied.map(({ name }) => name).filter((name) => !known.has(name));
      if (newer.length > 0)
        throw new Error(
          `The database ${databaseName(options)} was migrated by a newer version of the sandbox (${newer.join(', ')}): refusing to start on it`,
        );
      await seed(dataSource, databaseName(options));
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
