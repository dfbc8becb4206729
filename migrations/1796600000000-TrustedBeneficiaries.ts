import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** Trusted beneficiaries (docs/trusted-beneficiaries.md): the payees each account holder trusts. */
export class TrustedBeneficiaries1796600000000 implements MigrationInterface {
  name = 'TrustedBeneficiaries1796600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'trusted_beneficiaries',
        columns: [
          { name: 'trustedBeneficiaryId', type: 'varchar', length: '36', isPrimary: true },
          { name: 'psuId', type: 'varchar', length: '64' },
          { name: 'debtorIban', type: 'varchar', length: '34', isNullable: true },
          { name: 'creditorIban', type: 'varchar', length: '34' },
          { name: 'creditorName', type: 'varchar', length: '70' },
          { name: 'creditorAgent', type: 'varchar', length: '11', isNullable: true },
          { name: 'creditorAlias', type: 'varchar', length: '70', isNullable: true },
          { name: 'scenarioId', type: 'varchar', length: '36', isNullable: true },
        ],
      }),
    );
    await queryRunner.createIndex(
      'trusted_beneficiaries',
      new TableIndex({ name: 'IDX_trusted_beneficiaries_psu', columnNames: ['psuId'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('trusted_beneficiaries');
  }
}
