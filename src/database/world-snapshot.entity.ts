import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { WorldScoped } from '../world/world-scope';

/** The longest name a snapshot takes: its column's length. */
export const SNAPSHOT_NAME_LENGTH = 70;

/** A world's recovery point (docs/scenarios-and-clock.md, "Snapshots"): its state's rows, as JSON, table by table. */
@WorldScoped({ column: 'ownerId', keptOnReset: true })
@Index(['ownerId'])
@Entity('world_snapshots')
export class WorldSnapshot {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  snapshotId: string;

  /** The world's client; null: the open world. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ownerId: string | null;

  @Column({ type: 'varchar', length: SNAPSHOT_NAME_LENGTH })
  name: string;

  /** When it was taken (real time, ISO 8601). */
  @Column({ type: 'varchar', length: 24 })
  createdAt: string;

  /** The world's date when it was taken. */
  @Column({ type: 'date' })
  sandboxDate: string;

  /** How many resources (consents, payments, baskets, payee checks, scenarios) it holds. */
  @Column({ type: 'integer' })
  resources: number;

  /** `{ [table]: rows }`, each row as its entity reads it. */
  @Column({ type: 'text' })
  rows: string;
}

/**
 * The snapshot every world has and no one takes or deletes: the world as new, before it made
 * anything (a restore of it is a reset that leaves the world's certificates as they are). It is
 * the served document's example, so that Try it out restores something in every world.
 */
export const AS_NEW = {
  snapshotId: '00000000-0000-4000-8000-000000000001',
  name: 'as new',
  createdAt: '2019-03-01T09:00:00.000Z',
  resources: 0,
};
