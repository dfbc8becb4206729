import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LessThanOrEqual } from 'typeorm';
import { detail, OAuthError } from '../common/error-catalogue';
import type { Environment } from '../config/environment';
import { Store } from '../database/store';
import { sha256 } from './credentials';
import { RegistrationWindow } from './sign-in.entity';

const WINDOW_MS = 60 * 60 * 1000;

/**
 * REGISTRATIONS_PER_HOUR (docs/security.md, "Clients register themselves"): an address registers
 * at most so many clients an hour; the next is refused 429 with Retry-After until the hour that
 * began with its first is over. Counted in the database, so every instance counts the same; the
 * address is the one TRUST_PROXY lets the sandbox believe.
 */
@Injectable()
export class RegistrationThrottle {
  private readonly limit: number;

  constructor(
    private readonly store: Store,
    @Inject(ConfigService) config: ConfigService<Environment, true>,
  ) {
    this.limit = config.get('REGISTRATIONS_PER_HOUR', { infer: true });
  }

  /** Inside the write that registers: counts the registration from `address`, or refuses it (and the write with it). */
  async admit(address: string): Promise<void> {
    if (this.limit === 0) return;
    const key = sha256(`register@${address}`);
    const now = Date.now();
    await this.store.lock(`register:${key}`);
    const row = await this.store.read(RegistrationWindow).findOneBy({ key });
    const current = row && Date.parse(row.windowEndsAt) > now ? row : null;
    if (current && current.registrations >= this.limit) {
      const retryAfter = Math.ceil((Date.parse(current.windowEndsAt) - now) / 1000);
      const refused = new OAuthError(
        detail(
          'tooManyRegistrations',
          `${this.limit} clients registered from this address within the hour (REGISTRATIONS_PER_HOUR): try again in ${retryAfter} s, or reuse a client (POST /sandbox/world/reset starts its world afresh)`,
        ),
        'slow_down',
      );
      refused.headers['Retry-After'] = String(retryAfter);
      throw refused;
    }
    await this.store
      .change(RegistrationWindow)
      .save(
        current
          ? { ...current, registrations: current.registrations + 1 }
          : { key, registrations: 1, windowEndsAt: new Date(now + WINDOW_MS).toISOString() },
      );
    // Housekeeping: hours that are over count nothing.
    await this.store.change(RegistrationWindow).delete({ windowEndsAt: LessThanOrEqual(new Date(now).toISOString()) });
  }
}
