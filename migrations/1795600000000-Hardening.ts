import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';

/** Client credentials and tokens, who owns what a client creates (AUTH_MODE=strict), and the daily access counts. */
export class Hardening1795600000000 implements MigrationInterface {
  name = 'Hardening1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'tpp_clients',
        columns: [
          { name: 'clientId', type: 'varchar', length: '64', isPrimary: true },
          { name: 'clientSecret', type: 'varchar', length: '128' },
          { name: 'name', type: 'varchar', length: '140' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'access_tokens',
        columns: [
          { name: 'tokenHash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'clientId', type: 'varchar', length: '64' },
          { name: 'expiresAt', type: 'varchar', length: '24' },
        ],
        foreignKeys: [
          { columnNames: ['clientId'], referencedTableName: 'tpp_clients', referencedColumnNames: ['clientId'], onDelete: 'CASCADE' },
        ],
        indices: [{ name: 'IDX_access_tokens_expiresAt', columnNames: ['expiresAt'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'consent_access_counts',
        columns: [
          { name: 'consentId', type: 'varchar', length: '36', isPrimary: true },
          { name: 'accountIban', type: 'varchar', length: '34', isPrimary: true },
          { name: 'day', type: 'date', isPrimary: true },
          { name: 'accesses', type: 'integer' },
        ],
        foreignKeys: [{ columnNames: ['consentId'], referencedTableName: 'consents', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
    for (const table of OWNED) {
      await queryRunner.addColumn(table, new TableColumn({ name: 'ownerId', type: 'varchar', length: '64', isNullable: true }));
      await queryRunner.createIndex(table, new TableIndex({ name: `IDX_${table}_owner`, columnNames: ['ownerId'] }));
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of OWNED) {
      await queryRunner.dropIndex(table, `IDX_${table}_owner`);
      await queryRunner.dropColumn(table, 'ownerId');
    }
    for (const table of ['consent_access_counts', 'access_tokens', 'tpp_clients']) await queryRunner.dropTable(table);
  }
}

const OWNED = ['consents', 'payments', 'psus'];
