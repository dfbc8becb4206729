import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The one row naming the profile the database was seeded with (docs/profiles.md, "One database, one profile"). */
@WorldScoped('none')
@Entity('seeded_profile')
export class SeededProfile {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  /** PROFILE as the seeding instance was given it: a built-in name or a folder. */
  @Column({ type: 'varchar', length: 500 })
  source: string;

  @Column({ type: 'varchar', length: 70 })
  name: string;

  /** BankProfile.digest: its settings and fixtures. */
  @Column({ type: 'varchar', length: 64 })
  digest: string;
}
