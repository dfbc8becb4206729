import { WorldScoped } from '../world/world-scope';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A TPP's wish to hear of a resource's changes: a consent's, a payment's, or one of a kind a service registers (TPP-Notification-URI, docs/notifications.md). */
@WorldScoped({ column: 'ownerId' })
@Entity('notification_subscriptions')
export class NotificationSubscription {
  /** The consent or payment. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  resourceId: string;

  @Column({ type: 'varchar', length: 7 })
  /** consent, payment, or a kind a service registers (NotificationsService.notifyOf). */
  kind: string;

  @Column({ type: 'varchar', length: 2000 })
  uri: string;

  /** What the TPP hears of, in the form of ASPSP-Notification-Content: `status=SCA, PROCESS`. */
  @Column({ type: 'varchar', length: 30 })
  content: string;

  /** The resource's status link, which each notification carries. */
  @Column({ type: 'varchar', length: 300 })
  statusHref: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ownerId: string | null;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/**
 * One notification to deliver: written in the write of the change it tells of, so that none is
 * lost, and delivered after it commits, one at a time per resource, in order.
 */
@WorldScoped({ column: 'ownerId' })
@Entity('notifications')
@Index(['state'])
export class Notification {
  /** A UUIDv7: the order of the changes; also the X-Request-ID of every attempt. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** The consent or payment it tells of. */
  @Column({ type: 'varchar', length: 36 })
  resourceId: string;

  @Column({ type: 'varchar', length: 2000 })
  uri: string;

  /** The JSON body POSTed. */
  @Column({ type: 'text' })
  body: string;

  /** The status it tells of. */
  @Column({ type: 'varchar', length: 40 })
  status: string;

  /** The cause of the change it tells of (docs/events.md). */
  @Column({ type: 'varchar', length: 200 })
  cause: string;

  @Column({ type: 'varchar', length: 9 })
  state: DeliveryState;

  @Column({ type: 'integer' })
  attempts: number;

  /** ISO timestamp: not before then; while an attempt runs, the time after which it counts as lost. */
  @Column({ type: 'varchar', length: 30 })
  nextAttemptAt: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ownerId: string | null;
}
