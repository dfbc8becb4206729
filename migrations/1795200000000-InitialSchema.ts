import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** Consents, accounts, balances and transactions; written with the Table API so it also runs on PostgreSQL. */
export class InitialSchema1795200000000 implements MigrationInterface {
  name = 'InitialSchema1795200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'consents',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'status', type: 'varchar', length: '20' },
          { name: 'access', type: 'text' },
          { name: 'recurringIndicator', type: 'boolean' },
          { name: 'validUntil', type: 'date' },
          { name: 'frequencyPerDay', type: 'integer' },
          { name: 'lastActionDate', type: 'date' },
          { name: 'fixture', type: 'boolean', default: false },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'accounts',
        columns: [
          { name: 'iban', type: 'varchar', length: '34', isPrimary: true },
          { name: 'currency', type: 'varchar', length: '3' },
          { name: 'name', type: 'varchar', length: '140' },
          { name: 'product', type: 'varchar', length: '35' },
          { name: 'bic', type: 'varchar', length: '11' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'balances',
        columns: [
          { name: 'accountIban', type: 'varchar', length: '34', isPrimary: true },
          { name: 'balanceType', type: 'varchar', length: '30', isPrimary: true },
          { name: 'amount', type: 'varchar', length: '20' },
          { name: 'currency', type: 'varchar', length: '3' },
          { name: 'referenceDate', type: 'date' },
        ],
        foreignKeys: [
          { columnNames: ['accountIban'], referencedTableName: 'accounts', referencedColumnNames: ['iban'], onDelete: 'CASCADE' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'transactions',
        columns: [
          { name: 'transactionId', type: 'varchar', length: '35', isPrimary: true },
          { name: 'accountIban', type: 'varchar', length: '34' },
          { name: 'bookingStatus', type: 'varchar', length: '11' },
          { name: 'bookingDate', type: 'date', isNullable: true },
          { name: 'body', type: 'text' },
        ],
        foreignKeys: [
          { columnNames: ['accountIban'], referencedTableName: 'accounts', referencedColumnNames: ['iban'], onDelete: 'CASCADE' },
        ],
      }),
    );
    await queryRunner.createIndex(
      'transactions',
      new TableIndex({ name: 'IDX_transactions_account_status_date', columnNames: ['accountIban', 'bookingStatus', 'bookingDate'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('transactions');
    await queryRunner.dropTable('balances');
    await queryRunner.dropTable('accounts');
    await queryRunner.dropTable('consents');
  }
}
