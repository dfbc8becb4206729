import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ScaStatus } from './authorisation.machine';

/** Berlin Group's SCA approaches this sandbox offers (the ASPSP-SCA-Approach header). */
export type ScaApproach = 'REDIRECT' | 'EMBEDDED' | 'DECOUPLED';

/**
 * What is being authorised: the core's kinds (a consent, a payment, the cancellation of a payment);
 * a service declares its own here by declaration merging and registers it with AuthorisationPort.
 */
export interface AuthorisationKinds {
  consent: true;
  payment: true;
  cancellation: true;
}
export type AuthorisationKind = keyof AuthorisationKinds;

@WorldScoped({ column: 'ownerId' })
@Entity('authorisations')
export class Authorisation {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 12 })
  kind: AuthorisationKind;

  @Column({ type: 'varchar', length: 36 })
  resourceId: string;

  @Column({ type: 'varchar', length: 20 })
  status: ScaStatus;

  /** How the holder authorises it (docs/sca-approaches.md), chosen by the request that opened it. */
  @Column({ type: 'varchar', length: 10, default: 'REDIRECT' })
  approach: ScaApproach;

  /** The PSU-ID the TPP named (embedded, decoupled); null until one is named. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  psuId: string | null;

  /** The SCA method chosen (embedded). */
  @Column({ type: 'varchar', length: 35, nullable: true })
  scaMethodId: string | null;

  /** Wrong passwords and TANs so far: the machine fails it at the third. */
  @Column({ type: 'integer', default: 0 })
  failedAttempts: number;

  /** The TPP's reads of its SCA status while started (decoupled): a persona confirms at a set poll. */
  @Column({ type: 'integer', default: 0 })
  polls: number;

  /** TPP-Redirect-URI of the request that started it: where the SCA page sends the holder back. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  tppRedirectUri: string | null;

  /** TPP-Nok-Redirect-URI: where the holder goes back to after a denial or a failure, instead of tppRedirectUri. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  tppNokRedirectUri: string | null;

  /** The client whose consent or payment it authorises (AUTH_MODE=strict): whose history it is in. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ownerId: string | null;

  /** ISO timestamp: orders the authorisations of one resource. */
  @Column({ type: 'varchar', length: 30 })
  createdAt: string;
}
