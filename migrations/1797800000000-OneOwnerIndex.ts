import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Consents, payments and PSUs had two indexes on `ownerId`: Hardening's and the one WorldResources
 * added for the tables the entities declare one on. Each insert and status change of a payment
 * or consent kept both (docs/benchmark.md, "What was tried"); the entities' own stays.
 */
export class OneOwnerIndex1797800000000 implements MigrationInterface {
  name = 'OneOwnerIndex1797800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) await queryRunner.dropIndex(table, `IDX_${table}_owner`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES)
      await queryRunner.createIndex(table, new TableIndex({ name: `IDX_${table}_owner`, columnNames: ['ownerId'] }));
  }
}

const TABLES = ['consents', 'payments', 'psus'];
