import { isRefusal } from '../common/error-catalogue';
import Database from 'better-sqlite3';
import { asUnavailable, keyTakenIn } from './write-strategy';

/** What a driver error becomes (docs/operations.md, "Logs"; docs/security.md, "Durability"): a storage fault a 503, the rest as it was. */
describe('asUnavailable', () => {
  const pg = (fields: Record<string, string>) => Object.assign(new Error(fields.message ?? 'x'), fields);
  const unavailable = (error: unknown) => {
    const found = asUnavailable(error);
    return isRefusal(found, 'storageUnavailable') || found;
  };

  it.each([
    ['a full disk (53100)', pg({ code: '53100', severity: 'ERROR' })],
    [
      'a new connection on a full disk: FATAL "could not write init file" (XX000)',
      pg({ code: 'XX000', severity: 'FATAL', message: 'could not write init file' }),
    ],
    [
      'the same inside a TypeORM QueryFailedError',
      Object.assign(new Error('could not write init file'), { driverError: pg({ code: 'XX000', severity: 'FATAL' }) }),
    ],
    ['a crashed backend (PANIC)', pg({ code: 'XX000', severity: 'PANIC' })],
    ['SQLite full', Object.assign(new Error('full'), { code: 'SQLITE_FULL' })],
  ])('%s: 503 SERVICE_UNAVAILABLE', (_, error) => {
    expect(unavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', pg({ code: '23505', severity: 'ERROR' })],
    ['an internal error that ends no session', pg({ code: 'XX000', severity: 'ERROR' })],
    ['a bug', new TypeError('undefined is not a function')],
  ])('%s: stays as it was (a 500 the filter logs)', (_, error) => {
    expect(unavailable(error)).toBe(error);
  });
});

/** Which table's key a driver's error says was taken (Store.insertUnique), read from each engine's own error. */
describe('keyTakenIn', () => {
  const failure = (run: () => unknown): unknown => {
    try {
      run();
    } catch (error) {
      return error;
    }
    throw new Error('it did not fail');
  };

  it("SQLite's primary key and unique constraints name the table", () => {
    const database = new Database(':memory:');
    database.exec(
      'CREATE TABLE "signed_requests" (a TEXT, b TEXT, c TEXT UNIQUE, PRIMARY KEY (a, b)); INSERT INTO signed_requests VALUES (1, 2, 3)',
    );
    expect(keyTakenIn(failure(() => database.exec('INSERT INTO signed_requests VALUES (1, 2, 4)')))).toBe('signed_requests');
    expect(keyTakenIn(failure(() => database.exec('INSERT INTO signed_requests VALUES (5, 6, 3)')))).toBe('signed_requests');
    expect(keyTakenIn(failure(() => database.exec('INSERT INTO missing VALUES (1)')))).toBeUndefined();
    database.close();
  });

  it("PostgreSQL's unique_violation names it in its own field, also inside TypeORM's error", () => {
    const violation = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      table: 'signed_requests',
    });
    expect(keyTakenIn(violation)).toBe('signed_requests');
    expect(keyTakenIn(Object.assign(new Error('x'), { driverError: violation }))).toBe('signed_requests');
    expect(keyTakenIn(Object.assign(new Error('x'), { code: '23503', table: 'signed_requests' }))).toBeUndefined();
  });
});
