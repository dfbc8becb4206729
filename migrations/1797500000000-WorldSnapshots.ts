import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** A world's recovery points (docs/scenarios-and-clock.md, "Snapshots"). */
export class WorldSnapshots1797500000000 implements MigrationInterface {
  name = 'WorldSnapshots1797500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'world_snapshots',
        columns: [
          { name: 'snapshotId', type: 'varchar', length: '36', isPrimary: true },
          { name: 'ownerId', type: 'varchar', length: '64', isNullable: true },
          { name: 'name', type: 'varchar', length: '70' },
          { name: 'createdAt', type: 'varchar', length: '24' },
          { name: 'sandboxDate', type: 'date' },
          { name: 'resources', type: 'integer' },
          { name: 'rows', type: 'text' },
        ],
      }),
    );
    await queryRunner.createIndex('world_snapshots', new TableIndex({ columnNames: ['ownerId'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('world_snapshots');
  }
}
