import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';

/** Test PSUs and the accounts they hold, SCA authorisations, and the persisted sandbox clock. */
export class ScaAndClock1795400000000 implements MigrationInterface {
  name = 'ScaAndClock1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'psus',
        columns: [
          { name: 'psuId', type: 'varchar', length: '64', isPrimary: true },
          { name: 'name', type: 'varchar', length: '140' },
          { name: 'password', type: 'varchar', length: '64' },
        ],
      }),
    );
    await queryRunner.addColumn('accounts', new TableColumn({ name: 'psuId', type: 'varchar', length: '64', isNullable: true }));
    await queryRunner.createForeignKey(
      'accounts',
      new TableForeignKey({ columnNames: ['psuId'], referencedTableName: 'psus', referencedColumnNames: ['psuId'] }),
    );
    await queryRunner.createIndex('accounts', new TableIndex({ name: 'IDX_accounts_psu', columnNames: ['psuId'] }));
    await queryRunner.createTable(
      new Table({
        name: 'authorisations',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'kind', type: 'varchar', length: '12' },
          { name: 'resourceId', type: 'varchar', length: '36' },
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'tppRedirectUri', type: 'varchar', length: '2048', isNullable: true },
          { name: 'createdAt', type: 'varchar', length: '30' },
        ],
        indices: [{ name: 'IDX_authorisations_resource', columnNames: ['kind', 'resourceId'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sandbox_clock',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'today', type: 'date' },
        ],
      }),
    );
    await queryRunner.createIndex(
      'payments',
      new TableIndex({ name: 'IDX_payments_status_date', columnNames: ['status', 'executionDate'] }),
    );
    await queryRunner.createIndex(
      'consents',
      new TableIndex({ name: 'IDX_consents_status_valid_until', columnNames: ['status', 'validUntil'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('consents', 'IDX_consents_status_valid_until');
    await queryRunner.dropIndex('payments', 'IDX_payments_status_date');
    await queryRunner.dropTable('sandbox_clock');
    await queryRunner.dropTable('authorisations');
    await queryRunner.dropIndex('accounts', 'IDX_accounts_psu');
    const accounts = await queryRunner.getTable('accounts');
    await queryRunner.dropForeignKey(
      'accounts',
      accounts!.foreignKeys.find((key) => key.columnNames.includes('psuId'))!,
    );
    await queryRunner.dropColumn('accounts', 'psuId');
    await queryRunner.dropTable('psus');
  }
}
