import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** What binds a request and bounds guessing (docs/tpp-identity.md, docs/security.md): spent signed X-Request-IDs, failed sign-ins, ended sessions. */
export class BoundRequests1797100000000 implements MigrationInterface {
  name = 'BoundRequests1797100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'signed_requests',
        columns: [
          { name: 'serialNumber', type: 'varchar', length: '40', isPrimary: true },
          { name: 'requestId', type: 'varchar', length: '36', isPrimary: true },
          { name: 'spentAt', type: 'varchar', length: '24' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sign_in_failures',
        columns: [
          { name: 'key', type: 'varchar', length: '64', isPrimary: true },
          { name: 'failures', type: 'integer' },
          { name: 'windowEndsAt', type: 'varchar', length: '24' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'ended_sessions',
        columns: [
          { name: 'sessionHash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'expiresAt', type: 'varchar', length: '24' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('ended_sessions');
    await queryRunner.dropTable('sign_in_failures');
    await queryRunner.dropTable('signed_requests');
  }
}
