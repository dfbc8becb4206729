import { Consent } from '../consent/consent.entity';
import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** How often a consent read an account on one sandbox day without the account holder present. */
@WorldScoped({ through: () => Consent, column: 'consentId', parentColumn: 'id' })
@Entity('consent_access_counts')
export class AccessCount {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  consentId: string;

  @PrimaryColumn({ type: 'varchar', length: 34 })
  accountIban: string;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ type: 'integer' })
  accesses: number;
}
