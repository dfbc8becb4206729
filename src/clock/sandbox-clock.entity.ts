import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The one row that holds the sandbox date once a TPP has set or moved it. */
@Entity('sandbox_clock')
export class SandboxClock {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'date' })
  today: string;
}
