import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

/**
 * Every SCA approach (docs/sca-approaches.md): an authorisation remembers its approach, its PSU,
 * the method chosen, the wrong credentials so far, the polls of a decoupled one and where a
 * denial sends the holder; a payment the reason it was rejected for; the bank's conditions,
 * maintenance and delay, which every instance on the database obeys (docs/failures.md).
 */
export class ScaApproaches1795900000000 implements MigrationInterface {
  name = 'ScaApproaches1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // scaMethodSelected is 17 characters.
    await queryRunner.changeColumn('authorisations', 'status', new TableColumn({ name: 'status', type: 'varchar', length: '20' }));
    await queryRunner.addColumns('authorisations', [
      new TableColumn({ name: 'approach', type: 'varchar', length: '10', default: "'REDIRECT'" }),
      new TableColumn({ name: 'psuId', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn({ name: 'scaMethodId', type: 'varchar', length: '35', isNullable: true }),
      new TableColumn({ name: 'failedAttempts', type: 'integer', default: 0 }),
      new TableColumn({ name: 'polls', type: 'integer', default: 0 }),
      new TableColumn({ name: 'tppNokRedirectUri', type: 'varchar', length: '2048', isNullable: true }),
    ]);
    await queryRunner.addColumn('payments', new TableColumn({ name: 'reasonCode', type: 'varchar', length: '4', isNullable: true }));
    await queryRunner.createTable(
      new Table({
        name: 'bank_conditions',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'maintenance', type: 'boolean', default: false },
          { name: 'delayMs', type: 'integer', default: 0 },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('bank_conditions');
    await queryRunner.dropColumn('payments', 'reasonCode');
    await queryRunner.dropColumns('authorisations', ['approach', 'psuId', 'scaMethodId', 'failedAttempts', 'polls', 'tppNokRedirectUri']);
    await queryRunner.changeColumn('authorisations', 'status', new TableColumn({ name: 'status', type: 'varchar', length: '10' }));
  }
}
