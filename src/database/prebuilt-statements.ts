import type { PoolClient } from 'pg';
import { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { preparedOn, sqliteConnectionOf } from './sqlite-connection';

/**
 * The statements of the hot paths, built once per entity: TypeORM's `findOneBy` and `insert` build
 * the same statement again on every call, which was most of their time. The driver escapes the
 * names, writes the placeholders and converts each column's value as TypeORM's own find and insert
 * do, so these run on any database TypeORM supports; on SQLite they run on better-sqlite3's own
 * connection (run).
 */
const selects = new WeakMap<EntityMetadata, { text: string; name: string }>();

/** `repository.findOneBy({ <primary key>: key })`. GET payment status: a fifth to a quarter less CPU a request. */
export async function findByPrimaryKey<T extends ObjectLiteral>(repository: Repository<T>, key: string | number): Promise<T | null> {
  const { metadata, manager } = repository;
  const { driver } = manager.connection;
  let statement = selects.get(metadata);
  if (!statement) {
    if (metadata.relations.length) throw new Error(`prebuilt statements: ${metadata.name} has relations`);
    const [primary] = metadata.primaryColumns;
    const text = `SELECT ${columnList(metadata)} FROM ${tableOf(metadata)} WHERE ${driver.escape(primary.databaseName)} = ${driver.createParameter(primary.databaseName, 0)}`;
    statement = { text, name: `read_by_key_${metadata.tableName}` };
    selects.set(metadata, statement);
  }
  const [row] = (await run(manager, statement.text, [key], statement.name)) as Record<string, unknown>[];
  if (!row) return null;
  const entity = metadata.create() as T;
  for (const column of metadata.columns) column.setEntityValue(entity, driver.prepareHydratedValue(row[column.databaseName], column));
  return entity;
}

/** Tables whose rows are counted together, each by one column's value (Store.countEqual). */
export type CountedColumns = readonly { target: EntityTarget<ObjectLiteral>; column: string }[];

const counts = new WeakMap<CountedColumns, { text: string; name: string; columns: ColumnMetadata[] }>();
let countsMade = 0;

/**
 * The rows of all `tables` whose column holds `value`, summed, as one statement built once for the
 * list: a world's quota (WorldQuota) is counted at each creation, where TypeORM's `count` built a
 * statement for each table anew, most of a creation's time in AUTH_MODE=strict.
 */
export async function countEqual(manager: EntityManager, tables: CountedColumns, value: unknown): Promise<number> {
  const { driver } = manager.connection;
  let statement = counts.get(tables);
  if (!statement) {
    const columns = tables.map(({ target, column }) => columnNamed(manager.connection.getMetadata(target), column));
    const each = columns.map(
      (column, index) =>
        `(SELECT COUNT(*) FROM ${tableOf(column.entityMetadata)} WHERE ${driver.escape(column.databaseName)} = ${driver.createParameter(column.databaseName, index)})`,
    );
    statement = { text: `SELECT ${each.join(' + ')} AS ${driver.escape('count')}`, name: `count_${countsMade++}`, columns };
    counts.set(tables, statement);
  }
  const values = statement.columns.map((column) => driver.preparePersistentValue(value, column) as unknown);
  const [row] = (await run(manager, statement.text, values, statement.name)) as { count: number | string }[];
  return Number(row.count);
}

const held = new Map<string, { text: string; name: string; column: ColumnMetadata }>();

/**
 * `manager.getRepository(target).findOne({ where: { [column]: value }, lock: { mode: 'for_key_share' } })`
 * as a yes or no, from a statement built once: whether the row is there, kept from deletion until
 * the transaction ends where `keyShare` (PostgreSQL). Store.livesBy asks it at each write of a
 * world's rows (a creation in AUTH_MODE=strict), where TypeORM built the statement each time.
 */
export async function existsHeld(
  manager: EntityManager,
  target: EntityTarget<ObjectLiteral>,
  column: string,
  value: unknown,
  keyShare: boolean,
): Promise<boolean> {
  const metadata = manager.connection.getMetadata(target);
  const { driver } = manager.connection;
  const shape = `${metadata.name} ${column} ${keyShare}`;
  let statement = held.get(shape);
  if (!statement) {
    const found = columnNamed(metadata, column);
    const where = `${driver.escape(found.databaseName)} = ${driver.createParameter(found.databaseName, 0)}`;
    statement = {
      text: `SELECT 1 AS ${driver.escape('found')} FROM ${tableOf(metadata)} WHERE ${where} LIMIT 1${keyShare ? ' FOR KEY SHARE' : ''}`,
      name: `held_${held.size}`,
      column: found,
    };
    held.set(shape, statement);
  }
  const rows = (await run(manager, statement.text, [driver.preparePersistentValue(value, statement.column)], statement.name)) as unknown[];
  return rows.length > 0;
}

/**
 * `manager.insert(target, entities)`, in one statement: TypeORM's builds each value anew, about
 * 60 µs a row, which a jump of the clock over thousands of instalments (each one an event of the
 * history) pays thousands of times. The statement of one row, what a request stores, is built
 * once: a POST stores four. `ifAbsent`: a row whose key is taken is left out (ON CONFLICT DO
 * NOTHING), so that of two racing inserts one wins and the other does nothing.
 */
export async function insertRows<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  entities: T[],
  ifAbsent = false,
): Promise<void> {
  const { text, values, name } = insertsStatement(manager, [{ target, rows: entities, ifAbsent }]);
  await run(manager, text, values, name);
}

/**
 * Runs a statement in the manager's transaction, if it has one. On SQLite straight on the one
 * connection, where TypeORM's runs it too, and so in the same transaction; on PostgreSQL, outside
 * a transaction, on a pooled connection of the driver. Either way prepared once where it is
 * `named` (the statements of one row, a handful an entity), anew otherwise.
 */
async function run(manager: EntityManager, sql: string, parameters: unknown[], name: string | undefined): Promise<unknown> {
  const sqlite = sqliteConnectionOf(manager.connection);
  if (sqlite) {
    const statement = name ? preparedOn(sqlite, sql) : sqlite.prepare(sql);
    return statement.reader ? statement.all(...parameters) : statement.run(...parameters);
  }
  // TypeORM's query cannot name a statement; inside a write its runner must send what is held first (write-strategy.ts).
  if (!name || manager.queryRunner || manager.connection.options.type !== 'postgres') return manager.query(sql, parameters);
  const [client, release] = (await (manager.connection.driver as PostgresDriver).obtainMasterConnection()) as [PoolClient, () => void];
  try {
    return (await client.query({ name, text: sql, values: parameters })).rows;
  } finally {
    release();
  }
}

/**
 * Inserts rows whose keys may be taken, as one statement (`ON CONFLICT DO NOTHING RETURNING` the
 * key), and answers the rows it inserted, by their key columns: each caller of a group learns
 * whether its key was free (GroupedInserts). Named for the groups of up to NAMED_GROUP rows.
 */
export async function insertRowsReturningKeys<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  entities: T[],
): Promise<Record<string, unknown>[]> {
  const metadata = manager.connection.getMetadata(target);
  const shape = `${metadata.name} returning ${entities.length}`;
  let statement = inserts.get(shape);
  if (!statement) {
    const keys = metadata.primaryColumns.map(({ databaseName }) => manager.connection.driver.escape(databaseName)).join(', ');
    statement = {
      text: `${insertStatement(metadata, entities.length, 0, true)} RETURNING ${keys}`,
      name: entities.length <= NAMED_GROUP ? `inserts_${inserts.size}` : undefined,
    };
    if (statement.name) inserts.set(shape, statement);
  }
  return (await run(manager, statement.text, parametersOf(metadata, entities), statement.name)) as Record<string, unknown>[];
}

/** The largest group whose statement is built once and named: larger ones come only under a load that pays for building theirs. */
const NAMED_GROUP = 32;

/** Rows to insert, as one statement or with others a write holds back (write-strategy.ts). */
export interface PendingInsert {
  target: EntityTarget<ObjectLiteral>;
  rows: ObjectLiteral[];
  ifAbsent?: boolean;
}

const inserts = new Map<string, { text: string; name?: string }>();

/**
 * The inserts of several entities' rows, in their order, as one statement and its parameters: on
 * PostgreSQL each but the last a data-modifying WITH query, run with the last in one snapshot; the
 * foreign keys are checked at its end. Built once, and named, for each shape of one-row inserts (a
 * request's); a statement of many rows is built for its call.
 */
export function insertsStatement(manager: EntityManager, pending: PendingInsert[]): { text: string; values: unknown[]; name?: string } {
  const metadatas = pending.map(({ target }) => manager.connection.getMetadata(target));
  const oneRowEach = pending.every(({ rows }) => rows.length === 1);
  const shape = pending.map(({ ifAbsent }, index) => `${metadatas[index].name}${ifAbsent ? '?' : ''}`).join(' ');
  let statement = oneRowEach ? inserts.get(shape) : undefined;
  if (!statement) {
    let offset = 0;
    const each = pending.map(({ rows, ifAbsent }, index) => {
      const insert = insertStatement(metadatas[index], rows.length, offset, ifAbsent);
      offset += rows.length * metadatas[index].columns.length;
      return insert;
    });
    const last = each.pop()!;
    const text = each.length ? `WITH ${each.map((insert, index) => `held${index} AS (${insert})`).join(', ')} ${last}` : last;
    // A name makes the driver prepare it once a connection, and the server plan it once a session.
    statement = { text, name: oneRowEach ? `inserts_${inserts.size}` : undefined };
    if (oneRowEach) inserts.set(shape, statement);
  }
  return { ...statement, values: pending.flatMap(({ rows }, index) => parametersOf(metadatas[index], rows)) };
}

function insertStatement(metadata: EntityMetadata, rows: number, offset: number, ifAbsent = false): string {
  const { driver } = metadata.connection;
  const width = metadata.columns.length;
  const values = Array.from(
    { length: rows },
    (_, row) =>
      `(${metadata.columns.map(({ databaseName }, column) => driver.createParameter(databaseName, offset + row * width + column)).join(', ')})`,
  );
  return `INSERT INTO ${tableOf(metadata)} (${columnList(metadata)}) VALUES ${values.join(', ')}${ifAbsent ? ' ON CONFLICT DO NOTHING' : ''}`;
}

/**
 * Each row's values, as TypeORM's insert binds them. The statement names every column, so a column
 * a row leaves unset gets what the database would give it: its declared default, which the row
 * then holds too (as TypeORM's insert reads it back), else null. A relation's column is read from
 * the related object or from its own property, as TypeORM reads it.
 */
function parametersOf<T extends ObjectLiteral>(metadata: EntityMetadata, entities: T[]): unknown[] {
  const { driver } = metadata.connection;
  return entities.flatMap((entity) =>
    metadata.columns.map((column) => {
      let value: unknown = column.getEntityValue(entity);
      if (value === undefined) {
        value = defaultOf(metadata, column);
        if (value !== null) column.setEntityValue(entity, value);
      }
      return driver.preparePersistentValue(value, column) as unknown;
    }),
  );
}

/** A column's declared default, or null where it has none and may be null; a default the database computes, or a required column, has to be set. */
function defaultOf(metadata: EntityMetadata, column: ColumnMetadata): unknown {
  const declared: unknown = column.default;
  if (typeof declared !== 'function' && !column.isGenerated) {
    if (declared !== undefined && declared !== null) return declared;
    if (column.isNullable) return null;
  }
  throw new Error(`insertRows: ${metadata.name}.${column.propertyName} is not set, and only the database could fill it`);
}

/** The entity's column of that property: a statement built on a name the entity does not have stops here, naming it. */
function columnNamed(metadata: EntityMetadata, property: string): ColumnMetadata {
  const found = metadata.findColumnWithPropertyName(property);
  if (!found) throw new Error(`prebuilt statements: ${metadata.name} has no column ${property}`);
  return found;
}

function tableOf(metadata: EntityMetadata): string {
  const { driver } = metadata.connection;
  return metadata.tablePath
    .split('.')
    .map((part) => driver.escape(part))
    .join('.');
}

function columnList(metadata: EntityMetadata): string {
  return metadata.columns.map(({ databaseName }) => metadata.connection.driver.escape(databaseName)).join(', ');
}
