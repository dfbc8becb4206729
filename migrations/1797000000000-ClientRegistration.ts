import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** Clients that registered themselves (RFC 7591, docs/security.md "Clients register themselves"): their redirect URIs and registration access token. */
export class ClientRegistration1797000000000 implements MigrationInterface {
  name = 'ClientRegistration1797000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('tpp_clients', [
      new TableColumn({ name: 'redirectUris', type: 'text', isNullable: true }),
      new TableColumn({ name: 'registrationTokenHash', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn({ name: 'registeredAt', type: 'varchar', length: '24', isNullable: true }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('tpp_clients', ['redirectUris', 'registrationTokenHash', 'registeredAt']);
  }
}
