import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** Confirmation of funds (docs/funds-confirmation.md): a consent for it is a consent with the card it is for. */
export class FundsConfirmation1796500000000 implements MigrationInterface {
  name = 'FundsConfirmation1796500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('consents', new TableColumn({ name: 'card', type: 'text', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('consents', 'card');
  }
}
