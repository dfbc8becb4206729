import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A world's date, once its client has set or moved its clock (docs/scenarios-and-clock.md). */
@WorldScoped({ key: 'world' })
@Entity('sandbox_clock')
export class SandboxClock {
  /** The world's key (World.key): a client ID, or "" for the open world. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  world: string;

  @Column({ type: 'date' })
  today: string;
}
