import type { PoolClient } from 'pg';
import {
  BeforeQueryEvent,
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  EntityTarget,
  EventSubscriber,
  ObjectLiteral,
  QueryRunner,
} from 'typeorm';
import { DomainError, refusal } from '../common/error-catalogue';
import { insertRows, insertsStatement, PendingInsert } from './prebuilt-statements';

/** A write's transaction, as Store uses it. */
export interface Transaction {
  manager: EntityManager;
  /** Inserts rows as `manager.insert` does (prebuilt-statements.ts); `ifAbsent` leaves out a row whose key is taken. */
  insert<T extends ObjectLiteral>(target: EntityTarget<T>, rows: T[], ifAbsent?: boolean): Promise<void>;
  /** Opens the transaction now, where it is not yet: TypeORM takes a row lock only in one it knows of. */
  begin(): Promise<void>;
}

export type Work<T> = (transaction: Transaction) => Promise<T>;

/** How the writes of Store reach the engine; chosen by the database in use (database.module.ts). */
export abstract class WriteStrategy {
  /** Runs `work` in a transaction and resolves once it is committed; a storage fault rejects with 503. */
  abstract run<T>(work: Work<T>): Promise<T>;

  /** Runs one statement, atomic by itself, as a write of its own: committed when it resolves, a storage fault 503. */
  abstract alone<T>(statement: (manager: EntityManager) => Promise<T>): Promise<T>;
}

/** SQLite: every statement as it comes, on the one connection (group-commit.ts). */
export const immediate = (manager: EntityManager): Transaction => ({
  manager,
  insert: (target, rows, ifAbsent) => insertRows(manager, target, rows, ifAbsent),
  begin: async () => undefined, // the batch's, open already
});

/** What TypeORM's query runner sends to open and end a transaction on PostgreSQL. */
const TRANSACTION_CONTROL = new Set(['START TRANSACTION', 'COMMIT', 'ROLLBACK']);

/** What readies each write under way on PostgreSQL for its next statement, by its query runner. */
const writesUnderWay = new WeakMap<QueryRunner, () => Promise<void>>();

/**
 * TypeORM tells its subscribers of each statement a query runner is about to send, and waits for
 * them (`beforeQuery`): a statement of a write first waits for its transaction to be open and for
 * the inserts the write holds back to be sent (PooledTransactions). TypeORM's own BEGIN, COMMIT and
 * ROLLBACK go straight on. A subscriber of the PostgreSQL data source (data-source.ts).
 */
@EventSubscriber()
export class SendHeldInserts implements EntitySubscriberInterface {
  beforeQuery({ queryRunner, query }: BeforeQueryEvent): Promise<void> | undefined {
    return TRANSACTION_CONTROL.has(query) ? undefined : writesUnderWay.get(queryRunner)?.();
  }
}

/** The most parameters the inserts a write holds back may bind (PostgreSQL takes 65,535 a statement). */
const PENDING_PARAMETERS = 30_000;

/**
 * PostgreSQL: each write is its own transaction on a pooled connection, and writes run side by
 * side. Compare-and-set updates stay correct under READ COMMITTED: an UPDATE that waited for a
 * concurrent one re-checks its WHERE on the row that one committed.
 *
 * Each round trip to the server costs both sides far more CPU than the statement itself
 * (docs/benchmark.md, "PostgreSQL"), so a write's inserts are held back and sent as one
 * statement: before the write's next statement, which then opens the transaction, or at its end.
 * A write that only inserts (a payment, a consent, their history) is then that one statement,
 * atomic without BEGIN and COMMIT; a write that wrote nothing sends nothing.
 */
export class PooledTransactions extends WriteStrategy {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  /**
   * A deadlock or a serialisation failure is PostgreSQL's way to say two writes crossed, not that
   * either is wrong: the one it rolled back runs again, from its start (issue 73; docs/development.md,
   * "The write seam"), a few times before it is answered 503.
   */
  run<T>(work: Work<T>): Promise<T> {
    return this.untilNotCrossed(() => this.attempt(work));
  }

  /** On a pooled connection, outside any transaction: a single statement commits by itself (and may cross another as a write does). */
  alone<T>(statement: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.untilNotCrossed(() => statement(this.dataSource.manager));
  }

  private async untilNotCrossed<T>(attempt: () => Promise<T>): Promise<T> {
    for (let attempts = 1; ; attempts++) {
      try {
        return await attempt();
      } catch (error) {
        if (!crossed(error)) throw asUnavailable(error);
        if (attempts >= ATTEMPTS) throw unavailable();
      }
    }
  }

  private async attempt<T>(work: Work<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    let pending: PendingInsert[] = [];
    let pendingParameters = 0;
    let begun: Promise<void> | undefined;
    const flush = async () => {
      if (!pending.length) return;
      const connection = (await runner.connect()) as PoolClient;
      if (!pending.length) return; // sent meanwhile, by another statement of the write
      const statement = insertsStatement(runner.manager, pending);
      pending = [];
      pendingParameters = 0;
      // On the driver itself, which queues it at once: TypeORM's runner cannot name a statement.
      await connection.query(statement);
    };
    const ready = async () => {
      // TypeORM's own BEGIN, since its row locks require it to know of the transaction.
      begun ??= runner.startTransaction();
      await begun;
      await flush();
    };
    // Every statement of the write, TypeORM's included, waits for the transaction and for what is held back (SendHeldInserts).
    writesUnderWay.set(runner, ready);
    const transaction: Transaction = {
      manager: runner.manager,
      insert: async (target, rows, ifAbsent) => {
        const parameters = rows.length * runner.manager.connection.getMetadata(target).columns.length;
        if (pendingParameters + parameters > PENDING_PARAMETERS) await ready();
        pending.push({ target, rows, ifAbsent });
        pendingParameters += parameters;
      },
      begin: ready,
    };
    try {
      const value = await work(transaction);
      await flush();
      if (begun) await runner.commitTransaction();
      return value;
    } catch (error) {
      pending = [];
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      writesUnderWay.delete(runner);
      await runner.release();
    }
  }
}

/** How many times a write that crossed another runs at most. */
const ATTEMPTS = 5;

/** PostgreSQL's deadlock_detected and serialization_failure: the write crossed another and was rolled back whole. */
function crossed(error: unknown): boolean {
  const { code } = driverFields(error);
  return code === '40P01' || code === '40001';
}

/** The driver's own error fields: inside TypeORM's QueryFailedError, or on the error thrown as it is. */
function driverFields(error: unknown): { code?: unknown; severity?: unknown } {
  type DriverFields = { code?: unknown; severity?: unknown };
  return (error as { driverError?: DriverFields }).driverError ?? (error as DriverFields);
}

/**
 * The table whose key `error` says was taken: PostgreSQL's unique_violation names it; SQLite's
 * constraint error names its columns as `table.column` (sqlite.org/rescode.html). Else undefined.
 */
export function keyTakenIn(error: unknown): string | undefined {
  const { code, table } = driverFields(error) as { code?: unknown; table?: unknown };
  if (code === '23505' && typeof table === 'string') return table;
  if (code !== 'SQLITE_CONSTRAINT_PRIMARYKEY' && code !== 'SQLITE_CONSTRAINT_UNIQUE') return undefined;
  return /constraint failed: "?([^".,]+)"?\./.exec((error as Error).message)?.[1];
}

/**
 * The engines' codes that mean the database cannot take a write now (a full disk, an I/O fault, a
 * lock, a lost connection), not that the write is wrong. SQLite: its result codes; PostgreSQL:
 * SQLSTATE classes 08 (connection), 53 (insufficient resources), 57P (shutdown), 58 (system) and
 * lock_not_available; Node: a connection refused or reset.
 */
const STORAGE_FAULT =
  /^(SQLITE_(FULL|IOERR|BUSY|LOCKED|READONLY|CANTOPEN|NOMEM|CORRUPT|NOTADB)|08...|53...|57P0.|58...|55P03|ECONNREFUSED|ECONNRESET|EPIPE)/;

/** A storage fault becomes the 503 the client can retry on; anything else (a refusal, a bug) stays as it was. */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  const { code, severity } = driverFields(error);
  if (typeof code === 'string' && STORAGE_FAULT.test(code)) return unavailable();
  // PostgreSQL ended the session: a new connection that could not start (on a full disk, its
  // relcache init file: "could not write init file", XX000), a backend that crashed. Worth a retry.
  if (severity === 'FATAL' || severity === 'PANIC') return unavailable();
  // No code: node-postgres on a connection the server ended or a pool that was closed; better-sqlite3 while group-commit.ts replaces its connection.
  if (
    error instanceof Error &&
    /Connection terminated|pool after calling end|Driver not Connected|database connection is not open/.test(error.message)
  )
    return unavailable();
  return error;
}

/** A storage fault, as the client sees it; also thrown when SQLite rolled the whole batch back by itself (group-commit.ts). */
export const unavailable = (): DomainError =>
  refusal('storageUnavailable', "the sandbox's database is full or unavailable: nothing was changed, try again later");
