import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/** What WORLD_MAX_RESOURCES counts at each creation, found by an index rather than a scan of the table (docs/security.md, "A world's life"). */
export class WorldResources1797300000000 implements MigrationInterface {
  name = 'WorldResources1797300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) await queryRunner.createIndex(table, new TableIndex({ columnNames: ['ownerId'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      const index = (await queryRunner.getTable(table))!.indices.find(({ columnNames }) => columnNames.join() === 'ownerId');
      if (index) await queryRunner.dropIndex(table, index);
    }
  }
}

const TABLES = ['consents', 'payments', 'psus', 'payee_checks', 'tpp_certificates'];
