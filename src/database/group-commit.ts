import type { Database } from 'better-sqlite3';
import { DataSource, EntityManager } from 'typeorm';
import { sqliteConnectionOf } from './sqlite-connection';
import { asUnavailable, immediate, unavailable, Work, WriteStrategy } from './write-strategy';

interface Queued {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

/**
 * Group commit: the writes that arrive while one batch is being committed are committed together
 * next, in one transaction and so one fsync (synchronous=FULL). Each runs in its own savepoint, so
 * a write that throws rolls back alone. A caller hears back only after the commit: whatever it
 * then acknowledges survives a crash or a power cut. A write must not wait for another write:
 * that one commits only after it.
 *
 * SQLite's write strategy (Store.write). The app has one connection, and a batch keeps its
 * transaction open across awaits: a statement run beside it would join the batch's open
 * savepoint, be answered before the commit, and be undone with a write of the batch that fails.
 * (better-sqlite3 is synchronous: while no write waits for anything else, a batch runs from BEGIN
 * to COMMIT with no other request handled in between.)
 */
export class GroupCommit extends WriteStrategy {
  private queue: Queued[] = [];
  private committed: Promise<void> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // The first write of a batch schedules it: after the batch before it, and after the event
      // loop has taken in every request already waiting, so that they join.
      if (this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject }) === 1) {
        this.committed = this.committed.then(() => new Promise((next) => setImmediate(next))).then(() => this.commit());
      }
    });
  }

  /** In the next batch, as any write. */
  alone<T>(statement: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.run(({ manager }) => statement(manager));
  }

  private async commit(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    const answers: (() => void)[] = [];
    try {
      await this.dataSource.transaction(async (manager) => {
        // Savepoints straight on the connection: TypeORM's nested transaction broadcasts four times around each (docs/benchmark.md).
        const connection = this.connection();
        for (const { work, resolve, reject } of batch) {
          try {
            connection.exec('SAVEPOINT write');
            const value = await work(immediate(manager));
            connection.exec('RELEASE write');
            answers.push(() => resolve(value));
          } catch (error) {
            if (connection.inTransaction) connection.exec('ROLLBACK TO write; RELEASE write');
            answers.push(() => reject(asUnavailable(error)));
          }
          // On a full disk or an I/O error SQLite may roll the whole transaction back by itself
          // (sqlite.org/lang_transaction.html, "Response To Errors Within A Transaction"): the
          // writes after it would run outside any transaction, so the batch stops here.
          if (!connection.inTransaction) throw unavailable();
        }
      });
    } catch (error) {
      await this.recover();
      for (const { reject } of batch) reject(asUnavailable(error));
      return;
    }
    for (const answer of answers) answer();
  }

  /**
   * After a failed COMMIT, TypeORM's rollback may fail quietly (SQLite had already rolled back)
   * and leave TypeORM counting a transaction that SQLite does not have: every later batch would
   * then run as a savepoint of a transaction that never commits. Where the two disagree, or a
   * transaction is still open, a new connection starts again from a known state.
   */
  private async recover(): Promise<void> {
    const runner = this.dataSource.createQueryRunner(); // better-sqlite3: the one connection's runner
    if (!runner.isTransactionActive && !this.connection().inTransaction) return;
    await this.dataSource.destroy();
    await this.dataSource.initialize();
  }

  private connection(): Database {
    const connection = sqliteConnectionOf(this.dataSource);
    if (!connection) throw new Error('GroupCommit is the write strategy of SQLite only');
    return connection;
  }
}
