import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

/** Scenario data: PSUs, accounts and consents a test suite created for itself, tagged so they can be deleted together. */
export class Scenarios1795500000000 implements MigrationInterface {
  name = 'Scenarios1795500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['psus', 'accounts', 'consents']) {
      await queryRunner.addColumn(table, new TableColumn({ name: 'scenarioId', type: 'varchar', length: '36', isNullable: true }));
      await queryRunner.createIndex(table, new TableIndex({ name: `IDX_${table}_scenario`, columnNames: ['scenarioId'] }));
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['consents', 'accounts', 'psus']) {
      await queryRunner.dropIndex(table, `IDX_${table}_scenario`);
      await queryRunner.dropColumn(table, 'scenarioId');
    }
  }
}
