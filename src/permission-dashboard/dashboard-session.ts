import { Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { CookieOptions, Request, Response } from 'express';
import type { Environment } from '../config/environment';
import { Store } from '../database/store';
import { EndedSessions } from '../oauth/sign-ins';
import { World } from '../world/world';
import { Sealer, sharedSecret } from '../sca/page-security';
import { pageCookie } from '../http/page-headers';

const COOKIE = 'psd2-sandbox-dashboard';
/** As an online-banking session: signed out after a quarter of an hour (real time). */
const LIFETIME_MS = 15 * 60 * 1000;

/** Who is signed in, and in which client's world (docs/security.md, "Worlds"). */
export interface DashboardSession {
  psuId: string;
  world: World;
}

/**
 * The holder's session on the permission dashboard (docs/permission-dashboard.md): after the sign-in
 * with PSU ID and password, a cookie naming the PSU and the world until it expires, signed with a
 * secret every instance shares, so it cannot be forged or moved to another PSU or client. It holds
 * no password. In AUTH_MODE=strict the world comes from a client's ticket (WorldTickets): a
 * fixture PSU's public password opens that client's world only.
 */
@Injectable()
export class DashboardSessions implements OnModuleInit {
  private sealer: Sealer;

  private readonly strict: boolean;

  private readonly cookie: CookieOptions;

  constructor(
    private readonly store: Store,
    private readonly ended: EndedSessions,
    config: ConfigService<Environment, true>,
  ) {
    this.strict = config.get('AUTH_MODE', { infer: true }) === 'strict';
    this.cookie = pageCookie('/dashboard', config.get('PUBLIC_BASE_URL', { infer: true }));
  }

  async onModuleInit(): Promise<void> {
    this.sealer = new Sealer(await sharedSecret(this.store, 'dashboard-session'));
  }

  open({ psuId, world }: DashboardSession, response: Response): void {
    response.cookie(COOKIE, this.sealer.sealed([psuId, world.key], LIFETIME_MS), { ...this.cookie, maxAge: LIFETIME_MS });
  }

  /** Signs out: the cookie is cleared, and worthless on every instance from now on, should it be sent again (docs/security.md, "Sessions end"). */
  async close(request: Request, response: Response): Promise<void> {
    const value: unknown = request.cookies?.[COOKIE];
    if (typeof value === 'string' && this.sealer.opened(value)) await this.ended.end(value, new Date(Date.now() + LIFETIME_MS));
    response.clearCookie(COOKIE, this.cookie);
  }

  /** The signed-in PSU and their world; null without a session, or with an expired, tampered or ended one. */
  async sessionOf(request: Request): Promise<DashboardSession | null> {
    const value: unknown = request.cookies?.[COOKIE];
    const [psuId, key] = (typeof value === 'string' && this.sealer.opened(value)) || [];
    if (!psuId || key === undefined) return null;
    if (this.strict !== (key !== '')) return null; // a session of the other mode's worlds
    if (await this.ended.isEnded(value as string)) return null;
    return { psuId, world: key === '' ? World.open : World.ofClient(key) };
  }
}
