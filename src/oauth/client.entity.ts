import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A TPP's client credentials: fixtures (profiles/bank/fixtures/clients.json), as the bank hands them
 * out at onboarding, or a client that registered itself (RFC 7591, docs/security.md "Clients register themselves").
 */
@WorldScoped({ column: 'clientId', keptOnReset: true, theWorld: true })
@Entity('tpp_clients')
export class TppClient {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  clientId: string;

  /** SHA-256 of its client secret, as of its tokens: the secret is shown once, at registration (docs/security.md). */
  @Column({ type: 'varchar', length: 64 })
  secretHash: string;

  @Column({ type: 'varchar', length: 140 })
  name: string;

  /** A registered client's redirect URIs; null for a fixture. */
  @Column({ type: 'simple-json', nullable: true })
  redirectUris: string[] | null = null;

  /** SHA-256 of its registration access token (RFC 7592); null for a fixture. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  registrationTokenHash: string | null = null;

  /** ISO 8601 UTC instant of its registration; null for a fixture. */
  @Column({ type: 'varchar', length: 24, nullable: true })
  registeredAt: string | null = null;

  /** The UTC date its world last answered a request (a registered client's): what WORLD_IDLE_DAYS measures (IdleWorlds). */
  @Column({ type: 'varchar', length: 10, nullable: true })
  lastUsedOn: string | null = null;
}

/** An issued bearer token; only its SHA-256 is stored, so the database never holds a usable token. */
@WorldScoped({ column: 'clientId', keptOnReset: true })
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
