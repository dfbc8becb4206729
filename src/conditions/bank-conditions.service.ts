import { CanActivate, Injectable, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError, FormatError } from '../common/error-catalogue';
import { Store } from '../database/store';
import { BankConditions } from './bank-conditions.entity';

const ROW = 1;

/** The longest a test may make the bank take to answer, in milliseconds. */
export const MAX_DELAY_MS = 10_000;

export type Conditions = Pick<BankConditions, 'maintenance' | 'delayMs'>;

/**
 * The failures a test switches on for the whole interface (docs/failures.md): maintenance (503)
 * and a slow bank. Kept in memory, read again before each request where instances share the
 * database, as the clock is.
 */
@Injectable()
export class BankConditionsService implements OnModuleInit {
  private current: Conditions = { maintenance: false, delayMs: 0 };

  constructor(private readonly store: Store) {}

  async onModuleInit(): Promise<void> {
    await this.refresh();
  }

  async refresh(): Promise<void> {
    const row = await this.store.findByKey(BankConditions, ROW);
    this.current = { maintenance: row?.maintenance ?? false, delayMs: row?.delayMs ?? 0 };
  }

  get(): Conditions {
    return { ...this.current };
  }

  async set(conditions: Conditions): Promise<Conditions> {
    await this.store.write(async () => {
      await this.store.insertIfAbsent(BankConditions, { id: ROW, maintenance: false, delayMs: 0 });
      await this.store.change(BankConditions).update({ id: ROW }, conditions);
    });
    this.current = { ...conditions };
    return this.get();
  }

  /**
   * Before every /v1 request, first of all: the delay (the request's X-Sandbox-Delay, else the
   * bank's), then 503 while in maintenance (the bank's, or the request's X-Sandbox-Maintenance).
   */
  async admit(request: Request): Promise<void> {
    if (this.store.sharedByInstances) await this.refresh();
    const delay = delayOf(request.header('x-sandbox-delay')) ?? this.current.delayMs;
    if (delay > 0) await sleep(delay);
    if (this.current.maintenance || request.header('x-sandbox-maintenance') === 'true') {
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
