import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

/** Periodic payments run: how far each has run, and the instalments that failed (docs/living-bank.md). */
export class LivingBank1795800000000 implements MigrationInterface {
  name = 'LivingBank1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('payments', [
      new TableColumn({ name: 'instalmentsRun', type: 'integer', default: 0 }),
      new TableColumn({ name: 'lastDueDate', type: 'date', isNullable: true }),
      new TableColumn({ name: 'nextExecutionDate', type: 'date', isNullable: true }),
    ]);
    await queryRunner.createTable(
      new Table({
        name: 'failed_instalments',
        columns: [
          { name: 'paymentId', type: 'varchar', length: '36', isPrimary: true },
          { name: 'number', type: 'integer', isPrimary: true },
          { name: 'dueDate', type: 'date' },
          { name: 'executionDate', type: 'date' },
          { name: 'reasonCode', type: 'varchar', length: '4' },
        ],
        foreignKeys: [{ columnNames: ['paymentId'], referencedTableName: 'payments', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('failed_instalments');
    await queryRunner.dropColumns('payments', ['instalmentsRun', 'lastDueDate', 'nextExecutionDate']);
  }
}
