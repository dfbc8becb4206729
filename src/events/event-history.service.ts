import { Injectable } from '@nestjs/common';
import { Between, FindOptionsWhere, LessThanOrEqual, MoreThanOrEqual } from 'typeorm';
import { ClockService } from '../clock/clock.service';
import { newResourceId } from '../common/resource-id';
import { Store } from '../database/store';
import { currentActor, currentCause, currentCertificate } from '../common/request-context';
import { ownedBy, World } from '../world/world';
import { EventKind, SandboxEvent } from './sandbox-event.entity';

/** What the recording side says of an event; the rest (time, cause, actor) the history adds. */
export type EventEntry = Pick<SandboxEvent, 'kind' | 'resourceId' | 'fromStatus' | 'toStatus' | 'event' | 'ownerId'> & {
  parentId?: string | null;
  /** The date it happened on, when not today's: a move of the clock, an instalment. */
  sandboxDate?: string;
};

export interface EventFilter {
  resourceId?: string;
  kind?: EventKind;
  /** ISO timestamps, inclusive. */
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

/**
 * The sandbox's event history (docs/events.md): every status change, booking, instalment and
 * clock move, recorded in the write that makes it, so that the history never tells of a change
 * that was not committed, nor misses one that was.
 */
@Injectable()
export class EventHistory {
  /** What else must happen in the write that records a change (notifications.service.ts). */
  private readonly listeners: ((events: SandboxEvent[]) => Promise<void>)[] = [];

  constructor(
    private readonly store: Store,
    private readonly clock: ClockService,
  ) {}

  /** Inside a Store.write. */
  async record(...entries: EventEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const cause = currentCause();
    const actor = currentActor();
    const certificate = currentCertificate() ?? null;
    const at = new Date().toISOString();
    const rows = entries.map(({ sandboxDate: date, parentId, ...entry }): SandboxEvent => ({
      id: newResourceId(),
      ...entry,
      parentId: parentId ?? null,
      sandboxDate: date ?? this.clock.today(World.of(entry)),
      cause,
      psuId: actor?.psuId ?? null,
      channel: actor?.channel ?? null,
      certificate,
      at,
    }));
    await this.store.insertMany(SandboxEvent, rows);
    for (const listener of this.listeners) await listener(rows);
  }

  /** `listener` runs inside the write of each record. */
  onRecorded(listener: (events: SandboxEvent[]) => Promise<void>): void {
    this.listeners.push(listener);
  }

  /** Newest first; a client (AUTH_MODE=strict) sees its own world's events: its resources' and its clock's. */
  async list(filter: EventFilter, world: World): Promise<{ events: SandboxEvent[]; total: number }> {
    const at =
      filter.from && filter.to
        ? Between(filter.from, filter.to)
        : filter.from
          ? MoreThanOrEqual(filter.from)
          : filter.to
            ? LessThanOrEqual(filter.to)
            : undefined;
    const common: FindOptionsWhere<SandboxEvent> = { ...(filter.kind ? { kind: filter.kind } : {}), ...(at ? { at } : {}) };
    // Where-objects in a list are ORed: the resource itself or what belongs to it.
    const ofResource: FindOptionsWhere<SandboxEvent>[] = filter.resourceId
      ? [{ resourceId: filter.resourceId }, { parentId: filter.resourceId }]
      : [{}];
    const where = ofResource.map((resource) => ({ ...common, ...resource, ...ownedBy(world) }));
    const events = await this.store
      .read(SandboxEvent)
      .find({ where, order: { id: 'DESC' }, skip: (filter.page - 1) * filter.pageSize, take: filter.pageSize });
    return { events, total: await this.store.read(SandboxEvent).count({ where }) };
  }
}
