import type { Database, Statement } from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver';

/** better-sqlite3's connection under TypeORM's driver (its public `databaseConnection`) when the database is a SQLite file; undefined on any other engine. */
export function sqliteConnectionOf(dataSource: DataSource): Database | undefined {
  if (dataSource.options.type !== 'better-sqlite3') return undefined;
  return (dataSource.driver as BetterSqlite3Driver).databaseConnection as Database;
}

/** Statements prepared on a connection, by their text; a new connection (GroupCommit.recover) prepares its own. */
const prepared = new WeakMap<Database, Map<string, Statement>>();

/**
 * The statement prepared once on this connection. TypeORM's query runner prepares from its own
 * cache too, but around each run it broadcasts to subscribers and awaits several promises: about
 * 10 µs a statement, a sixth of a POST's CPU before this (docs/benchmark.md).
 */
export function preparedOn(connection: Database, sql: string): Statement {
  let statements = prepared.get(connection);
  if (!statements) {
    statements = new Map();
    prepared.set(connection, statements);
  }
  let statement = statements.get(sql);
  if (!statement) {
    statement = connection.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}
