import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The sessions that listen for changes (PostgreSQL; src/database/change-feed.ts): each instance's
 * listening connection writes its own backend's pid and start, and a change waits for the
 * acknowledgements of the sessions listed here that are still alive, never for a connection by
 * its name, which any connection may take (docs/operations.md, "Hosting").
 */
export class ChangeListeners1797600000001 implements MigrationInterface {
  name = 'ChangeListeners1797600000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'change_listeners',
        columns: [
          { name: 'pid', type: 'integer', isPrimary: true },
          // The backend's start as seconds since 1970 (text): with the pid, one session, whatever DateStyle says.
          { name: 'backendStart', type: 'varchar', length: '32', isPrimary: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('change_listeners');
  }
}
