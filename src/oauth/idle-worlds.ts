import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { IsNull, LessThan, Not } from 'typeorm';
import { addDays, utcToday } from '../common/dates';
import type { Environment } from '../config/environment';
import { Store } from '../database/store';
import { TppClient } from './client.entity';
import { RegistrationService } from './registration.service';

const HOUR_MS = 60 * 60 * 1000;

/**
 * WORLD_IDLE_DAYS (docs/security.md, "A world's life"): a registered client whose world answered
 * no request for so many days of the calendar (whatever its sandbox clock says) is deleted with its world, as DELETE /register would, at each start
 * and every hour after; the fixture clients never are. A world's use is written at most once a day
 * a client and instance (its first request of the day).
 */
@Injectable()
export class IdleWorlds implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly days: number;
  /** The day each client's use was last written by this instance. */
  private readonly written = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly logger = new Logger(IdleWorlds.name);

  constructor(
    private readonly store: Store,
    private readonly registrations: RegistrationService,
    @Inject(ConfigService) config: ConfigService<Environment, true>,
  ) {
    this.days = config.get('WORLD_IDLE_DAYS', { infer: true });
  }

  /** How many days without a request a registered client's world lasts; 0: for ever. */
  get idleDays(): number {
    return this.days;
  }

  /** The client's world answers a request today. */
  async used(clientId: string): Promise<void> {
    const today = utcToday();
    if (this.days === 0 || this.written.get(clientId) === today) return;
    if (this.written.size >= 100_000) this.written.clear();
    this.written.set(clientId, today);
    await this.store.write(() => this.store.change(TppClient).update({ clientId, registeredAt: Not(IsNull()) }, { lastUsedOn: today }));
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.days === 0) return;
    await this.sweep();
    this.timer = setInterval(() => void this.sweep().catch((error: unknown) => this.logger.error(error)), HOUR_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Deletes every registered client unused for WORLD_IDLE_DAYS, with its world; answers how many. */
  async sweep(): Promise<number> {
    const before = addDays(utcToday(), -this.days);
    const idle = await this.store.read(TppClient).find({
      where: [
        { registeredAt: Not(IsNull()), lastUsedOn: LessThan(before) },
        { registeredAt: LessThan(before), lastUsedOn: IsNull() },
      ],
    });
    for (const client of idle) await this.registrations.delete(client);
    return idle.length;
  }
}
