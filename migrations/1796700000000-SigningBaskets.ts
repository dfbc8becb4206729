import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Signing baskets (docs/signing-baskets.md). */
export class SigningBaskets1796700000000 implements MigrationInterface {
  name = 'SigningBaskets1796700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'signing_baskets',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'status', type: 'varchar', length: '4' },
          { name: 'paymentIds', type: 'text' },
          { name: 'consentIds', type: 'text' },
          { name: 'ownerId', type: 'varchar', length: '64', isNullable: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('signing_baskets');
  }
}
