import { WorldScoped } from '../world/world-scope';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** What an event is about (docs/events.md): the core's kinds; a service declares its own here by declaration merging (SandboxService.eventKinds). */
export interface EventKinds {
  consent: true;
  payment: true;
  authorisation: true;
  instalment: true;
  booking: true;
  clock: true;
  notification: true;
}
export type EventKind = keyof EventKinds;

/** One thing that happened in the sandbox, as the history keeps it (docs/events.md). */
@WorldScoped({ column: 'ownerId' })
@Entity('events')
@Index(['resourceId'])
@Index(['parentId'])
export class SandboxEvent {
  /** A UUIDv7: its order is the order events were recorded in. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 14 })
  kind: EventKind;

  /** The consent, payment, authorisation or account; `clock` for the clock. */
  @Column({ type: 'varchar', length: 64 })
  resourceId: string;

  /** The consent or payment an authorisation, instalment or booking belongs to; null otherwise. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  parentId: string | null;

  /** The status before; for a booking, the account it is booked on. */
  @Column({ type: 'varchar', length: 34, nullable: true })
  fromStatus: string | null;

  @Column({ type: 'varchar', length: 40 })
  toStatus: string;

  /** The machine's event, or what happened (BOOKED, EXECUTED, FAILED, MOVED). */
  @Column({ type: 'varchar', length: 30 })
  event: string;

  /** The X-Request-ID of the request that caused it, or `clock`. */
  @Column({ type: 'varchar', length: 200 })
  cause: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  psuId: string | null;

  /** How an SCA decision was taken: page, embedded, decoupled, control. */
  @Column({ type: 'varchar', length: 10, nullable: true })
  channel: string | null;

  @Column({ type: 'date' })
  sandboxDate: string;

  /** ISO timestamp, real time. */
  @Column({ type: 'varchar', length: 30 })
  at: string;

  /** The serial number of the certificate the causing request came with (docs/tpp-identity.md); null: none. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  certificate: string | null;

  /** The client whose resource it is (AUTH_MODE=strict); null: everyone's. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ownerId: string | null;
}
