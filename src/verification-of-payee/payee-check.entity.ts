import { WorldScoped } from '../world/world-scope';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { IdMatch, NameMatch } from './name-match';

/** The party a check was asked about, as the TPP sent it (echoed in a bulk's answers). */
export interface CheckedParty {
  uetr?: string;
  partyAccount: { iban: string; currency?: string };
  party: { name?: string; identification?: Record<string, unknown> };
}

/**
 * One dedicated check of a payee (docs/verification-of-payee.md): kept so that a payment can name
 * it by its X-Request-ID (Client-VOP-Request-ID), and a bulk's entries so that it can be read.
 */
@WorldScoped({ column: 'ownerId', resource: true })
@Index(['ownerId'])
@Entity('payee_checks')
@Index(['requestId', 'ownerId'])
@Index(['bulkId'])
export class PayeeCheck {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** The X-Request-ID of the check's request: one bulk's entries share it. */
  @Column({ type: 'varchar', length: 36 })
  requestId: string;

  /** The client that asked (AUTH_MODE=strict): only it may refer to or read the check. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ownerId: string | null;

  @Column({ type: 'varchar', length: 34 })
  iban: string;

  @Column({ type: 'simple-json' })
  request: CheckedParty;

  @Column({ type: 'varchar', length: 4, nullable: true })
  nameMatch: NameMatch | null;

  @Column({ type: 'varchar', length: 4, nullable: true })
  idMatch: IdMatch | null;

  @Column({ type: 'varchar', length: 140, nullable: true })
  matchedName: string | null;

  /** The vopBulkId of the bulk it is an entry of, and its place there; null for a single check. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  bulkId: string | null;

  @Column({ type: 'integer', nullable: true })
  position: number | null;
}
