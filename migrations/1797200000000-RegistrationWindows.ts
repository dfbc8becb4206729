import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Registrations per address and hour (docs/security.md, "Clients register themselves"): REGISTRATIONS_PER_HOUR. */
export class RegistrationWindows1797200000000 implements MigrationInterface {
  name = 'RegistrationWindows1797200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'registration_windows',
        columns: [
          { name: 'key', type: 'varchar', length: '64', isPrimary: true },
          { name: 'registrations', type: 'integer' },
          { name: 'windowEndsAt', type: 'varchar', length: '24' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('registration_windows');
  }
}
