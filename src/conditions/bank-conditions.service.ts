import { CanActivate, Injectable, OnModuleInit } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { FormatError, refusal } from '../common/error-catalogue';
import { Shared } from '../database/change-feed';
import { Store } from '../database/store';
import { requestWorld, type World, type WorldRequest } from '../world/world';
import { BankConditions } from './bank-conditions.entity';

/** The longest a test may make the bank take to answer, in milliseconds. */
export const MAX_DELAY_MS = 10_000;

export type Conditions = Pick<BankConditions, 'maintenance' | 'delayMs'>;

const IN_SERVICE: Conditions = { maintenance: false, delayMs: 0 };

const conditionsOf = ({ maintenance, delayMs }: Conditions): Conditions => ({ maintenance, delayMs });

/**
 * The failures a test switches on for the whole interface of its world (docs/failures.md):
 * maintenance (503) and a slow bank, each client its own in AUTH_MODE=strict (docs/security.md,
 * "Worlds"). Kept in memory, and every instance on the database reads a change at once, as of the clock.
 */
@Injectable()
export class BankConditionsService implements OnModuleInit {
  private readonly current: Shared<Conditions>;

  constructor(private readonly store: Store) {
    this.current = store.shared(
      'conditions',
      async (world) => {
        const row = await store.findByKey(BankConditions, world);
        return row ? conditionsOf(row) : undefined;
      },
      async () => (await store.read(BankConditions).find()).map((row) => [row.world, conditionsOf(row)]),
      IN_SERVICE,
      { keyedByWorld: true },
    );
  }

  onModuleInit(): Promise<void> {
    return this.current.reloadAll();
  }

  get(world: World): Conditions {
    return { ...this.current.get(world.key) };
  }

  async set(world: World, conditions: Conditions): Promise<Conditions> {
    const changed = conditionsOf(conditions);
    await this.store.write(async () => {
      await this.store.insertIfAbsent(BankConditions, { ...IN_SERVICE, world: world.key });
      await this.store.change(BankConditions).update({ world: world.key }, changed);
      await this.store.announce(this.current, world.key, changed);
    });
    return this.get(world);
  }

  /**
   * Before every /v1 request, once its world is known: the delay (the request's X-Sandbox-Delay,
   * else the world's), then 503 while in maintenance (the world's, or the request's X-Sandbox-Maintenance).
   */
  async admit(request: WorldRequest): Promise<void> {
    const world = requestWorld(request);
    await this.current.fresh(world.key);
    const { delayMs, maintenance } = this.current.get(world.key);
    const delay = delayOf(request.header('x-sandbox-delay')) ?? delayMs;
    if (delay > 0) await sleep(delay);
    if (maintenance || request.header('x-sandbox-maintenance') === 'true') {
      throw refusal('maintenance', 'the bank is in maintenance, try again later');
    }
  }
}

function delayOf(value: string | undefined): number | null {
  if (value === undefined) return null;
  const delay = Number(value);
  if (!/^\d+$/.test(value) || delay > MAX_DELAY_MS)
    throw new FormatError('X-Sandbox-Delay', `X-Sandbox-Delay must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`);
  return delay;
}

/** The guard of every /v1 route after the one that finds its world (Xs2aController). */
@Injectable()
export class BankConditionsGuard implements CanActivate {
  constructor(private readonly conditions: BankConditionsService) {}

  async canActivate(context: Parameters<CanActivate['canActivate']>[0]): Promise<boolean> {
    await this.conditions.admit(context.switchToHttp().getRequest<WorldRequest>());
    return true;
  }
}
