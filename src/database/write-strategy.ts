import { DataSource, EntityManager } from 'typeorm';
import { DomainError } from '../common/error-catalogue';

export type Work<T> = (manager: EntityManager) => Promise<T>;

/** How the writes of Store reach the engine; chosen by the database in use (database.module.ts). */
export abstract class WriteStrategy {
  /** Runs `work` in a transaction and resolves once it is committed; a storage fault rejects with 503. */
  abstract run<T>(work: Work<T>): Promise<T>;
}

/**
 * PostgreSQL: each write is its own transaction on a pooled connection, and writes run side by
 * side. Compare-and-set updates stay correct under READ COMMITTED: an UPDATE that waited for a
 * concurrent one re-checks its WHERE on the row that one committed.
 */
export class PooledTransactions extends WriteStrategy {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async run<T>(work: Work<T>): Promise<T> {
    try {
      return await this.dataSource.transaction(work);
    } catch (error) {
      throw asUnavailable(error);
    }
  }
}

const UNAVAILABLE = { messageId: 'XS2A029E', description: "the sandbox's database is full or unavailable: nothing was changed, try again later" } as const;

/**
 * The engines' codes that mean the database cannot take a write now (a full disk, an I/O fault, a
 * lock, a lost connection), not that the write is wrong. SQLite: its result codes; PostgreSQL:
 * SQLSTATE classes 08 (connection), 53 (insufficient resources), 57P (shutdown), 58 (system) and
 * lock_not_available; Node: a connection refused or reset.
 */
const STORAGE_FAULT = /^(SQLITE_(FULL|IOERR|BUSY|LOCKED|READONLY|CANTOPEN|NOMEM|CORRUPT|NOTADB)|08...|53...|57P0.|58...|55P03|ECONNREFUSED|ECONNRESET|EPIPE)/;

/** A storage fault becomes the 503 the client can retry on; anything else (a refusal, a bug) stays as it was. */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  const code = (error as { driverError?: { code?: unknown } }).driverError?.code ?? (error as { code?: unknown }).code;
  if (typeof code === 'string' && STORAGE_FAULT.test(code)) return new DomainError(UNAVAILABLE);
  // No code: node-postgres on a connection the server ended or a pool that was closed; better-sqlite3 while group-commit.ts replaces its connection.
  if (error instanceof Error && /Connection terminated|pool after calling end|Driver not Connected|database connection is not open/.test(error.message)) return new DomainError(UNAVAILABLE);
  return error;
}

/** Thrown when SQLite rolled the whole batch back by itself (group-commit.ts). */
export const unavailable = () => new DomainError(UNAVAILABLE);
