import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';

/** The event history (docs/events.md), and the owner of each authorisation, whose history it is in. */
export class EventHistory1796000000000 implements MigrationInterface {
  name = 'EventHistory1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'events',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'kind', type: 'varchar', length: '14' },
          { name: 'resourceId', type: 'varchar', length: '64' },
          { name: 'parentId', type: 'varchar', length: '36', isNullable: true },
          { name: 'fromStatus', type: 'varchar', length: '34', isNullable: true },
          { name: 'toStatus', type: 'varchar', length: '40' },
          { name: 'event', type: 'varchar', length: '30' },
          { name: 'cause', type: 'varchar', length: '200' },
          { name: 'psuId', type: 'varchar', length: '64', isNullable: true },
          { name: 'channel', type: 'varchar', length: '10', isNullable: true },
          { name: 'sandboxDate', type: 'date' },
          { name: 'at', type: 'varchar', length: '30' },
          { name: 'ownerId', type: 'varchar', length: '64', isNullable: true },
        ],
      }),
    );
    await queryRunner.createIndex('events', new TableIndex({ columnNames: ['resourceId'] }));
    await queryRunner.createIndex('events', new TableIndex({ columnNames: ['parentId'] }));
    await queryRunner.addColumn('authorisations', new TableColumn({ name: 'ownerId', type: 'varchar', length: '64', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('authorisations', 'ownerId');
    await queryRunner.dropTable('events');
  }
}
