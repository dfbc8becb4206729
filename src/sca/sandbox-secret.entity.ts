import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A secret every instance on the database shares, made by whichever starts first (the SCA pages' CSRF key). */
@WorldScoped('none')
@Entity('sandbox_secrets')
export class SandboxSecret {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  name: string;

  @Column({ type: 'varchar', length: 128 })
  value: string;
}
