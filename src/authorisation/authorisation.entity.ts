import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ScaStatus } from './authorisation.machine';

/** What is being authorised: a consent, a payment, or the cancellation of a payment. */
export type AuthorisationKind = 'consent' | 'payment' | 'cancellation';

@Entity('authorisations')
export class Authorisation {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 12 })
  kind: AuthorisationKind;

  @Column({ type: 'varchar', length: 36 })
  resourceId: string;

  @Column({ type: 'varchar', length: 10 })
  status: ScaStatus;

  /** TPP-Redirect-URI of the request that started it: where the SCA page sends the holder back. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  tppRedirectUri: string | null;

  /** ISO timestamp: orders the authorisations of one resource. */
  @Column({ type: 'varchar', length: 30 })
  createdAt: string;
}
