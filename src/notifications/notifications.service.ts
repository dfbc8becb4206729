import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { In } from 'typeorm';
import { refusal } from '../common/error-catalogue';
import { newResourceId } from '../common/resource-id';
import type { Environment } from '../config/environment';
import { Store } from '../database/store';
import { EventHistory } from '../events/event-history.service';
import type { SandboxEvent } from '../events/sandbox-event.entity';
import { causedBy } from '../common/request-context';
import type { NotificationRequest } from './notification-headers.decorator';
import { coreNotifiedKinds, formatContent, isNotified, NotificationContent, parseContent, RETRY_DELAYS_MS } from './notification-content';
import { NotificationHosts } from './notification-hosts';
import { Notification, NotificationSubscription } from './notification.entity';
import { post } from './delivery';

/** How long an attempt may run before another process takes it as lost and tries again. */
const ATTEMPT_LEASE_MS = 30_000;
/** Pending notifications one pass of the dispatcher looks at. */
const PASS_SIZE = 500;

const later = (ms: number): string => new Date(Date.now() + ms).toISOString();

/**
 * Status notifications (docs/notifications.md). A consent or payment initiated with
 * TPP-Notification-URI is subscribed; each change the TPP asked for becomes a row of
 * `notifications` in the write that makes the change, and is delivered once that write commits:
 * in order per resource, retried with backoff, each attempt recorded in the event history. The
 * TPP's request never waits for a delivery.
 */
@Injectable()
export class NotificationsService implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(NotificationsService.name);
  private readonly kinds = coreNotifiedKinds();
  /** How a notification names each kind of resource and its status, as the resource's own answers do. */
  private readonly namings = new Map<string, Naming>([
    ['consent', { resource: 'consentId', status: 'consentStatus' }],
    ['payment', { resource: 'paymentId', status: 'transactionStatus' }],
  ]);
  private readonly hosts: NotificationHosts;
  private readonly baseUrl: string;
  /** The pass under way, if one is; `again`: a commit came in during it. */
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly history: EventHistory,
    config: ConfigService<Environment, true>,
  ) {
    this.hosts = new NotificationHosts(config.get('NOTIFICATION_ALLOWED_HOSTS', { infer: true }), config.get('AUTH_MODE', { infer: true }));
    this.baseUrl = config.get('PUBLIC_BASE_URL', { infer: true });
  }

  onModuleInit(): void {
    this.history.onRecorded((events) => this.enqueue(events));
  }

  /** What an earlier process left undelivered goes out now. */
  onApplicationBootstrap(): void {
    this.kick();
  }

  /** No new pass; one under way is not waited for: an attempt cut short stays pending and is made again at the next start. */
  onModuleDestroy(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** A service's resources a TPP may subscribe to, with their LAST statuses and how a notification names them (docs/notifications.md). */
  notifyOf(kind: string, lastStatuses: string[], naming: Naming): void {
    this.kinds.set(kind, new Set(lastStatuses));
    this.namings.set(kind, naming);
  }

  /** Before the write: a URI whose host may not be notified is refused with 400, and nothing is created. */

  async admit(request: NotificationRequest | null): Promise<void> {
    if (!request) return;
    const refused = await this.hosts.refusedAddress(new URL(request.uri));
    if (refused) {
      throw refusal(
        'notificationHostRefused',
        `TPP-Notification-URI names a host on a private, loopback or reserved network (${refused}), which this sandbox does not notify unless NOTIFICATION_ALLOWED_HOSTS names it`,
        'TPP-Notification-URI',
      );
    }
  }

  /** Inside the write that creates the consent or payment at `path` (`/v1/consents/<id>`). */
  async subscribe(
    request: NotificationRequest,
    resource: Pick<NotificationSubscription, 'resourceId' | 'kind' | 'ownerId'>,
    path: string,
  ): Promise<void> {
    await this.store.insert(NotificationSubscription, {
      ...resource,
      uri: request.uri,
      content: formatContent(request.content),
      statusHref: `${this.baseUrl}${path}/status`,
    });
  }

  /** The changes of subscribed resources that their TPPs asked to hear of, to be delivered once the write commits. */
  private async enqueue(events: SandboxEvent[]): Promise<void> {
    const subjectOf = (event: SandboxEvent) => (event.kind === 'authorisation' ? event.parentId : event.resourceId);
    const candidates = events.filter(
      (event) => (this.kinds.has(event.kind) || event.kind === 'authorisation') && event.event !== 'CREATED',
    );
    if (candidates.length === 0) return;
    const subscriptions = await this.store
      .read(NotificationSubscription)
      .findBy({ resourceId: In([...new Set(candidates.map(subjectOf))]) });
    const byResource = new Map(subscriptions.map((subscription) => [subscription.resourceId, subscription]));
    const rows = candidates.flatMap((event): Notification[] => {
      const subscription = byResource.get(subjectOf(event) ?? '');
      if (!subscription || !isNotified(parseContent(subscription.content) as NotificationContent[], event, this.kinds)) return [];
      return [
        {
          id: newResourceId(),
          resourceId: subscription.resourceId,
          uri: subscription.uri,
          body: JSON.stringify(bodyOf(subscription, event, this.namings.get(subscription.kind)!)),
          status: event.toStatus,
          cause: event.cause,
          state: 'pending',
          attempts: 0,
          nextAttemptAt: event.at,
          ownerId: subscription.ownerId,
        },
      ];
    });
    if (rows.length === 0) return;
    await this.store.insertMany(Notification, rows);
    this.store.afterCommit(() => this.kick());
  }

  /** Starts a pass of the dispatcher, or asks the one under way for another. */
  private kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.pass()
      .catch((error: unknown) => this.logger.error(`notification delivery: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Attempts the oldest pending notification of each resource that is due, until none is; then waits for the next one due. */
  private async pass(): Promise<void> {
    while (!this.stopped) {
      const pending = await this.store.read(Notification).find({ where: { state: 'pending' }, order: { id: 'ASC' }, take: PASS_SIZE });
      const heads = [...new Map(pending.reverse().map((notification) => [notification.resourceId, notification])).values()];
      const now = new Date().toISOString();
      const due = heads.filter((notification) => notification.nextAttemptAt <= now);
      if (due.length === 0) {
        const next = heads.map((notification) => notification.nextAttemptAt).sort()[0];
        if (next) this.timer = setTimeout(() => this.kick(), Math.max(0, Date.parse(next) - Date.now())).unref();
        return;
      }
      await Promise.all(due.map((notification) => this.attempt(notification)));
    }
  }

  /** One attempt, taken by a compare-and-set on its count so that of two processes only one makes it. */
  private async attempt(notification: Notification): Promise<void> {
    const attempt = notification.attempts + 1;
    const { affected } = await this.store.write(() =>
      this.store
        .change(Notification)
        .update({ id: notification.id, attempts: notification.attempts }, { attempts: attempt, nextAttemptAt: later(ATTEMPT_LEASE_MS) }),
    );
    if (!affected) return;
    const url = new URL(notification.uri);
    const { delivered, outcome } = await post(url, notification.body, { 'X-Request-ID': notification.id }, this.hosts.agentFor(url));
    const state = delivered ? 'delivered' : attempt > RETRY_DELAYS_MS.length ? 'failed' : 'pending';
    await causedBy(notification.cause, () =>
      this.store.write(async () => {
        await this.store
          .change(Notification)
          .update(
            { id: notification.id },
            { state, nextAttemptAt: state === 'pending' ? later(RETRY_DELAYS_MS[attempt - 1]) : new Date().toISOString() },
          );
        await this.history.record({
          kind: 'notification',
          resourceId: notification.id,
          parentId: notification.resourceId,
          fromStatus: notification.status,
          toStatus: state === 'pending' ? 'retrying' : state,
          event: `ATTEMPT ${attempt}: ${outcome}`.slice(0, 30),
          ownerId: notification.ownerId,
        });
      }),
    );
  }
}

/** What a notification says: the resource and its new status, or the authorisation and its new SCA status; and where to read the status. */
function bodyOf(subscription: NotificationSubscription, event: SandboxEvent, { resource, status }: Naming): Record<string, unknown> {
  const change =
    event.kind === 'authorisation' ? { authorisationId: event.resourceId, scaStatus: event.toStatus } : { [status]: event.toStatus };
  return { [resource]: subscription.resourceId, ...change, _links: { status: { href: subscription.statusHref } } };
}

/** The fields of a notification's body that name the resource and its status. */
/** How a notification names a kind's resource and its status (docs/notifications.md). */
export interface Naming {
  resource: string;
  status: string;
}
