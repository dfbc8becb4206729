import { Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Environment } from '../config/environment';
import { Shared } from '../database/change-feed';
import { Store } from '../database/store';
import { asClock } from '../http/request-context';
import { SandboxClock } from './sandbox-clock.entity';

const ROW = 1;
const DAY_MS = 86_400_000;

/** The real UTC date, formatted again only when the day changes: a request asks for it several times. */
let realDay = { start: 0, date: '' };
function utcToday(): string {
  const now = Date.now();
  if (now < realDay.start || now >= realDay.start + DAY_MS) {
    const start = now - (now % DAY_MS);
    realDay = { start, date: new Date(start).toISOString().slice(0, 10) };
  }
  return realDay.date;
}

/** What runs when the date changes, by a move or by the real day changing (docs/scenarios-and-clock.md). */
export type TimeRule = (today: string) => Promise<void>;

/**
 * The only source of "today" for every date rule. Until a TPP sets the clock it reads
 * SANDBOX_DATE, or the real UTC date; once set it stands still at the stored date, across
 * restarts, until moved again. Kept in memory too: today() is on every request's path.
 */
@Injectable()
export class ClockService implements OnModuleInit {
  /** The date a TPP set, null until one does. */
  private readonly stored: Shared<string | null>;
  private readonly configured: string | undefined;
  private readonly rules: TimeRule[] = [];
  /** The date the time rules last ran for (or run for now): they run again once today() differs. */
  private caughtUp: { today: string; done: Promise<void> } | null = null;

  constructor(
    config: ConfigService<Environment, true>,
    private readonly store: Store,
  ) {
    this.configured = config.get('SANDBOX_DATE', { infer: true });
    this.stored = store.shared('clock', async () => (await store.findByKey(SandboxClock, ROW))?.today ?? null, null);
  }

  onModuleInit(): Promise<void> {
    return this.stored.reload();
  }

  /** Before each request (ClockCatchUp): where instances share the database, a move on another holds here at once. */
  refresh(): Promise<void> {
    return this.stored.fresh();
  }

  today(): string {
    return this.stored.current ?? this.configured ?? utcToday();
  }

  /** Registers a rule that catches up with the date: expiry, execution of what fell due. */
  whenTimeMoves(rule: TimeRule): void {
    this.rules.push(rule);
  }

  /**
   * Runs the time rules once for today's date, before the request that first sees it is
   * answered (ClockCatchUp): after a move of the clock, or when the real date changes under a
   * clock that follows it. Requests that arrive meanwhile wait for the same run; a failed run
   * is tried again by the next request.
   */
  catchUp(): Promise<void> {
    const today = this.today();
    if (this.caughtUp?.today !== today) {
      // The clock's doing, whichever request it runs under (docs/events.md).
      const done = asClock(() => this.rules.reduce((previous, rule) => previous.then(() => rule(today)), Promise.resolve()));
      this.caughtUp = { today, done };
      done.catch(() => {
        if (this.caughtUp?.done === done) this.caughtUp = null;
      });
    }
    return this.caughtUp.done;
  }

  /**
   * Moves the clock from the date it stands at inside the write, not at the request: concurrent
   * moves add up (150 one-day advances move it 150 days) instead of overwriting each other.
   * `to` may throw a DomainError to refuse the move; nothing is then stored. `moved` runs in the
   * same write (the event history). The time rules have run for the new date when it resolves.
   */
  async move(to: (today: string) => string, moved: (from: string, to: string) => Promise<void>): Promise<string> {
    const today = await this.store.write(async () => {
      // The row exists before it is locked, so that two first moves cannot both insert it.
      await this.store.insertIfAbsent(SandboxClock, { id: ROW, today: this.configured ?? utcToday() });
      const row = await this.store.findForUpdate(SandboxClock, { id: ROW });
      const next = to(row!.today);
      await this.store.change(SandboxClock).update({ id: ROW }, { today: next });
      await moved(row!.today, next);
      await this.store.announce(this.stored, next);
      return next;
    });
    await this.refresh();
    await this.catchUp();
    return today;
  }
}
