import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/** A world's signing baskets, counted against WORLD_MAX_RESOURCES, by an index (docs/signing-baskets.md). */
export class SigningBasketOwners1797300000001 implements MigrationInterface {
  name = 'SigningBasketOwners1797300000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('signing_baskets', new TableIndex({ columnNames: ['ownerId'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const index = (await queryRunner.getTable('signing_baskets'))!.indices.find(({ columnNames }) => columnNames.join() === 'ownerId');
    if (index) await queryRunner.dropIndex('signing_baskets', index);
  }
}
