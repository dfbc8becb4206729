import { DataSource, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import { loadProfile } from '../profile/load-profile';
import { seedFixtures } from '../schema/seed-fixtures';
import { Transaction } from '../bank/account.entity';
import { AccessToken } from '../oauth/client.entity';
import { Authorisation } from '../authorisation/authorisation.entity';
import { Consent } from '../consent/consent.entity';
import { Payment } from '../payment-initiation/payment.entity';
import { SeededProfile } from './seeded-profile.entity';
import { ENGINE, prepareDatabase, removeDatabase, secondConnection, temporaryDatabase } from '../../test/support/engine';
import { countEqual, existsHeld, findByPrimaryKey, insertRows, insertRowsReturningKeys } from './prebuilt-statements';
import { TppClient } from '../oauth/client.entity';
import { SERVICES } from '../services';

const PROFILE = loadProfile('bank', SERVICES);

describe(`prebuilt statements, on a migrated database (${ENGINE})`, () => {
  const database = temporaryDatabase();
  let dataSource: DataSource;

  beforeAll(async () => {
    await prepareDatabase(database);
    dataSource = await secondConnection(database);
    await dataSource.runMigrations();
    await seedFixtures(dataSource.manager, PROFILE, database);
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
    await dataSource.manager.insert(AccessToken, {
      tokenHash: 'a'.repeat(64),
      clientId: 'sandbox-tpp',
      expiresAt: '2026-03-15T11:00:00.000Z',
    });
  });
  afterAll(async () => {
    await dataSource.destroy();
    await removeDatabase(database);
  });

  /** Each entity it serves, with a row whose columns cover booleans, JSON, dates and nulls. */
  const rows: [string, () => Repository<ObjectLiteral>, string | number][] = [
    ['a fixture consent', () => dataSource.getRepository(Consent), PROFILE.firstValidConsentId!],
    ['a consent a client created', () => dataSource.getRepository(Consent), 'b1f0d3c4-0000-4000-8000-000000000001'],
    ['a payment', () => dataSource.getRepository(Payment), 'b1f0d3c4-0000-4000-8000-000000000002'],
    ['an authorisation', () => dataSource.getRepository(Authorisation), 'b1f0d3c4-0000-4000-8000-000000000003'],
    ['an access token', () => dataSource.getRepository(AccessToken), 'a'.repeat(64)],
    // TypeORM's SQLite driver writes a number into the statement itself: the statement kept must bind it.
    ["the seeded profile's row, by an integer key", () => dataSource.getRepository(SeededProfile), 1],
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
    expect(consent).toMatchObject({
      recurringIndicator: false,
      fixture: false,
      scenarioId: null,
      access: { availableAccounts: 'allAccounts' },
    });
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
    expect(inside).toStrictEqual(
      Object.assign(new AccessToken(), { tokenHash: id, clientId: 'sandbox-tpp', expiresAt: '2026-03-15T11:00:00.000Z' }),
    );
    await expect(findByPrimaryKey(dataSource.getRepository(AccessToken), id)).resolves.toBeNull();
  });

  it.each(['sandbox-tpp', 'no-such-client'])(
    "counts the rows of several tables whose column holds a value (%s) as TypeORM's countBy does, summed",
    async (clientId) => {
      const tables = [
        { target: Consent, column: 'ownerId' },
        { target: Payment, column: 'ownerId' },
        { target: AccessToken, column: 'clientId' },
      ];
      let expected = 0;
      for (const { target, column } of tables)
        expected += await dataSource.getRepository<ObjectLiteral>(target).countBy({ [column]: clientId });
      expect(await countEqual(dataSource.manager, tables, clientId)).toBe(expected);
      expect(expected).toBe(clientId === 'sandbox-tpp' ? 2 : 0); // the consent and the token inserted above
      // Built once for the list: asked again, from the statement it kept, it answers the same.
      expect(await countEqual(dataSource.manager, tables, clientId)).toBe(expected);
    },
  );

  it('refuses to count by a column the entity does not have', async () => {
    await expect(countEqual(dataSource.manager, [{ target: Payment, column: 'clientId' }], 'sandbox-tpp')).rejects.toThrow(
      'prebuilt statements: Payment has no column clientId',
    );
  });

  it.each([
    ['a fixture client, by its key', TppClient, 'clientId', 'sandbox-tpp'],
    ['no such client', TppClient, 'clientId', 'no-such-client'],
    ['an authorisation, by the resource it authorises', Authorisation, 'resourceId', 'b1f0d3c4-0000-4000-8000-000000000002'],
    ['no authorisation of that resource', Authorisation, 'resourceId', 'b1f0d3c4-0000-4000-8000-00000000ffff'],
  ] as const)('answers whether a row is there as findOne does: %s', async (_, target, column, value) => {
    const expected = (await dataSource.getRepository<ObjectLiteral>(target).findOne({ where: { [column]: value } })) !== null;
    await dataSource.transaction(async (manager) => {
      await expect(existsHeld(manager, target, column, value, ENGINE === 'postgres')).resolves.toBe(expected);
    });
    expect(expected).toBe(!value.includes('no-such') && !value.endsWith('ffff'));
  });

  if (ENGINE === 'postgres')
    it('keeps the row it found from deletion until its transaction ends, and lets others read and hold it meanwhile', async () => {
      const other = await secondConnection(database);
      try {
        await dataSource.transaction(async (manager) => {
          await expect(existsHeld(manager, TppClient, 'clientId', 'sandbox-tpp', true)).resolves.toBe(true);
          await other.transaction(async (elsewhere) => {
            await elsewhere.query("SET LOCAL lock_timeout = '300ms'");
            await expect(existsHeld(elsewhere, TppClient, 'clientId', 'sandbox-tpp', true)).resolves.toBe(true);
          });
          await expect(
            other.transaction(async (elsewhere) => {
              await elsewhere.query("SET LOCAL lock_timeout = '300ms'");
              await elsewhere.delete(TppClient, { clientId: 'sandbox-tpp' });
            }),
          ).rejects.toThrow('lock timeout');
        });
      } finally {
        await other.destroy();
      }
    });

  it('refuses to read an entity with relations, whose columns TypeORM hydrates through them', async () => {
    await expect(findByPrimaryKey(dataSource.getRepository(Transaction), 'x')).rejects.toThrow(
      'prebuilt statements: Transaction has relations',
    );
  });

  /** A whole row of each entity it writes, as the services build it: booleans, JSON, a date and nulls. */
  const written: [string, EntityTarget<ObjectLiteral>, string, (key: string) => ObjectLiteral][] = [
    [
      'a consent',
      Consent,
      'id',
      (id) => ({
        id,
        status: 'valid',
        access: { accounts: [{ iban: 'AT099900000000001511' }], balances: [], transactions: [] },
        recurringIndicator: true,
        validUntil: '2026-06-30',
        frequencyPerDay: 4,
        lastActionDate: '2026-03-15',
        fixture: false,
        scenarioId: null,
        ownerId: null,
        // A consent for the confirmation of funds: its card is JSON, as its access is.
        card: { cardNumber: '1234567891234', cardExpiryDate: '2030-12-31', cardInformation: null, registrationInformation: null },
      }),
    ],
    [
      'a payment',
      Payment,
      'id',
      (id) => ({
        id,
        service: 'payments',
        product: 'sepa-credit-transfers',
        status: 'RCVD',
        debtorIban: 'AT099900000000001511',
        amount: '12.30',
        currency: 'EUR',
        executionDate: '2026-03-20',
        nextExecutionDate: null,
        instalmentsRun: 0,
        lastDueDate: null,
        body: { instructedAmount: { currency: 'EUR', amount: '12.30' }, creditorName: 'Georg Mustermann' },
        ownerId: 'sandbox-tpp',
        reasonCode: 'AC04',
        vopResults: [{ creditorNameMatch: 'CMTC', matchedCreditorName: 'Georg Mustermann' }],
        document: null,
      }),
    ],
    [
      'an authorisation',
      Authorisation,
      'id',
      (id) => ({
        id,
        kind: 'consent',
        resourceId: PROFILE.firstValidConsentId!,
        status: 'scaMethodSelected',
        approach: 'EMBEDDED',
        psuId: 'susanne.mustermann',
        scaMethodId: 'sms',
        failedAttempts: 1,
        polls: 0,
        tppRedirectUri: null,
        tppNokRedirectUri: 'https://tpp.example/nok',
        ownerId: 'sandbox-tpp',
        createdAt: '2026-03-15T10:00:00.000Z',
      }),
    ],
    [
      'an access token',
      AccessToken,
      'tokenHash',
      (tokenHash) => ({ tokenHash, clientId: 'sandbox-tpp', expiresAt: '2026-03-15T11:00:00.000Z' }),
    ],
    [
      // Its account's column is also its relation's: read from the property, as TypeORM reads it.
      'a transaction',
      Transaction,
      'transactionId',
      (transactionId) => ({
        transactionId,
        accountIban: 'AT099900000000001511',
        bookingStatus: 'booked',
        bookingDate: '2026-03-15',
        body: { transactionAmount: { currency: 'EUR', amount: '-12.30' }, remittanceInformationUnstructured: 'Rent' },
      }),
    ],
  ];

  it.each(written)('writes %s exactly as manager.insert does: the same stored row', async (_, target, key, row) => {
    const { tableName } = dataSource.getMetadata(target);
    const stored = (value: string) =>
      dataSource.query(`SELECT * FROM "${tableName}" WHERE "${key}" = ${dataSource.driver.createParameter('value', 0)}`, [
        value,
      ]) as Promise<Record<string, unknown>[]>;
    await dataSource.manager.insert(target, row('c0ffee00-0000-4000-8000-00000000001'));
    await insertRows(dataSource.manager, target, [dataSource.manager.create(target, row('c0ffee00-0000-4000-8000-00000000002'))]);
    const [[expected], [inserted]] = [
      await stored('c0ffee00-0000-4000-8000-00000000001'),
      await stored('c0ffee00-0000-4000-8000-00000000002'),
    ];
    expect(inserted).toStrictEqual({ ...expected, [key]: 'c0ffee00-0000-4000-8000-00000000002' });
  });

  it('gives a column a row leaves unset what manager.insert gives it: its default, or null, and the row holds the default too', async () => {
    const unset = { fixture: undefined, scenarioId: undefined, card: undefined };
    const [expected, inserted] = [
      dataSource.manager.create(Consent, { ...written[0][3]('c0ffee00-0000-4000-8000-000000000005'), ...unset }),
      dataSource.manager.create(Consent, { ...written[0][3]('c0ffee00-0000-4000-8000-000000000006'), ...unset }),
    ];
    await dataSource.manager.insert(Consent, expected);
    await insertRows(dataSource.manager, Consent, [inserted]);
    expect({ ...inserted }).toStrictEqual({ ...expected, id: inserted.id });
    const stored = async (id: string) => ({ ...(await dataSource.getRepository(Consent).findOneByOrFail({ id })) });
    expect(await stored(inserted.id)).toStrictEqual({ ...(await stored(expected.id)), id: inserted.id });
    expect(await stored(inserted.id)).toMatchObject({ fixture: false, scenarioId: null, card: null });
  });

  it('refuses a row without a column that has no default and may not be null, and stores nothing', async () => {
    const id = 'c0ffee00-0000-4000-8000-000000000003';
    const consent = dataSource.manager.create(Consent, { ...written[0][3](id), status: undefined });
    await expect(insertRows(dataSource.manager, Consent, [consent])).rejects.toThrow(
      'insertRows: Consent.status is not set, and only the database could fill it',
    );
    await expect(dataSource.getRepository(Consent).findOneBy({ id })).resolves.toBeNull();
  });

  it('leaves out, if asked, a row whose key is taken, and inserts the others', async () => {
    const taken = written[3][3]('c0ffee00-0000-4000-8000-000000000007');
    const fresh = written[3][3]('c0ffee00-0000-4000-8000-000000000008');
    await insertRows(dataSource.manager, AccessToken, [Object.assign(new AccessToken(), taken)]);
    await insertRows(
      dataSource.manager,
      AccessToken,
      [Object.assign(new AccessToken(), { ...taken, clientId: 'other' }), Object.assign(new AccessToken(), fresh)],
      true,
    );
    await expect(dataSource.getRepository(AccessToken).findOneByOrFail({ tokenHash: taken.tokenHash as string })).resolves.toMatchObject({
      clientId: 'sandbox-tpp',
    });
    await expect(dataSource.getRepository(AccessToken).findOneByOrFail({ tokenHash: fresh.tokenHash as string })).resolves.toMatchObject({
      clientId: 'sandbox-tpp',
    });
    // Without ifAbsent, the key taken is refused (better-sqlite3's error is not always an Error to jest: its code is asserted).
    await expect(insertRows(dataSource.manager, AccessToken, [Object.assign(new AccessToken(), taken)])).rejects.toHaveProperty(
      'code',
      ENGINE === 'sqlite' ? 'SQLITE_CONSTRAINT_PRIMARYKEY' : '23505',
    );
  });

  it('answers, of rows whose keys may be taken, the keys of those it inserted, and leaves out the others', async () => {
    const taken = written[3][3]('c0ffee00-0000-4000-8000-000000000009');
    const fresh = written[3][3]('c0ffee00-0000-4000-8000-00000000000a');
    await insertRows(dataSource.manager, AccessToken, [Object.assign(new AccessToken(), taken)]);
    const inserted = await insertRowsReturningKeys(dataSource.manager, AccessToken, [
      Object.assign(new AccessToken(), { ...taken, clientId: 'other' }),
      Object.assign(new AccessToken(), fresh),
    ]);
    expect(inserted).toStrictEqual([{ tokenHash: fresh.tokenHash }]);
    await expect(dataSource.getRepository(AccessToken).findOneByOrFail({ tokenHash: taken.tokenHash as string })).resolves.toMatchObject({
      clientId: 'sandbox-tpp',
    });
    await expect(dataSource.getRepository(AccessToken).findOneByOrFail({ tokenHash: fresh.tokenHash as string })).resolves.toMatchObject({
      clientId: 'sandbox-tpp',
    });
  });

  it('writes inside the transaction it is given, undone with it', async () => {
    const row = written[3][3]('c0ffee00-0000-4000-8000-000000000004');
    const rolledBack = dataSource.transaction(async (manager) => {
      await insertRows(manager, AccessToken, [Object.assign(new AccessToken(), row)]);
      await expect(findByPrimaryKey(manager.getRepository(AccessToken), row.tokenHash as string)).resolves.toStrictEqual(
        Object.assign(new AccessToken(), row),
      );
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    await expect(findByPrimaryKey(dataSource.getRepository(AccessToken), row.tokenHash as string)).resolves.toBeNull();
  });
});
