import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** The day a registered client's world was last used: what WORLD_IDLE_DAYS measures (docs/security.md, "A world's life"). */
export class WorldUse1797400000000 implements MigrationInterface {
  name = 'WorldUse1797400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('tpp_clients', new TableColumn({ name: 'lastUsedOn', type: 'varchar', length: '10', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('tpp_clients', 'lastUsedOn');
  }
}
