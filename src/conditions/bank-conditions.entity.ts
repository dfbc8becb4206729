import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The one row of the bank's conditions a test sets (docs/failures.md); absent: a bank in service, answering at once. */
@Entity('bank_conditions')
export class BankConditions {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'boolean', default: false })
  maintenance: boolean;

  @Column({ type: 'integer', default: 0 })
  delayMs: number;
}
