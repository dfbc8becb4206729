import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn, Index } from 'typeorm';
import type { PaymentBody } from './payment-terms';
import type { PaymentStatus, RejectionReason } from './payment.machine';
import type { CreditorCheck } from '../verification-of-payee/verification-of-payee.service';
import type { PaymentProduct, PaymentServiceName } from './payment-products';

/** The service and product a payment is addressed under. */
export type { PaymentType } from './payment-products';

/** A payment a TPP initiated: the body as accepted, and the terms the machine needs as columns. */
@WorldScoped({ column: 'ownerId', resource: true })
@Index(['ownerId'])
@Entity('payments')
export class Payment {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 20 })
  service: PaymentServiceName;

  @Column({ type: 'varchar', length: 40 })
  product: PaymentProduct;

  @Column({ type: 'varchar', length: 4 })
  status: PaymentStatus;

  @Column({ type: 'varchar', length: 34 })
  debtorIban: string;

  /** The amount the funds check uses: the bulk's sum, one periodic instalment. */
  @Column({ type: 'varchar', length: 20 })
  amount: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** requestedExecutionDate, or a periodic payment's startDate; null for at once. */
  @Column({ type: 'date', nullable: true })
  executionDate: string | null;

  /** A periodic payment's next instalment's execution date (schedule.ts), null once none is to come. */
  @Column({ type: 'date', nullable: true })
  nextExecutionDate: string | null;

  /** A periodic payment's instalments whose dates have come, executed or failed. */
  @Column({ type: 'integer', default: 0 })
  instalmentsRun: number;

  /** The due date of the last of them: where its schedule resumes. */
  @Column({ type: 'date', nullable: true })
  lastDueDate: string | null;

  @Column({ type: 'simple-json' })
  body: PaymentBody;

  /** The client that created it, in AUTH_MODE=strict: only that client sees it. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ownerId: string | null;

  /** Why it was rejected, when a refused creditor was the reason (docs/failures.md); null otherwise. */
  @Column({ type: 'varchar', length: 4, nullable: true })
  reasonCode: RejectionReason | null;

  /** The pain.001.001.03 as the TPP sent it, for a pain.001 product (docs/formats.md); null for a JSON one. */
  @Column({ type: 'text', nullable: true })
  document: string | null;

  /** Verification of Payee: each creditor's result, in the body's order; null when the payment was not checked (docs/verification-of-payee.md). */
  @Column({ type: 'simple-json', nullable: true })
  vopResults: CreditorCheck[] | null;
}
