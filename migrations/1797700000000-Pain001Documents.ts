import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** A payment initiated as a pain.001 keeps the document as sent: its XML read answers it, its pain.002 names its identifiers (docs/formats.md). */
export class Pain001Documents1797700000000 implements MigrationInterface {
  name = 'Pain001Documents1797700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('payments', new TableColumn({ name: 'document', type: 'text', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('payments', 'document');
  }
}
