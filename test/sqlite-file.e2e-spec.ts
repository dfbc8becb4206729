import Database from 'better-sqlite3';
import request from 'supertest';
import { CREATED } from './support/profile';
import { sepaPayment, VALID_CONSENT } from './support/fixtures';
import { removeDatabase, startSandbox, temporaryDatabase, tppError, tppHeaders } from './support/sandbox';

/** What only the embedded SQLite file has: its settings, and another process on the same file. */
describe('the SQLite file', () => {
  const databasePath = temporaryDatabase();
  afterAll(() => removeDatabase(databasePath));

  it('runs SQLite in WAL mode with foreign keys on, synchronous=FULL (every answered write is fsynced), checkpoints at the default of 1,000 pages (a log of about 4 MB), caches 2 MB of pages, the default of SQLite itself, and keeps statement journals in memory', async () => {
    const sandbox = await startSandbox({}, databasePath);
    try {
      expect(await sandbox.dataSource.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      expect(await sandbox.dataSource.query('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
      expect(await sandbox.dataSource.query('PRAGMA synchronous')).toEqual([{ synchronous: 2 }]);
      expect(await sandbox.dataSource.query('PRAGMA wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: 1000 }]);
      expect(await sandbox.dataSource.query('PRAGMA cache_size')).toEqual([{ cache_size: -2000 }]);
      expect(await sandbox.dataSource.query('PRAGMA busy_timeout')).toEqual([{ timeout: 100 }]);
      expect(await sandbox.dataSource.query('PRAGMA temp_store')).toEqual([{ temp_store: 2 }]);
    } finally {
      await sandbox.close();
    }
  });

  it('while another process holds the write lock: a write answers 503 and changes nothing, reads go on, and writes commit again once it lets go', async () => {
    const sandbox = await startSandbox({}, databasePath);
    const other = new Database(databasePath);
    try {
      const payments = () => other.prepare('SELECT COUNT(*) AS n FROM payments').get();
      const before = payments();
      other.exec('BEGIN IMMEDIATE'); // another process's write, under way
      const refused = await request(sandbox.http)
        .post('/v1/payments/sepa-credit-transfers')
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(sepaPayment('1.00'))
        .expect(503);
      expect(refused.body).toEqualBody(
        tppError(
          'SERVICE_UNAVAILABLE',
          "{sensitive} XS2A029E: the sandbox's database is full or unavailable: nothing was changed, try again later",
        ),
      );
      await request(sandbox.http).get('/health').expect(200);
      await request(sandbox.http).get(`/v1/consents/${VALID_CONSENT}/status`).set(tppHeaders()).expect(200);
      other.exec('ROLLBACK');
      expect(payments()).toEqual(before);
      await request(sandbox.http)
        .post('/v1/payments/sepa-credit-transfers')
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(sepaPayment('1.00'))
        .expect(CREATED);
    } finally {
      other.close();
      await sandbox.close();
    }
  });
});
