import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

/** TPP identity (docs/tpp-identity.md): the sandbox CA, the certificates it issued, and which certificate a change's request came with. */
export class TppIdentity1796400000000 implements MigrationInterface {
  name = 'TppIdentity1796400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'certificate_authority',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'certificate', type: 'text' },
          { name: 'privateKey', type: 'text' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'tpp_certificates',
        columns: [
          { name: 'serialNumber', type: 'varchar', length: '40', isPrimary: true },
          { name: 'type', type: 'varchar', length: '5' },
          { name: 'organisationName', type: 'varchar', length: '140' },
          { name: 'organisationIdentifier', type: 'varchar', length: '64' },
          { name: 'roles', type: 'text' },
          { name: 'notBefore', type: 'date' },
          { name: 'notAfter', type: 'date' },
          { name: 'revoked', type: 'boolean', default: false },
          { name: 'ownerId', type: 'varchar', length: '64', isNullable: true },
        ],
      }),
    );
    await queryRunner.addColumn('events', new TableColumn({ name: 'certificate', type: 'varchar', length: '40', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('events', 'certificate');
    await queryRunner.dropTable('tpp_certificates');
    await queryRunner.dropTable('certificate_authority');
  }
}
