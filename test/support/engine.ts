import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { SERVICES } from '../../src/services';
import { schemaOf } from '../../src/schema/schema';
import type { Templates } from './global-setup';

/**
 * The engine this jest project runs on: SQLite unless TEST_ENGINE=postgres (the postgres project,
 * jest.config.js), which makes each test database in the cluster at TEST_POSTGRES_URL.
 */
export const ENGINE: 'sqlite' | 'postgres' = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/** A database no other test uses: a file path on SQLite, a database URL on PostgreSQL (made by prepareDatabase). */
export function temporaryDatabase(): string {
  if (ENGINE === 'sqlite') return join(mkdtempSync(join(tmpdir(), 'psd2-sandbox-')), 'sandbox.sqlite');
  return newDatabaseUrl(postgresUrl(), 'sandbox_test');
}

/** The URL of a database named `<prefix>_<random>` in the cluster at `administrator` (not made yet). */
export function newDatabaseUrl(administrator: string, prefix: string): string {
  const url = new URL(administrator);
  url.pathname = `/${prefix}_${randomBytes(6).toString('hex')}`;
  return url.toString();
}

/** The sandbox's settings that point it at `database`. */
export function databaseSettings(database: string): Record<string, string> {
  return ENGINE === 'sqlite' ? { DATABASE_PATH: database } : { DATABASE_URL: database };
}

/**
 * Creates the database if it does not exist yet (PostgreSQL; in `tablespace` if given); SQLite makes
 * its file itself. Given a built-in `profile`, a new database is a copy of the one jest's global setup
 * migrated and seeded with it (test/support/global-setup.ts), as a restart of the sandbox finds it.
 */
export async function prepareDatabase(
  database: string,
  { tablespace, profile }: { tablespace?: string; profile?: string } = {},
): Promise<void> {
  const template = profile === undefined ? undefined : templates()?.[ENGINE][profile];
  if (ENGINE === 'postgres') return createPostgresDatabase(database, postgresUrl(), { tablespace, template });
  if (template && !existsSync(database)) copyFileSync(template, database);
}

/** The run's migrated and seeded databases, where jest's global setup made them. */
const templates = (): Templates | undefined =>
  process.env.TEST_TEMPLATES ? (JSON.parse(process.env.TEST_TEMPLATES) as Templates) : undefined;

export async function removeDatabase(database: string): Promise<void> {
  if (ENGINE === 'sqlite') return rmSync(join(database, '..'), { recursive: true, force: true });
  await dropPostgresDatabase(database, postgresUrl());
}

/** Creates the PostgreSQL database at `database` unless it exists, as the user of `administrator`: a copy of the database at `template` if given. */
export async function createPostgresDatabase(
  database: string,
  administrator: string,
  { tablespace, template }: { tablespace?: string; template?: string } = {},
): Promise<void> {
  const name = new URL(database).pathname.slice(1);
  await asAdministrator(administrator, async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    const options = [template && `TEMPLATE "${new URL(template).pathname.slice(1)}"`, tablespace && `TABLESPACE "${tablespace}"`].filter(
      Boolean,
    );
    await client.query(`CREATE DATABASE "${name}"${options.map((option) => ` ${option}`).join('')}`);
  });
}

/** Seconds a drop waits for the full tablespace's room (the suite fills it for a few), within jest's 30 s for a hook. */
const CHECKPOINT_ATTEMPTS = 25;

/**
 * DROP DATABASE waits for a checkpoint, and every checkpoint of the cluster fails while the
 * full-tablespace suite holds its small tablespace full (pages it cannot write): a suite that ends
 * beside it then drops its database again, each second, until that suite has made room (CI run 44).
 */
export async function dropPostgresDatabase(database: string, administrator: string): Promise<void> {
  const drop = `DROP DATABASE IF EXISTS "${new URL(database).pathname.slice(1)}" WITH (FORCE)`;
  for (let attempt = 1; ; attempt++) {
    try {
      await asAdministrator(administrator, (client) => client.query(drop));
      return;
    } catch (error) {
      if (attempt === CHECKPOINT_ATTEMPTS || (error as Error).message !== 'checkpoint request failed') throw error;
      await sleep(1000);
    }
  }
}

/** A second connection to `database`, as another process has it: it sees only what is committed. */
export function secondConnection(database: string): Promise<DataSource> {
  return new DataSource(
    dataSourceOptions({ DATABASE_PATH: database, ...(ENGINE === 'postgres' ? { DATABASE_URL: database } : {}) }, schemaOf(SERVICES)),
  ).initialize();
}

function postgresUrl(): string {
  const url = process.env.TEST_POSTGRES_URL;
  if (!url)
    throw new Error(
      'TEST_ENGINE=postgres needs TEST_POSTGRES_URL, the URL of a PostgreSQL cluster whose user may create databases (README, "Tests")',
    );
  return url;
}

async function asAdministrator<T>(administrator: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: administrator });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A real fault: from now on the database refuses every UPDATE of `table`, until allowUpdates. */
export async function refuseUpdates(dataSource: DataSource, table: string): Promise<void> {
  if (ENGINE === 'sqlite') {
    await dataSource.query(
      `CREATE TRIGGER refuse_updates_${table} BEFORE UPDATE ON ${table} BEGIN SELECT RAISE(ABORT, 'injected fault'); END`,
    );
    return;
  }
  await dataSource.query(
    `CREATE OR REPLACE FUNCTION refuse_updates() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$ LANGUAGE plpgsql`,
  );
  await dataSource.query(`CREATE TRIGGER refuse_updates_${table} BEFORE UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_updates()`);
}

export async function allowUpdates(dataSource: DataSource, table: string): Promise<void> {
  await dataSource.query(ENGINE === 'sqlite' ? `DROP TRIGGER refuse_updates_${table}` : `DROP TRIGGER refuse_updates_${table} ON ${table}`);
}
