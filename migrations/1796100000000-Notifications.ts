import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** Status notifications (docs/notifications.md): what each TPP asked to hear of, and what is to be delivered. */
export class Notifications1796100000000 implements MigrationInterface {
  name = 'Notifications1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'notification_subscriptions',
        columns: [
          { name: 'resourceId', type: 'varchar', length: '36', isPrimary: true },
          { name: 'kind', type: 'varchar', length: '7' },
          { name: 'uri', type: 'varchar', length: '2000' },
          { name: 'content', type: 'varchar', length: '30' },
          { name: 'statusHref', type: 'varchar', length: '300' },
          { name: 'ownerId', type: 'varchar', length: '64', isNullable: true },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'notifications',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'resourceId', type: 'varchar', length: '36' },
          { name: 'uri', type: 'varchar', length: '2000' },
          { name: 'body', type: 'text' },
          { name: 'status', type: 'varchar', length: '40' },
          { name: 'cause', type: 'varchar', length: '200' },
          { name: 'state', type: 'varchar', length: '9' },
          { name: 'attempts', type: 'integer' },
          { name: 'nextAttemptAt', type: 'varchar', length: '30' },
          { name: 'ownerId', type: 'varchar', length: '64', isNullable: true },
        ],
      }),
    );
    await queryRunner.createIndex('notifications', new TableIndex({ columnNames: ['state'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('notifications');
    await queryRunner.dropTable('notification_subscriptions');
  }
}
