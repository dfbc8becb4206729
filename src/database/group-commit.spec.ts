import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { AccessCount } from '../account-information/access-count.entity';
import { SandboxClock } from '../clock/sandbox-clock.entity';
import { dataSourceOptions } from './data-source';
import { GroupCommit } from './group-commit';
import { ChangeFeed } from './change-feed';
import { Store } from './store';
import { currentCause, inRequestContext } from '../common/request-context';
import type { Transaction } from './write-strategy';
import { SERVICES } from '../services';
import { schemaOf } from '../schema/schema';

/** Stores one clock row: the smallest write there is. */
const storeDay =
  (id: number) =>
  async ({ manager }: Transaction) => {
    await manager.insert(SandboxClock, { world: String(id), today: '2026-03-15' });
    return id;
  };

describe('GroupCommit, on a migrated SQLite file', () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-sandbox-group-commit-'));
  const path = join(folder, 'sandbox.sqlite');
  let dataSource: DataSource;
  let writes: GroupCommit;
  /** A second connection: what it sees is committed, not merely written by the first. */
  let observer: Database.Database;
  const storedIds = () =>
    (observer.prepare('SELECT world FROM sandbox_clock').all() as { world: string }[])
      .map(({ world }) => Number(world))
      .sort((a, b) => a - b);

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions({ DATABASE_PATH: path }, schemaOf(SERVICES))).initialize();
    await dataSource.runMigrations();
    observer = new Database(path, { readonly: true });
  });
  beforeEach(async () => {
    await dataSource.manager.clear(SandboxClock);
    writes = new GroupCommit(dataSource);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    observer.close();
    await dataSource.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  it('commits the writes that arrive together in one transaction, and answers each its own value', async () => {
    const transactions = jest.spyOn(dataSource, 'transaction');
    const answers = await Promise.all([1, 2, 3, 4, 5].map((id) => writes.run(storeDay(id))));
    expect(answers).toEqual([1, 2, 3, 4, 5]);
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(storedIds()).toEqual([1, 2, 3, 4, 5]);
  });

  it("runs each Store.write of a batch in its own caller's async context, not in that of the request that began the batch", async () => {
    const store = new Store(dataSource, writes, new ChangeFeed(undefined));
    const transactions = jest.spyOn(dataSource, 'transaction');
    const causeSeen = (id: number) =>
      new Promise<string>((resolve, reject) =>
        inRequestContext(`request-${id}`, () => void store.write(async () => currentCause()).then(resolve, reject)),
      );
    expect(await Promise.all([1, 2, 3].map(causeSeen))).toEqual(['request-1', 'request-2', 'request-3']);
    expect(transactions).toHaveBeenCalledTimes(1);
  });

  it('answers a write only once it is committed', async () => {
    const seenOnAnswer = await writes.run(storeDay(7)).then(() => storedIds());
    expect(seenOnAnswer).toEqual([7]);
  });

  it('rolls back a write that throws, alone: the others of its batch are stored', async () => {
    const failing = writes.run(async (transaction) => {
      await storeDay(2)(transaction);
      throw new Error('refused after writing');
    });
    const [first, second, third] = await Promise.allSettled([writes.run(storeDay(1)), failing, writes.run(storeDay(3))]);
    expect(first).toEqual({ status: 'fulfilled', value: 1 });
    expect(second).toEqual({ status: 'rejected', reason: new Error('refused after writing') });
    expect(third).toEqual({ status: 'fulfilled', value: 3 });
    expect(storedIds()).toEqual([1, 3]);
  });

  it('commits a write that arrives during a commit in the next batch, after it', async () => {
    const transactions = jest.spyOn(dataSource, 'transaction');
    let later: Promise<number> | undefined;
    const first = writes.run(async (transaction) => {
      later = writes.run(storeDay(2));
      return storeDay(1)(transaction);
    });
    expect(await first).toBe(1);
    expect(storedIds()).toEqual([1]);
    expect(await later).toBe(2);
    expect(transactions).toHaveBeenCalledTimes(2);
    expect(storedIds()).toEqual([1, 2]);
  });

  it('refuses every write of a batch whose commit fails, and stores none of them', async () => {
    // A deferred foreign key is checked at COMMIT only: the whole batch's commit fails.
    const dangling = writes.run(async ({ manager }) => {
      await manager.query('PRAGMA defer_foreign_keys = ON');
      await manager.insert(AccessCount, {
        consentId: 'no-such-consent',
        accountIban: 'AT099900000000001511',
        day: '2026-03-15',
        accesses: 1,
      });
    });
    const results = await Promise.allSettled([writes.run(storeDay(1)), dangling]);
    expect(results.map(({ status }) => status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toContain('FOREIGN KEY constraint failed');
    expect(storedIds()).toEqual([]);
    expect(await writes.run(storeDay(5))).toBe(5);
    expect(storedIds()).toEqual([5]);
  });
});
