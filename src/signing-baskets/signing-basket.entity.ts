import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn, Index } from 'typeorm';
import type { BasketStatus } from './signing-basket.machine';

/** Berlin Group's signing basket (docs/signing-baskets.md): payments and consents of one client that one SCA authorises. */
@WorldScoped({ column: 'ownerId', resource: true })
@Index(['ownerId'])
@Entity('signing_baskets')
export class SigningBasket {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 4 })
  status: BasketStatus;

  @Column({ type: 'simple-json' })
  paymentIds: string[];

  @Column({ type: 'simple-json' })
  consentIds: string[];

  /** The client that created it, in AUTH_MODE=strict: only that client sees it, and its members are that client's. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ownerId: string | null;
}
