import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn, Index } from 'typeorm';
import type { Psd2Role } from './psd2-statement';

/** The sandbox's own CA (docs/tpp-identity.md): made by whichever instance needs it first, then shared by all on the database. */
@WorldScoped('none')
@Entity('certificate_authority')
export class CertificateAuthority {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'text' })
  certificate: string;

  @Column({ type: 'text' })
  privateKey: string;
}

/** A certificate the sandbox CA issued to a TPP: what revocation and the client behind a certificate are looked up by. */
@WorldScoped({ column: 'ownerId', revoke: { column: 'revoked' }, resource: true, credential: true })
@Index(['ownerId'])
@Entity('tpp_certificates')
export class TppCertificate {
  /** Lower-case hex, no leading zero. */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  serialNumber: string;

  @Column({ type: 'varchar', length: 5 })
  type: 'QSEAL' | 'QWAC';

  @Column({ type: 'varchar', length: 140 })
  organisationName: string;

  @Column({ type: 'varchar', length: 64 })
  organisationIdentifier: string;

  @Column({ type: 'simple-json' })
  roles: Psd2Role[];

  @Column({ type: 'date' })
  notBefore: string;

  @Column({ type: 'date' })
  notAfter: string;

  @Column({ type: 'boolean', default: false })
  revoked: boolean;

  /** The client that had it issued (AUTH_MODE=strict): a request with another client's token is refused. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ownerId: string | null;
}
