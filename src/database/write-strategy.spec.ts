import { isRefusal } from '../common/error-catalogue';
import { asUnavailable } from './write-strategy';

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
