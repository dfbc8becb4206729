import { Injectable } from '@nestjs/common';
import { ClockService } from '../clock/clock.service';
import { addDays, isDateOnly } from '../common/dates';
import { FormatError } from '../common/error-catalogue';
import { EventHistory } from '../events/event-history.service';
import type { World } from '../world/world';
import { Store } from '../database/store';
import { WorldPurge } from '../database/world-purge';
import { SnapshotSummary, WorldSnapshots } from '../database/world-snapshots';

@Injectable()
export class SandboxControlService {
  constructor(
    private readonly clock: ClockService,
    private readonly history: EventHistory,
    private readonly store: Store,
    private readonly purge: WorldPurge,
    private readonly snapshots: WorldSnapshots,
  ) {}

  /**
   * Forgets, in one write, everything the world created (docs/security.md, "A world's life"): its
   * consents, payments, baskets, scenarios, payee checks, events, notifications, certificates (revoked),
   * conditions and clock; its client and tokens stay. Other worlds are untouched.
   */
  async resetWorld(world: World): Promise<{ today: string; forgotten: number }> {
    const forgotten = await this.store.write(() => this.purge.purge(world, 'reset'));
    await this.clock.enter(world);
    return { today: this.clock.today(world), forgotten };
  }

  /** A recovery point of the world's state now (docs/scenarios-and-clock.md, "Snapshots"). */
  takeSnapshot(world: World, name: string): Promise<SnapshotSummary> {
    return this.snapshots.take(world, name, this.clock.today(world));
  }

  listSnapshots(world: World): Promise<SnapshotSummary[]> {
    return this.snapshots.list(world, this.clock.firstDay());
  }

  /** The world as the snapshot holds it, clock and conditions too; its time rules have run for the date it brings back when this answers. */
  async restoreSnapshot(world: World, snapshotId: string): Promise<SnapshotSummary & { today: string }> {
    const restored = await this.snapshots.restore(world, snapshotId, this.clock.firstDay());
    await this.clock.enter(world);
    return { ...restored, today: this.clock.today(world) };
  }

  deleteSnapshot(world: World, snapshotId: string): Promise<void> {
    return this.snapshots.delete(world, snapshotId);
  }

  /** Sets the date, then lets every time rule catch up at once instead of on the next read. */
  async setClock(world: World, today: string): Promise<{ today: string }> {
    if (!isDateOnly(today)) throw new FormatError('today', 'today must be a date YYYY-MM-DD');
    return this.moveClock(world, () => today, 'today');
  }

  /** Moves the date on by `days`; the calendar of the sandbox ends with year 9999, as `YYYY-MM-DD` does. */
  async advanceClock(world: World, days: number): Promise<{ today: string }> {
    return this.moveClock(
      world,
      (today) => {
        const next = addDays(today, days);
        if (!isDateOnly(next)) throw new FormatError('days', `the clock cannot move past 9999-12-31 (it is ${today})`);
        return next;
      },
      'days',
    );
  }

  /**
   * The time rules (expiry, execution) have run for the world's new date when the move answers. A
   * move is bounded up front, from the date it stands at now (`field` names it in the refusal).
   */
  private async moveClock(world: World, to: (today: string) => string, field: string): Promise<{ today: string }> {
    const moved = (from: string, today: string) =>
      this.history.record({
        kind: 'clock',
        resourceId: 'clock',
        fromStatus: from,
        toStatus: today,
        event: 'MOVED',
        ownerId: world.ownerId,
        sandboxDate: today,
      });
    return { today: await this.clock.move(world, to, moved, field) };
  }
}
