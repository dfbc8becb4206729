import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { TppCertificate } from '../tpp-identity/tpp-certificate.entity';
import { SERVICES } from '../services';
import { schemaOf } from '../schema/schema';
import { ChangeFeed, Remembered } from './change-feed';
import { dataSourceOptions } from './data-source';
import { GroupCommit } from './group-commit';
import { Store } from './store';

const SERIAL = 'a1b2c3';

/**
 * A remembered row is what its table holds once committed (docs/tpp-identity.md, "What a check
 * costs"): on SQLite the one connection is shared, and GroupCommit keeps a batch's transaction open
 * across its awaits, so a read meanwhile sees rows a rollback may still undo.
 */
describe('Remembered rows on a SQLite file', () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-sandbox-remembered-'));
  const path = join(folder, 'sandbox.sqlite');
  let dataSource: DataSource;
  let store: Store;
  let revoked: Remembered<boolean | null>;
  /** Another connection, which changes the row behind the app's back: a kept value does not see it. */
  let other: Database.Database;
  const revokeBehindTheStore = () => other.prepare('UPDATE tpp_certificates SET revoked = 1 WHERE "serialNumber" = ?').run(SERIAL);

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions({ DATABASE_PATH: path }, schemaOf(SERVICES))).initialize();
    await dataSource.runMigrations();
    other = new Database(path);
  });
  beforeEach(async () => {
    await dataSource.manager.clear(TppCertificate);
    await dataSource.manager.insert(TppCertificate, {
      serialNumber: SERIAL,
      type: 'QSEAL',
      organisationName: 'Remembered TPP',
      organisationIdentifier: 'PSDXX-SBX-REMEMBERED',
      roles: ['PSP_AI'],
      notBefore: '2026-01-01',
      notAfter: '2027-01-01',
      revoked: false,
      ownerId: null,
    });
    store = new Store(dataSource, new GroupCommit(dataSource), new ChangeFeed(undefined));
    revoked = store.remembering(TppCertificate, async (key) => (await store.findByKey(TppCertificate, key))?.revoked ?? null, 10);
  });
  afterAll(async () => {
    other.close();
    await dataSource.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps a row read outside any write: a change behind its back is not seen', async () => {
    expect(await revoked.get(SERIAL)).toBe(false);
    revokeBehindTheStore();
    expect(await revoked.get(SERIAL)).toBe(false);
  });

  it('answers, but does not keep, a row read while a write that is then rolled back held it changed', async () => {
    let changed!: () => void;
    const hasChanged = new Promise<void>((resolve) => (changed = resolve));
    let read!: () => void;
    const wasRead = new Promise<void>((resolve) => (read = resolve));
    const write = store.write(async () => {
      await store.change(TppCertificate).update({ serialNumber: SERIAL }, { revoked: true });
      changed();
      // Waits for another request, as a write that awaits I/O does, with the batch's transaction open.
      await wasRead;
      throw new Error('the write fails after its change');
    });
    await hasChanged;
    // The connection is the batch's: the read sees the change the rollback then undoes.
    expect(await revoked.get(SERIAL)).toBe(true);
    read();
    await expect(write).rejects.toThrow('the write fails after its change');
    expect(await revoked.get(SERIAL)).toBe(false);
  });
});
