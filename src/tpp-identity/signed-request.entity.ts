import { TppCertificate } from './tpp-certificate.entity';
import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An X-Request-ID a certificate signed, spent by the request that carried it (docs/tpp-identity.md, "A signature binds its request"). */
@WorldScoped({ through: () => TppCertificate, column: 'serialNumber', parentColumn: 'serialNumber', credential: true })
@Entity('signed_requests')
export class SignedRequest {
  /** The QSealC's serial number, lower-case hex. */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  serialNumber: string;

  /** The signed X-Request-ID (a UUID, checked before the signature). */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  requestId: string;

  /** When it was spent (real time, ISO 8601). */
  @Column({ type: 'varchar', length: 24 })
  spentAt: string;
}
