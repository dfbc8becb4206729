import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The bank's conditions a world's client set (docs/failures.md); absent: a bank in service, answering at once. */
@WorldScoped({ key: 'world' })
@Entity('bank_conditions')
export class BankConditions {
  /** The world's key (World.key): a client ID, or "" for the open world. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  world: string;

  @Column({ type: 'boolean', default: false })
  maintenance: boolean;

  @Column({ type: 'integer', default: 0 })
  delayMs: number;
}
