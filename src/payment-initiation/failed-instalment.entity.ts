import { Payment } from './payment.entity';
import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An instalment of a periodic payment that did not execute on its date, and why (ISO 20022):
 * it booked nothing, and the next one runs on its own date (docs/living-bank.md, "Periodic payments").
 */
@WorldScoped({ through: () => Payment, column: 'paymentId', parentColumn: 'id' })
@Entity('failed_instalments')
export class FailedInstalment {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  paymentId: string;

  @PrimaryColumn({ type: 'integer' })
  number: number;

  @Column({ type: 'date' })
  dueDate: string;

  @Column({ type: 'date' })
  executionDate: string;

  /** AM04 (insufficient funds), AM02 (a balance beyond the ceiling) or AC04 (the debtor account no longer exists). */
  @Column({ type: 'varchar', length: 4 })
  reasonCode: string;
}
