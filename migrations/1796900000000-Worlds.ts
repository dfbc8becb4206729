import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';

/** A world's key: a client ID, or "" for the open world (docs/security.md, "Worlds"). */
const WORLD: TableColumnOptions = { name: 'world', type: 'varchar', length: '64', isPrimary: true };
const CONDITIONS: TableColumnOptions[] = [
  { name: 'maintenance', type: 'boolean', default: false },
  { name: 'delayMs', type: 'integer', default: 0 },
];

/**
 * Each client's world has its own clock and conditions (docs/security.md, "Worlds"): the one row
 * of each becomes a row for each world, and what was set before is the open world's.
 */
export class Worlds1796900000000 implements MigrationInterface {
  name = 'Worlds1796900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.rekey(
      queryRunner,
      'sandbox_clock',
      [WORLD, { name: 'today', type: 'date' }],
      `SELECT '', "today" FROM "sandbox_clock_single"`,
    );
    await this.rekey(
      queryRunner,
      'bank_conditions',
      [WORLD, ...CONDITIONS],
      `SELECT '', "maintenance", "delayMs" FROM "bank_conditions_single"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const ID: TableColumnOptions = { name: 'id', type: 'integer', isPrimary: true };
    await this.rekey(
      queryRunner,
      'sandbox_clock',
      [ID, { name: 'today', type: 'date' }],
      `SELECT 1, "today" FROM "sandbox_clock_single" WHERE "world" = ''`,
    );
    await this.rekey(
      queryRunner,
      'bank_conditions',
      [ID, ...CONDITIONS],
      `SELECT 1, "maintenance", "delayMs" FROM "bank_conditions_single" WHERE "world" = ''`,
    );
  }

  /** The table again with other columns, its rows carried over by `select` (from the old table, renamed `<name>_single`). */
  private async rekey(queryRunner: QueryRunner, name: string, columns: TableColumnOptions[], select: string): Promise<void> {
    await queryRunner.renameTable(name, `${name}_single`);
    await queryRunner.createTable(new Table({ name, columns }));
    await queryRunner.query(`INSERT INTO "${name}" (${columns.map((column) => `"${column.name}"`).join(', ')}) ${select}`);
    await queryRunner.dropTable(`${name}_single`);
  }
}
