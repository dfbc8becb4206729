import { createHash } from 'node:crypto';
import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * A client's secret is kept as its SHA-256 only, as access tokens are: the database never holds a
 * usable credential, and the secret is shown once, at registration (docs/security.md). The
 * secrets stored so far are hashed in place.
 */
export class HashedClientSecrets1797600000000 implements MigrationInterface {
  name = 'HashedClientSecrets1797600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = { name: 'secretHash', type: 'varchar', length: '64' };
    // Added with a default and the default dropped after: a length changed in place is a column
    // dropped and added again on PostgreSQL (TypeORM), which would lose the secrets.
    await queryRunner.addColumn('tpp_clients', new TableColumn({ ...column, default: "''" }));
    const clients: { clientId: string; clientSecret: string }[] = await queryRunner.query(
      'SELECT "clientId", "clientSecret" FROM tpp_clients',
    );
    for (const { clientId, clientSecret } of clients) {
      const secretHash = createHash('sha256').update(clientSecret).digest('hex');
      await queryRunner.manager.createQueryBuilder().update('tpp_clients').set({ secretHash }).where({ clientId }).execute();
    }
    await queryRunner.dropColumn('tpp_clients', 'clientSecret');
    await queryRunner.changeColumn('tpp_clients', 'secretHash', new TableColumn(column));
  }

  async down(): Promise<void> {
    throw new Error('A hashed secret cannot be turned back into the secret: restore a backup taken before this migration');
  }
}
