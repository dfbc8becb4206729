import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** The profile a database was seeded with: every instance on it must run the same one (docs/profiles.md). */
export class SeededProfile1796200000000 implements MigrationInterface {
  name = 'SeededProfile1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'seeded_profile',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'source', type: 'varchar', length: '500' },
          { name: 'name', type: 'varchar', length: '70' },
          { name: 'digest', type: 'varchar', length: '64' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('seeded_profile');
  }
}
