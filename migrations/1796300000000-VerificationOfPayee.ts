import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';

/** Verification of Payee (docs/verification-of-payee.md): the stored dedicated checks, and a payment's results. */
export class VerificationOfPayee1796300000000 implements MigrationInterface {
  name = 'VerificationOfPayee1796300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'payee_checks',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'requestId', type: 'varchar', length: '36' },
          { name: 'ownerId', type: 'varchar', length: '64', isNullable: true },
          { name: 'iban', type: 'varchar', length: '34' },
          { name: 'request', type: 'text' },
          { name: 'nameMatch', type: 'varchar', length: '4', isNullable: true },
          { name: 'idMatch', type: 'varchar', length: '4', isNullable: true },
          { name: 'matchedName', type: 'varchar', length: '140', isNullable: true },
          { name: 'bulkId', type: 'varchar', length: '36', isNullable: true },
          { name: 'position', type: 'integer', isNullable: true },
        ],
      }),
    );
    await queryRunner.createIndex('payee_checks', new TableIndex({ columnNames: ['requestId', 'ownerId'] }));
    await queryRunner.createIndex('payee_checks', new TableIndex({ columnNames: ['bulkId'] }));
    await queryRunner.addColumn('payments', new TableColumn({ name: 'vopResults', type: 'text', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('payments', 'vopResults');
    await queryRunner.dropTable('payee_checks');
  }
}
