import { Psu } from '../bank/account.entity';
import { WorldScoped } from '../world/world-scope';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A payee an account holder trusts (Berlin Group's trusted beneficiary, docs/trusted-beneficiaries.md):
 * listed to a TPP whose consent asks for it, and, where the profile says so, paid without SCA.
 */
@WorldScoped({ through: () => Psu, column: 'scenarioId', parentColumn: 'scenarioId' })
@Entity('trusted_beneficiaries')
@Index('IDX_trusted_beneficiaries_psu', ['psuId'])
export class TrustedBeneficiary {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  trustedBeneficiaryId: string;

  /** The holder who trusts it. */
  @Column({ type: 'varchar', length: 64 })
  psuId: string;

  /** The holder's account it is trusted for; null: every account of theirs. */
  @Column({ type: 'varchar', length: 34, nullable: true })
  debtorIban: string | null;

  @Column({ type: 'varchar', length: 34 })
  creditorIban: string;

  @Column({ type: 'varchar', length: 70 })
  creditorName: string;

  /** The creditor's BIC, where known. */
  @Column({ type: 'varchar', length: 11, nullable: true })
  creditorAgent: string | null;

  /** The holder's own name for it. */
  @Column({ type: 'varchar', length: 70, nullable: true })
  creditorAlias: string | null;

  /** Set for data a test suite created with POST /sandbox/scenarios; null for the bank's fixtures. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  scenarioId: string | null;
}
