import { CanActivate, Injectable, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError, FormatError } from '../common/error-catalogue';
import { Shared } from '../database/change-feed';
import { Store } from '../database/store';
import { BankConditions } from './bank-conditions.entity';

const ROW = 1;

/** The longest a test may make the bank take to answer, in milliseconds. */
export const MAX_DELAY_MS = 10_000;

export type Conditions = Pick<BankConditions, 'maintenance' | 'delayMs'>;

const IN_SERVICE: Conditions = { maintenance: false, delayMs: 0 };

/**
 * The failures a test switches on for the whole interface (docs/failures.md): maintenance (503)
 * and a slow bank. Kept in memory, and every instance on the database hears a change at once, as
 * of the clock.
 */
@Injectable()
export class BankConditionsService implements OnModuleInit {
  private readonly current: Shared<Conditions>;

  constructor(private readonly store: Store) {
    this.current = store.shared('conditions', async () => {
      const row = await store.findByKey(BankConditions, ROW);
      return row ? { maintenance: row.maintenance, delayMs: row.delayMs } : IN_SERVICE;
    }, IN_SERVICE);
  }

  onModuleInit(): Promise<void> {
    return this.current.reload();
  }

  get(): Conditions {
    return { ...this.current.current };
  }

  async set(conditions: Conditions): Promise<Conditions> {
    const changed = { maintenance: conditions.maintenance, delayMs: conditions.delayMs };
    await this.store.write(async () => {
      await this.store.insertIfAbsent(BankConditions, { ...IN_SERVICE, id: ROW });
      await this.store.change(BankConditions).update({ id: ROW }, changed);
      await this.store.announce(this.current, changed);
    });
    return this.get();
  }

  /**
   * Before every /v1 request, first of all: the delay (the request's X-Sandbox-Delay, else the
   * bank's), then 503 while in maintenance (the bank's, or the request's X-Sandbox-Maintenance).
   */
  async admit(request: Request): Promise<void> {
    await this.current.fresh();
    const { delayMs, maintenance } = this.current.current;
    const delay = delayOf(request.header('x-sandbox-delay')) ?? delayMs;
    if (delay > 0) await sleep(delay);
    if (maintenance || request.header('x-sandbox-maintenance') === 'true') {
      throw new DomainError({ messageId: 'XS2A037E', description: 'the bank is in maintenance, try again later' });
    }
  }
}

function delayOf(value: string | undefined): number | null {
  if (value === undefined) return null;
  const delay = Number(value);
  if (!/^\d+$/.test(value) || delay > MAX_DELAY_MS) throw new FormatError('X-Sandbox-Delay', `X-Sandbox-Delay must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`);
  return delay;
}

/** The first guard of every /v1 route (Xs2aController). */
@Injectable()
export class BankConditionsGuard implements CanActivate {
  constructor(private readonly conditions: BankConditionsService) {}

  async canActivate(context: Parameters<CanActivate['canActivate']>[0]): Promise<boolean> {
    await this.conditions.admit(context.switchToHttp().getRequest<Request>());
    return true;
  }
}
