import { Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Environment } from '../config/environment';
import { Shared } from '../database/change-feed';
import { FormatError } from '../common/error-catalogue';
import { utcToday } from '../common/dates';
import { Store } from '../database/store';
import type { World } from '../world/world';
import { worldLock } from '../world/world-scope';
import { asClock } from '../common/request-context';
import { SandboxClock } from './sandbox-clock.entity';

/** What runs when a world's date changes, by a move or by the real day changing (docs/scenarios-and-clock.md). */
export type TimeRule = (world: World, today: string) => Promise<void>;

/** How many executions a rule would make for the world's date to become `today`, counted up to `limit` (beyond it, any number above). */
export type TimeCost = (world: World, today: string, limit: number) => Promise<number>;

/**
 * The most executions (payments, instalments) one move of a clock may make: a move is refused up
 * front beyond it, so that none runs for minutes (docs/scenarios-and-clock.md, about 10 s here).
 */
export const MAX_MOVE_EXECUTIONS = 20_000;

/** The worlds whose catch-up an instance remembers at most. */
const MAX_REMEMBERED_WORLDS = 10_000;

/**
 * The only source of "today" for every date rule, one clock a world (docs/security.md, "Worlds"):
 * in AUTH_MODE=strict each client's own, as Stripe's test clocks belong to a test. Until its client
 * sets it, a world's clock reads SANDBOX_DATE, or the real UTC date; once set it stands still at
 * the stored date, across restarts, until moved again. Kept in memory too: today() is on every
 * request's path.
 */
@Injectable()
export class ClockService implements OnModuleInit {
  /** The date each world's client set; absent until one does. */
  private readonly stored: Shared<string | null>;
  private readonly configured: string | undefined;
  private readonly rules: TimeRule[] = [];
  private readonly costs: TimeCost[] = [];
  /** The date each world's time rules last ran for (or run for now): they run again once its today() differs. */
  private readonly caughtUp = new Map<string, { today: string; done: Promise<void> }>();

  constructor(
    config: ConfigService<Environment, true>,
    private readonly store: Store,
  ) {
    this.configured = config.get('SANDBOX_DATE', { infer: true });
    this.stored = store.shared(
      'clock',
      async (world) => (await store.findByKey(SandboxClock, world))?.today,
      async () => (await store.read(SandboxClock).find()).map(({ world, today }) => [world, today]),
      null,
      { keyedByWorld: true },
    );
  }

  onModuleInit(): Promise<void> {
    return this.stored.reloadAll();
  }

  /**
   * Once a request's world is known (RequestGuard; the dashboard and the cockpit by their
   * session), before anything reads it: its clock as stored, where instances on one database move
   * one clock (docs/operations.md), then its time rules, once for each new date.
   */
  async enter(world: World): Promise<void> {
    await this.stored.fresh(world.key);
    await this.catchUp(world);
  }

  today(world: World): string {
    return this.stored.get(world.key) ?? this.firstDay();
  }

  /** Where a new world's clock stands: SANDBOX_DATE, or the real UTC date. */
  firstDay(): string {
    return this.configured ?? utcToday();
  }

  /** Registers a rule that catches up with a world's date: expiry, execution of what fell due; `cost`, where its work grows with the move. */
  whenTimeMoves(rule: TimeRule, cost?: TimeCost): void {
    this.rules.push(rule);
    if (cost) this.costs.push(cost);
  }

  /** 400 naming `field` when moving the world's clock to `today` would make more than MAX_MOVE_EXECUTIONS executions. */
  private async assertBounded(world: World, today: string, field: string): Promise<void> {
    let cost = 0;
    for (const rule of this.costs) cost += await rule(world, today, MAX_MOVE_EXECUTIONS - cost);
    if (cost > MAX_MOVE_EXECUTIONS) {
      throw new FormatError(
        field,
        `a move of the clock may execute at most ${MAX_MOVE_EXECUTIONS} payments and instalments; this one, to ${today}, would execute more: move it in steps`,
      );
    }
  }

  /**
   * Runs the time rules once for the world's date, before the request that first sees it is
   * answered: after a move of its clock, or when the real date changes under a clock that follows
   * it. The world's requests that arrive meanwhile wait for the same run, no other world's; a
   * failed run is tried again by the next request.
   */
  private catchUp(world: World): Promise<void> {
    const today = this.today(world);
    const caughtUp = this.caughtUp.get(world.key);
    if (caughtUp?.today === today) return caughtUp.done;
    // The clock's doing, whichever request it runs under (docs/events.md).
    const done = asClock(() => this.rules.reduce((previous, rule) => previous.then(() => rule(world, today)), Promise.resolve()));
    // Worlds come and go (a CI worker's lives minutes): what the gone ones left is dropped with the rest now and then, and a world's next request catches up again, finding nothing to do.
    if (this.caughtUp.size >= MAX_REMEMBERED_WORLDS) this.caughtUp.clear();
    this.caughtUp.set(world.key, { today, done });
    done.catch(() => {
      if (this.caughtUp.get(world.key)?.done === done) this.caughtUp.delete(world.key);
    });
    return done;
  }

  /**
   * Moves the world's clock from the date it stands at inside the write, not at the request:
   * concurrent moves add up (150 one-day advances move it 150 days) instead of overwriting each
   * other. `to` may throw a DomainError to refuse the move; nothing is then stored. The move is
   * bounded (assertBounded, `field` naming it) in the same write, under the clock's row lock, from
   * what is pending when it really starts: moves sent at once are bounded one after the other, not
   * each from the date they all saw. `moved` runs in the same write (the event history). The time
   * rules have run for the new date when it resolves.
   */
  async move(
    world: World,
    to: (today: string) => string,
    moved: (from: string, to: string) => Promise<void>,
    field: string,
  ): Promise<string> {
    const today = await this.store.write(async () => {
      // The world's lock first: a reset or restore deletes and puts back the clock's row.
      await this.store.lock(worldLock(world));
      // The row exists before it is locked, so that two first moves cannot both insert it.
      await this.store.insertIfAbsent(SandboxClock, { world: world.key, today: this.firstDay() });
      const row = await this.store.findForUpdate(SandboxClock, { world: world.key });
      const next = to(row!.today);
      await this.assertBounded(world, next, field);
      await this.store.change(SandboxClock).update({ world: world.key }, { today: next });
      await moved(row!.today, next);
      await this.store.announce(this.stored, world.key, next);
      return next;
    });
    await this.enter(world);
    return today;
  }
}
