import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A TPP's client credentials: fixtures (profiles/bank/fixtures/clients.json), as the bank hands them out at onboarding. */
@Entity('tpp_clients')
export class TppClient {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  clientId: string;

  @Column({ type: 'varchar', length: 128 })
  clientSecret: string;

  @Column({ type: 'varchar', length: 140 })
  name: string;
}

/** An issued bearer token; only its SHA-256 is stored, so the database never holds a usable token. */
@Entity('access_tokens')
export class AccessToken {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tokenHash: string;

  @Column({ type: 'varchar', length: 64 })
  clientId: string;

  /** ISO 8601 UTC instant (toISOString), so text order is time order on every database. */
  @Column({ type: 'varchar', length: 24 })
  expiresAt: string;
}
