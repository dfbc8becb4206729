import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, ObjectLiteral, Repository } from 'typeorm';
import { FIRST_VALID_CONSENT_ID, seedFixtures } from '../../seeds/fixtures';
import { Transaction } from '../account-information/account.entity';
import { AccessToken } from '../auth/client.entity';
import { Authorisation } from '../authorisation/authorisation.entity';
import { Consent } from '../consent/consent.entity';
import { Payment } from '../payment-initiation/payment.entity';
import { dataSourceOptions } from './data-source';
import { findByPrimaryKey } from './find-by-primary-key';

describe('findByPrimaryKey, on a migrated SQLite file', () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-sandbox-find-by-primary-key-'));
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(join(folder, 'sandbox.sqlite'))).initialize();
    await dataSource.runMigrations();
    await seedFixtures(dataSource.manager);
    await dataSource.manager.insert(Consent, {
      id: 'b1f0d3c4-0000-4000-8000-000000000001',
      status: 'received',
      access: { accounts: [], balances: [], transactions: [], availableAccounts: 'allAccounts' },
      recurringIndicator: false,
      validUntil: '2026-06-30',
      frequencyPerDay: 1,
      lastActionDate: '2026-03-15',
      scenarioId: null,
      ownerId: 'sandbox-tpp',
    });
    await dataSource.manager.insert(Payment, {
      id: 'b1f0d3c4-0000-4000-8000-000000000002',
      service: 'payments',
      product: 'sepa-credit-transfers',
      status: 'RCVD',
      debtorIban: 'AT099900000000001511',
      amount: '1.00',
      currency: 'EUR',
      executionDate: null,
      body: { instructedAmount: { currency: 'EUR', amount: '1.00' } } as unknown as Payment['body'],
      ownerId: null,
    });
    await dataSource.manager.insert(Authorisation, {
      id: 'b1f0d3c4-0000-4000-8000-000000000003',
      kind: 'payment',
      resourceId: 'b1f0d3c4-0000-4000-8000-000000000002',
      status: 'received',
      tppRedirectUri: null,
      createdAt: '2026-03-15T10:00:00.000Z',
    });
    await dataSource.manager.insert(AccessToken, { tokenHash: 'a'.repeat(64), clientId: 'sandbox-tpp', expiresAt: '2026-03-15T11:00:00.000Z' });
  });
  afterAll(async () => {
    await dataSource.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Each entity it serves, with a row whose columns cover booleans, JSON, dates and nulls. */
  const rows: [string, () => Repository<ObjectLiteral>, string][] = [
    ['a fixture consent', () => dataSource.getRepository(Consent), FIRST_VALID_CONSENT_ID],
    ['a consent a client created', () => dataSource.getRepository(Consent), 'b1f0d3c4-0000-4000-8000-000000000001'],
    ['a payment', () => dataSource.getRepository(Payment), 'b1f0d3c4-0000-4000-8000-000000000002'],
    ['an authorisation', () => dataSource.getRepository(Authorisation), 'b1f0d3c4-0000-4000-8000-000000000003'],
    ['an access token', () => dataSource.getRepository(AccessToken), 'a'.repeat(64)],
  ];

  it.each(rows)('reads %s exactly as findOneBy does: same class, same values', async (_, repository, key) => {
    const [primary] = repository().metadata.primaryColumns;
    const expected = await repository().findOneBy({ [primary.propertyName]: key });
    const found = await findByPrimaryKey(repository(), key);
    expect(expected).not.toBeNull();
    expect(found).toBeInstanceOf(repository().metadata.target as new () => unknown);
    expect(found).toStrictEqual(expected);
  });

  it('hydrates as the entity declares: booleans, JSON and nulls, not what SQLite stores', async () => {
    const consent = await findByPrimaryKey(dataSource.getRepository(Consent), 'b1f0d3c4-0000-4000-8000-000000000001');
    expect(consent).toMatchObject({ recurringIndicator: false, fixture: false, scenarioId: null, access: { availableAccounts: 'allAccounts' } });
  });

  it('answers null for a key that is not stored', async () => {
    await expect(findByPrimaryKey(dataSource.getRepository(Payment), 'b1f0d3c4-0000-4000-8000-00000000ffff')).resolves.toBeNull();
  });

  it("reads inside a transaction through the transaction's repository, seeing its own uncommitted write", async () => {
    const id = 'b1f0d3c4-0000-4000-8000-000000000004';
    let inside: AccessToken | null = null;
    const rolledBack = dataSource.transaction(async (manager) => {
      await manager.insert(AccessToken, { tokenHash: id, clientId: 'sandbox-tpp', expiresAt: '2026-03-15T11:00:00.000Z' });
      inside = await findByPrimaryKey(manager.getRepository(AccessToken), id);
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    expect(inside).toStrictEqual(Object.assign(new AccessToken(), { tokenHash: id, clientId: 'sandbox-tpp', expiresAt: '2026-03-15T11:00:00.000Z' }));
    await expect(findByPrimaryKey(dataSource.getRepository(AccessToken), id)).resolves.toBeNull();
  });

  it('refuses an entity with relations, which would need TypeORM\'s joins', async () => {
    await expect(findByPrimaryKey(dataSource.getRepository(Transaction), 'x')).rejects.toThrow('findByPrimaryKey: Transaction has relations');
  });
});
