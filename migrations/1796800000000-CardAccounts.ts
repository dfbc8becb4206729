import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** Card accounts (docs/card-accounts.md): a card's account and its card transactions. */
export class CardAccounts1796800000000 implements MigrationInterface {
  name = 'CardAccounts1796800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'card_accounts',
        columns: [
          { name: 'resourceId', type: 'varchar', length: '36', isPrimary: true },
          { name: 'maskedPan', type: 'varchar', length: '35' },
          { name: 'currency', type: 'varchar', length: '3' },
          { name: 'name', type: 'varchar', length: '70' },
          { name: 'product', type: 'varchar', length: '35' },
          { name: 'creditLimit', type: 'varchar', length: '20', isNullable: true },
          { name: 'balances', type: 'text' },
          { name: 'psuId', type: 'varchar', length: '64' },
          { name: 'scenarioId', type: 'varchar', length: '36', isNullable: true },
        ],
      }),
    );
    await queryRunner.createIndex(
      'card_accounts',
      new TableIndex({ name: 'IDX_card_accounts_masked_pan', columnNames: ['maskedPan'], isUnique: true }),
    );
    await queryRunner.createIndex('card_accounts', new TableIndex({ name: 'IDX_card_accounts_psu', columnNames: ['psuId'] }));
    await queryRunner.createTable(
      new Table({
        name: 'card_transactions',
        columns: [
          { name: 'cardAccountId', type: 'varchar', length: '36', isPrimary: true },
          { name: 'transactionId', type: 'varchar', length: '35', isPrimary: true },
          { name: 'bookingStatus', type: 'varchar', length: '11' },
          { name: 'bookingDate', type: 'date', isNullable: true },
          { name: 'body', type: 'text' },
        ],
        foreignKeys: [
          {
            columnNames: ['cardAccountId'],
            referencedTableName: 'card_accounts',
            referencedColumnNames: ['resourceId'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('card_transactions');
    await queryRunner.dropTable('card_accounts');
  }
}
