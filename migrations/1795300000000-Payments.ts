import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Payments: the body as accepted, and the terms the payment machine reads as columns. */
export class Payments1795300000000 implements MigrationInterface {
  name = 'Payments1795300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'payments',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'service', type: 'varchar', length: '20' },
          { name: 'product', type: 'varchar', length: '40' },
          { name: 'status', type: 'varchar', length: '4' },
          { name: 'debtorIban', type: 'varchar', length: '34' },
          { name: 'amount', type: 'varchar', length: '20' },
          { name: 'currency', type: 'varchar', length: '3' },
          { name: 'executionDate', type: 'date', isNullable: true },
          { name: 'body', type: 'text' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('payments');
  }
}
