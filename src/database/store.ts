import { Injectable, Type } from '@nestjs/common';
import { refusal } from '../common/error-catalogue';
import { inCallersWrite, owedInsertOfRequest, writeUnderWay } from '../common/request-context';
import { isState, isTheWorld, rowItLivesBy, scopeOf } from '../world/world-scope';
import { DataSource, EntityManager, EntityTarget, FindOptionsSelect, FindOptionsWhere, In, ObjectLiteral, Repository } from 'typeorm';
import { ChangeFeed, EVERY_KEY, Remembered, Shared } from './change-feed';
import { countEqual, CountedColumns, existsHeld, findByPrimaryKey, insertRowsReturningKeys } from './prebuilt-statements';
import { GroupedInserts } from './grouped-inserts';
import { sqliteConnectionOf } from './sqlite-connection';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { keyTakenIn, Transaction, WriteStrategy } from './write-strategy';

/** What may be asked of a table anywhere: the read half of a TypeORM repository. */
export type Reader<T extends ObjectLiteral> = Pick<
  Repository<T>,
  'find' | 'findBy' | 'findOne' | 'findOneBy' | 'findOneByOrFail' | 'count' | 'existsBy'
>;

/** Rows per INSERT statement in insertMany. */
const INSERT_CHUNK = 500;

/** Past this many remembered rows changed by one statement (changeRows), every instance forgets all it remembered of the table, in one notification. */
const FORGOTTEN_ONE_BY_ONE = 100;

/** A write under way: its transaction, what waits for its commit, and the changes the other instances must hear before it is answered. */
interface Write {
  transaction: Transaction;
  committed: (() => void)[];
  heard: Promise<void>[];
  /** The rows this write found its inserts live by (livesBy), held until it commits. */
  living: Set<string>;
  /** What the write fails with when the key of a row it inserted with insertUnique is taken, by table. */
  taken: Map<string, () => Error>;
}

/** The write the current call runs in, if any (kept in the request's async context: common/request-context.ts). */
const currentWrite = (): Write | undefined => writeUnderWay() as Write | undefined;

/** Makes the insert the request owes, if no write of it has: before its answer, whatever that is (src/http/owed-writes.ts). */
export async function settleOwedWrite(): Promise<void> {
  const request = owedInsertOfRequest();
  const owed = request?.owed;
  if (!owed) return;
  request.owed = undefined;
  await owed.alone();
}

/**
 * The one way the app reaches its database (docs/development.md, "The write seam"). Every change
 * of state is a `write`: one transaction, committed before the promise resolves, so whatever a
 * request then acknowledges survives a crash. Inside it, `change` and `insert` act on that
 * transaction and `read` sees its own changes; outside, only `read` works. How writes reach the
 * engine (group commit on SQLite, pooled transactions on PostgreSQL) is the WriteStrategy's
 * business, not the caller's.
 */
@Injectable()
export class Store {
  /**
   * Whether other instances may change the database under this one (PostgreSQL). A SQLite file
   * is served by one process (docs/operations.md), so what it keeps in memory stays exact.
   */
  readonly sharedByInstances: boolean;

  /** The Shared values kept one a world (by World.key): a purge of the world forgets them. */
  private readonly worldKeyed: Shared<unknown>[] = [];
  /** The Remembered values, by the entity whose rows they are: changeRows forgets the rows it changes. */
  private readonly remembered = new Map<Type, Remembered<unknown>>();

  /** By entity name: the inserts made outside any write (oweInsertUnique). */
  private readonly groups = new Map<string, unknown>();

  /** findForUpdate's row lock: PostgreSQL's writes run side by side, SQLite's never do, so it needs none. */
  private readonly rowLock: { mode: 'pessimistic_write' } | undefined;
  /** livesBy's: the row may not be deleted meanwhile, while others may change it and hold it too. */
  private readonly keyShare: boolean;

  constructor(
    private readonly dataSource: DataSource,
    private readonly strategy: WriteStrategy,
    private readonly feed: ChangeFeed,
  ) {
    const postgres = dataSource.options.type === 'postgres';
    this.sharedByInstances = postgres;
    this.rowLock = postgres ? { mode: 'pessimistic_write' } : undefined;
    this.keyShare = postgres;
  }

  /**
   * Runs `work` as one transaction. A write started inside another would wait for a commit that
   * waits for it (or, on another connection, for the rows it holds): it fails at once instead.
   */
  async write<T>(work: () => Promise<T>): Promise<T> {
    if (currentWrite()) throw new Error('Store.write was called inside another write: do the work in the enclosing write');
    const committed: (() => void)[] = [];
    const heard: Promise<void>[] = [];
    const taken = new Map<string, () => Error>();
    const inWrite = inCallersWrite();
    const request = owedInsertOfRequest();
    const owed = request?.owed;
    if (request) request.owed = undefined;
    const owing = owed && (async () => (await owed.inWrite(), work()));
    let value: T;
    try {
      value = await this.strategy.run((transaction) => {
        // A write run again (write-strategy.ts) keeps nothing of the attempt the engine rolled back.
        committed.length = 0;
        heard.length = 0;
        taken.clear();
        return inWrite({ transaction, committed, heard, living: new Set(), taken } satisfies Write, owing ?? work);
      });
    } catch (error) {
      // Rolled back with the write, whatever failed it: still owed, by the request's next write or by
      // settleOwedWrite (where the owed insert's own key was taken, that fails the same way again).
      if (owed) request!.owed = owed;
      const table = keyTakenIn(error);
      throw (table === undefined ? undefined : taken.get(table)?.()) ?? error;
    }
    for (const then of committed) then();
    await Promise.all(heard);
    return value;
  }

  /**
   * The request owes the insert of `row`, whose key must be new (insertUnique): its first write
   * makes it, in the same transaction, or, where the request writes nothing or its writes fail,
   * `settleOwedWrite` makes it before the request is answered, in one statement with the other
   * such inserts of the moment (GroupedInserts). A signed POST's spend then costs no write of its
   * own, and a signed GET's a share of one (docs/tpp-identity.md, "What a check costs").
   */
  oweInsertUnique<T extends ObjectLiteral>(target: EntityTarget<T>, row: T, taken: () => Error): void {
    const request = owedInsertOfRequest();
    if (!request) throw new Error('Store.oweInsertUnique outside a request (inRequestContext)');
    if (typeof target === 'function' && rowItLivesBy(target as Type, row) !== null)
      throw new Error('Store.oweInsertUnique: a row of a world is inserted in a write, which checks its world lives');
    request.owed = {
      inWrite: () => this.insertUnique(target, row, taken),
      alone: async () => {
        if (!(await this.groupOf(target).insert(row))) throw taken();
      },
    };
  }

  /** The inserts of `target`'s rows made outside any write, grouped (one instance's). */
  private groupOf<T extends ObjectLiteral>(target: EntityTarget<T>): GroupedInserts<T> {
    const metadata = this.dataSource.getMetadata(target);
    let group = this.groups.get(metadata.name) as GroupedInserts<T> | undefined;
    if (!group) {
      const keyOf = (values: (column: ColumnMetadata) => unknown) =>
        metadata.primaryColumns.map((column) => String(values(column))).join('\u0000');
      group = new GroupedInserts<T>(
        async (rows) =>
          (await this.strategy.alone((manager) => insertRowsReturningKeys(manager, target, rows))).map((inserted) =>
            keyOf((column) => inserted[column.databaseName]),
          ),
        (row) => keyOf((column) => column.getEntityValue(row)),
        INSERT_CHUNK,
      );
      this.groups.set(metadata.name, group);
    }
    return group;
  }

  /**
   * Values every instance keeps in memory, one a key, read with `load` (one key) and `loadAll`
   * (change-feed.ts): `fresh(key)` before a request relies on it costs no query, and `announce`
   * makes every instance read a change.
   */
  shared<T>(
    topic: string,
    load: (key: string) => Promise<T | undefined>,
    loadAll: () => Promise<[string, T][]>,
    fallback: T,
    { keyedByWorld = false } = {},
  ): Shared<T> {
    const shared = new Shared(topic, load, loadAll, fallback, this.feed);
    this.feed.register(shared as Shared<unknown>);
    if (keyedByWorld) this.worldKeyed.push(shared as Shared<unknown>);
    return shared;
  }

  /**
   * Rows of `entity` (by its primary key) every instance reads when first asked for them and keeps,
   * at most `limit` (change-feed.ts): `forget`, or `changeRows`, makes every instance read a changed
   * one again. Not a world's state: a restore puts such rows back without telling (WorldSnapshots).
   */
  remembering<T>(entity: Type, load: (key: string) => Promise<T>, limit: number): Remembered<T> {
    if (isState(scopeOf(entity))) throw new Error(`${entity.name} is a world's state, which a restore puts back: it cannot be remembered`);
    const remembered = new Remembered(this.dataSource.getMetadata(entity).tableName, load, limit, this.feed, () => this.readsCommitted());
    this.feed.register(remembered);
    this.remembered.set(entity, remembered as Remembered<unknown>);
    return remembered;
  }

  /** Inside the write that deletes or puts back a world's rows (WorldPurge, WorldSnapshots): each value kept by world key is read again, on every instance. */
  async worldChanged(key: string): Promise<void> {
    for (const shared of this.worldKeyed) await this.announce(shared, key, await shared.stored(key));
  }

  /**
   * Inside a write: `change` (an update or a delete) runs on the rows of `entity` that `where`
   * finds, and answers how many it changed. Where instances remember rows of the entity, their keys
   * are read first, exactly those rows are changed (a row inserted meanwhile is left, as if it came
   * after), and every instance forgets them alone: another world's rows stay remembered
   * (docs/tpp-identity.md, "What a check costs").
   */
  async changeRows<T extends ObjectLiteral>(
    entity: Type<T>,
    where: FindOptionsWhere<T>,
    change: (where: FindOptionsWhere<T>) => Promise<{ affected?: number | null }>,
  ): Promise<number> {
    const remembered = this.remembered.get(entity);
    if (!remembered) return (await change(where)).affected ?? 0;
    const key = this.dataSource.getMetadata(entity).primaryColumns[0].propertyName;
    const rows = await this.change(entity).find({ where, select: { [key]: true } as FindOptionsSelect<T>, take: FORGOTTEN_ONE_BY_ONE + 1 });
    if (rows.length > FORGOTTEN_ONE_BY_ONE) {
      const { affected } = await change(where);
      await this.forget(remembered, EVERY_KEY);
      return affected ?? 0;
    }
    if (rows.length === 0) return 0;
    const keys = rows.map((row) => String(row[key]));
    const { affected } = await change({ [key]: In(keys) } as FindOptionsWhere<T>);
    for (const changed of keys) await this.forget(remembered, changed);
    return affected ?? 0;
  }

  /**
   * Inside the write that stores it: `value` becomes `key`'s value here once the write commits, and
   * every other instance has read it from the table before the write is answered (docs/operations.md, "Hosting").
   */
  announce<T>(shared: Shared<T>, key: string, value: T): Promise<void> {
    return this.tell(shared.topic, key, () => shared.set(key, value));
  }

  /** Inside the write that changes `key`'s row: every instance forgets what it remembered of it, here once the write commits, elsewhere before it is answered. */
  forget<T>(remembered: Remembered<T>, key: string): Promise<void> {
    return this.tell(remembered.topic, key, () => void remembered.heard(key));
  }

  private async tell(topic: string, key: string, here: () => void): Promise<void> {
    const write = currentWrite();
    if (!write) throw new Error('Store.announce and Store.forget are called inside Store.write');
    write.committed.push(here);
    if (this.sharedByInstances) write.heard.push((await this.feed.announce(write.transaction.manager, topic, key)).heard);
  }

  /** Inside a write: runs `then` once the write has committed, and never if it is rolled back. */
  afterCommit(then: () => void): void {
    const write = currentWrite();
    if (!write) throw new Error('Store.afterCommit outside Store.write');
    write.committed.push(then);
  }

  read<T extends ObjectLiteral>(target: EntityTarget<T>): Reader<T> {
    return this.reading().getRepository(target);
  }

  /** `repository.findOneBy({ <primary key>: key })`, from a statement built once. */
  async findByKey<T extends ObjectLiteral>(target: EntityTarget<T>, key: string | number): Promise<T | null> {
    return findByPrimaryKey(this.reading().getRepository(target), key);
  }

  /** The rows of all `tables` whose column holds `value`, summed, from a statement built once for the list. */
  countEqual(tables: CountedColumns, value: unknown): Promise<number> {
    return countEqual(this.reading(), tables, value);
  }

  /** The row by its key, locked until the write commits: a read-modify-write on it is then never lost to a concurrent one. */
  async findForUpdate<T extends ObjectLiteral>(target: EntityTarget<T>, where: FindOptionsWhere<T>): Promise<T | null> {
    const transaction = this.current();
    await transaction.begin();
    return transaction.manager.getRepository(target).findOne({ where, lock: this.rowLock });
  }

  /** The repository to change rows with, inside a write only. */
  change<T extends ObjectLiteral>(target: EntityTarget<T>): Repository<T> {
    return this.transaction().getRepository(target);
  }

  /** Inserts one row, as TypeORM's insert does (a column left unset gets its default), from a statement built once. */
  async insert<T extends ObjectLiteral>(target: EntityTarget<T>, row: T): Promise<void> {
    const transaction = this.current();
    await this.livesBy(target, [row]);
    return transaction.insert(target, [row]);
  }

  /** Inserts rows, in statements of a size every engine takes (SQLite binds at most 32,766 parameters to one). */
  async insertMany<T extends ObjectLiteral>(target: EntityTarget<T>, rows: T[]): Promise<void> {
    const transaction = this.current();
    await this.livesBy(target, rows);
    for (let start = 0; start < rows.length; start += INSERT_CHUNK)
      await transaction.insert(target, rows.slice(start, start + INSERT_CHUNK));
  }

  /**
   * Holds `name` until the write commits: the writes that take it run one after the other. On
   * PostgreSQL a transaction-scoped advisory lock; SQLite's writes never run side by side anyway.
   */
  async lock(name: string): Promise<void> {
    const manager = this.transaction();
    if (this.sharedByInstances) await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
  }

  /**
   * Inserts one row whose key must be new: where its key is taken, by a row there already or by a
   * concurrent write that commits first (which PostgreSQL waits for), the whole write fails with
   * `taken()` and stores nothing. No read before it and no lock: the key itself decides, in the
   * insert the write sends anyway (held back with its others on PostgreSQL, PooledTransactions).
   */
  async insertUnique<T extends ObjectLiteral>(target: EntityTarget<T>, row: T, taken: () => Error): Promise<void> {
    const write = currentWrite();
    if (!write) throw new Error('Store.insertUnique outside Store.write');
    write.taken.set(this.dataSource.getMetadata(target).tableName, taken);
    await this.insert(target, row);
  }

  /** Inserts the row unless one with its key exists (a concurrent insert then wins, and this one does nothing). */
  async insertIfAbsent<T extends ObjectLiteral>(target: EntityTarget<T>, row: T): Promise<void> {
    const transaction = this.current();
    await this.livesBy(target, [row]);
    return transaction.insert(target, [row], true);
  }

  /**
   * Before rows of a world are inserted: the row their world lives by (its client's, or the parent's
   * they are found through, rowItLivesBy) is there, and stays until this write commits, since a
   * deletion or reset of the world takes its rows after it (docs/security.md, "A world's life"). A
   * request racing its world's deletion is refused as its token now is, one racing a reset or
   * restore that took its parent with 409; nothing of it is stored. Once a write a row.
   */
  private async livesBy(target: EntityTarget<ObjectLiteral>, rows: ObjectLiteral[]): Promise<void> {
    const write = currentWrite()!;
    for (const row of rows) {
      const living = typeof target === 'function' ? rowItLivesBy(target as Type, row) : null;
      if (living === null) continue;
      const key = `${living.entity.name} ${JSON.stringify(living.where)}`;
      if (write.living.has(key)) continue;
      await write.transaction.begin();
      const [[column, value]] = Object.entries(living.where); // one column (world-scope.ts)
      if (!(await existsHeld(write.transaction.manager, living.entity, column, value, this.keyShare))) {
        if (isTheWorld(living.entity)) throw refusal('tokenUnknown', 'the client was deleted meanwhile: its token speaks for no one');
        throw refusal(
          'worldChanged',
          "what this request writes to was forgotten meanwhile by a reset or restore of the client's world: send it again",
        );
      }
      write.living.add(key);
    }
  }

  /**
   * Whether a read made now sees committed rows only: not inside a write, which reads its own
   * changes, and on SQLite not while GroupCommit's batch holds the one connection's transaction
   * open across an await (better-sqlite3 runs a read at its call, so asked just before it, this is
   * exact). On PostgreSQL a read outside a write takes a pooled connection of its own.
   */
  private readsCommitted(): boolean {
    return !currentWrite() && !sqliteConnectionOf(this.dataSource)?.inTransaction;
  }

  /** Inside a write, its transaction, so that a read sees the write's own changes. */
  private reading(): EntityManager {
    return currentWrite()?.transaction.manager ?? this.dataSource.manager;
  }

  private transaction(): EntityManager {
    return this.current().manager;
  }

  private current(): Transaction {
    const write = currentWrite();
    if (!write) throw new Error('A change outside Store.write: every change of state goes through Store.write');
    return write.transaction;
  }
}
