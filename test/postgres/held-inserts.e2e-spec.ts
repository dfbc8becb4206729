import { DataSource } from 'typeorm';
import { AccessToken, TppClient } from '../../src/oauth/client.entity';
import { loadProfile } from '../../src/profile/load-profile';
import { seedFixtures } from '../../src/schema/seed-fixtures';
import { SERVICES } from '../../src/services';
import { PooledTransactions } from '../../src/database/write-strategy';
import { findByPrimaryKey } from '../../src/database/prebuilt-statements';
import { prepareDatabase, removeDatabase, secondConnection, temporaryDatabase } from '../support/engine';

const token = (tokenHash: string) =>
  Object.assign(new AccessToken(), { tokenHash, clientId: 'sandbox-tpp', expiresAt: '2026-03-15T11:00:00.000Z' });
/**
 * PostgreSQL's writes hold their inserts back and send them as one statement (write-strategy.ts,
 * docs/benchmark.md): what that must never change is what a write sees and what it commits.
 */
describe("PostgreSQL's writes: inserts held back and sent together", () => {
  const database = temporaryDatabase();
  let dataSource: DataSource;
  let observer: DataSource;
  let writes: PooledTransactions;
  /** The statements TypeORM ran (BEGIN and COMMIT among them); the held inserts go to the driver itself. */
  let typeormStatements: string[];
  const stored = async (tokenHash: string) => (await observer.getRepository(AccessToken).findOneBy({ tokenHash })) !== null;

  beforeAll(async () => {
    await prepareDatabase(database);
    dataSource = await secondConnection(database);
    await dataSource.runMigrations();
    await seedFixtures(dataSource.manager, loadProfile('bank', SERVICES), database);
    observer = await secondConnection(database);
    writes = new PooledTransactions(dataSource);
    // As each is answered, so in the order sent: before it is sent, a statement first waits for what the write holds back (SendHeldInserts).
    dataSource.subscribers.push({ afterQuery: ({ query }: { query: string }) => void typeormStatements.push(query) });
  });
  beforeEach(() => {
    typeormStatements = [];
  });
  afterAll(async () => {
    await dataSource.destroy();
    await observer.destroy();
    await removeDatabase(database);
  });

  it('sends a write that only inserts as one statement, without BEGIN or COMMIT, and nothing before its end', async () => {
    await writes.run(async (transaction) => {
      await transaction.insert(AccessToken, [token('held-1')]);
      await transaction.insert(AccessToken, [token('held-2'), token('held-3')]);
      expect(await stored('held-1')).toBe(false);
    });
    expect(typeormStatements).toEqual([]);
    expect([await stored('held-1'), await stored('held-2'), await stored('held-3')]).toEqual([true, true, true]);
  });

  it('stores none of the inserts of one statement if one of them fails', async () => {
    const failing = writes.run(async (transaction) => {
      await transaction.insert(AccessToken, [token('atomic-1')]);
      await transaction.insert(AccessToken, [token('atomic-1')]);
    });
    await expect(failing).rejects.toMatchObject({ code: '23505' });
    expect(await stored('atomic-1')).toBe(false);
  });

  it('sends what is held before the next statement, in one transaction: a read sees it, a rollback undoes it', async () => {
    let seen: AccessToken | null = null;
    const rolledBack = writes.run(async (transaction) => {
      await transaction.insert(AccessToken, [token('read-1')]);
      seen = await findByPrimaryKey(transaction.manager.getRepository(AccessToken), 'read-1');
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    expect(seen).toStrictEqual(token('read-1'));
    expect(typeormStatements[0]).toBe('START TRANSACTION');
    expect(typeormStatements.at(-1)).toBe('ROLLBACK');
    expect(await stored('read-1')).toBe(false);
  });

  it('checks foreign keys at the end of the statement: a row may go in before the row it names', async () => {
    await writes.run(async (transaction) => {
      await transaction.insert(AccessToken, [{ ...token('named-1'), clientId: 'new-client' }]);
      await transaction.insert(TppClient, [
        Object.assign(new TppClient(), { clientId: 'new-client', secretHash: '0'.repeat(64), name: 'New client' }),
      ]);
    });
    expect(await stored('named-1')).toBe(true);
    const dangling = writes.run((transaction) => transaction.insert(AccessToken, [{ ...token('named-2'), clientId: 'no-such-client' }]));
    await expect(dangling).rejects.toMatchObject({ code: '23503' });
    expect(await stored('named-2')).toBe(false);
  });

  it('sends what is held once it would bind too many parameters, inside the transaction it then opens', async () => {
    // 3 columns a token: 12,000 tokens are 36,000 parameters, beyond the 30,000 held at most.
    const rows = Array.from({ length: 12_000 }, (_, index) => token(`many-${index}`));
    await writes.run(async (transaction) => {
      for (let start = 0; start < rows.length; start += 500) await transaction.insert(AccessToken, rows.slice(start, start + 500));
    });
    expect(typeormStatements).toEqual(['START TRANSACTION', 'COMMIT']);
    expect(await observer.getRepository(AccessToken).countBy({ clientId: 'sandbox-tpp' })).toBe(12_000 + 3);
  });
});
