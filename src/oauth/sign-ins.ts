import { Injectable } from '@nestjs/common';
import { LessThanOrEqual } from 'typeorm';
import { DomainError, detail } from '../common/error-catalogue';
import { Store } from '../database/store';
import { sha256 } from './credentials';
import { EndedSession, SignInFailures } from './sign-in.entity';

/** Failed sign-ins allowed in a window, and the window (real time): an online bank's usual lockout (docs/security.md, "Guessing is bounded"). */
export const MAX_FAILED_SIGN_INS = 5;
const WINDOW_MS = 15 * 60 * 1000;

/** 429 with Retry-After: the window of failed sign-ins is not over. */
export class TooManySignIns extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super(detail('tooManySignIns', `${MAX_FAILED_SIGN_INS} failed sign-ins from this address: try again in ${retryAfterSeconds} s`));
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

/**
 * Bounds the guessing of secrets at every sign-in (the token endpoint, the cockpit, the permission
 * dashboard): per subject (a client, a world's PSU) and address, the sixth failure within 15
 * minutes and every attempt after it until the window ends are refused before the secret is
 * checked, so a right guess then tells nothing. Kept in the database: every instance counts the same.
 * Keyed by the address too, so that another client cannot lock a client out from elsewhere.
 */
@Injectable()
export class SignInThrottle {
  constructor(private readonly store: Store) {}

  /** Runs `attempt` unless the window of `subject` (what signs in and from where) refuses it; a refusal `failed` says is a failed sign-in counts, a success clears the count. */
  async attempt<T>(subject: string, attempt: () => Promise<T>, failed: (error: unknown) => boolean): Promise<T> {
    const key = sha256(subject);
    const counted = await this.store.read(SignInFailures).findOneBy({ key });
    const refused = counted && this.lockedFor(counted);
    if (refused) throw new TooManySignIns(refused);
    let value: T;
    try {
      value = await attempt();
    } catch (error) {
      if (!failed(error)) throw error;
      const locked = await this.count(key);
      throw locked ? new TooManySignIns(locked) : error;
    }
    if (counted) await this.store.write(() => this.store.change(SignInFailures).delete({ key }));
    return value;
  }

  /** One more failure in the window (a new window when the last is over); past the bound (failures that raced the check), the seconds it is locked for, else 0. */
  private count(key: string): Promise<number> {
    const now = Date.now();
    return this.store.write(async () => {
      await this.store.lock(`sign-in:${key}`);
      const row = await this.store.read(SignInFailures).findOneBy({ key });
      const next: SignInFailures =
        row && Date.parse(row.windowEndsAt) > now
          ? { ...row, failures: row.failures + 1 }
          : { key, failures: 1, windowEndsAt: new Date(now + WINDOW_MS).toISOString() };
      await this.store.change(SignInFailures).save(next);
      // Housekeeping: windows that are over count nothing.
      await this.store.change(SignInFailures).delete({ windowEndsAt: LessThanOrEqual(new Date(now).toISOString()) });
      return next.failures > MAX_FAILED_SIGN_INS ? this.lockedFor(next) : 0;
    });
  }

  /** Seconds until the window ends, when it holds the bound of failures; else 0. */
  private lockedFor({ failures, windowEndsAt }: SignInFailures): number {
    const left = Date.parse(windowEndsAt) - Date.now();
    return failures >= MAX_FAILED_SIGN_INS && left > 0 ? Math.ceil(left / 1000) : 0;
  }
}

/**
 * Sessions their holder signed out of (the permission dashboard's cookie, the cockpit's token):
 * refused on every instance from then on, until they would have expired anyway.
 */
@Injectable()
export class EndedSessions {
  constructor(private readonly store: Store) {}

  async end(session: string, expiresAt: Date): Promise<void> {
    const now = new Date().toISOString();
    await this.store.write(async () => {
      await this.store.insertIfAbsent(EndedSession, { sessionHash: sha256(session), expiresAt: expiresAt.toISOString() });
      await this.store.change(EndedSession).delete({ expiresAt: LessThanOrEqual(now) });
    });
  }

  isEnded(session: string): Promise<boolean> {
    return this.store.read(EndedSession).existsBy({ sessionHash: sha256(session) });
  }
}
