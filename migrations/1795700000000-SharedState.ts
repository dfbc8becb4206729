import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** State that instances on one database share instead of each keeping its own: the SCA pages' CSRF secret. */
export class SharedState1795700000000 implements MigrationInterface {
  name = 'SharedState1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'sandbox_secrets',
        columns: [
          { name: 'name', type: 'varchar', length: '40', isPrimary: true },
          { name: 'value', type: 'varchar', length: '128' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('sandbox_secrets');
  }
}
