import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { CookieOptions, Request, Response } from 'express';
import type { Environment } from '../config/environment';
import { Store } from '../database/store';
import { EndedSessions } from '../oauth/sign-ins';
import { World } from '../world/world';
import { sharedSecret } from '../sca/page-security';

const COOKIE = 'psd2-sandbox-dashboard';
/** As an online-banking session: signed out after a quarter of an hour (real time). */
const LIFETIME_MS = 15 * 60 * 1000;

/** How long a client's link to the dashboard opens a sign-in (AUTH_MODE=strict): long enough to paste it into a browser. */
const TICKET_LIFETIME_MS = 60 * 60 * 1000;

/** Who is signed in, and in which client's world (docs/security.md, "Worlds"). */
export interface DashboardSession {
  psuId: string;
  world: World;
}

/**
 * The holder's session on the permission dashboard (docs/permission-dashboard.md): after the sign-in
 * with PSU ID and password, a cookie naming the PSU and the world until it expires, signed with a
 * secret every instance shares, so it cannot be forged or moved to another PSU or client. It holds
 * no password. In AUTH_MODE=strict the world comes from a ticket a client asks for with its token
 * (`ticket`), signed the same way: a fixture PSU's public password opens that client's world only.
 */
@Injectable()
export class DashboardSessions implements OnModuleInit {
  private secret: string;

  private readonly strict: boolean;

  constructor(
    private readonly store: Store,
    private readonly ended: EndedSessions,
    private readonly config: ConfigService<Environment, true>,
  ) {
    this.strict = config.get('AUTH_MODE', { infer: true }) === 'strict';
  }

  async onModuleInit(): Promise<void> {
    this.secret = await sharedSecret(this.store, 'dashboard-session');
  }

  open({ psuId, world }: DashboardSession, response: Response): void {
    response.cookie(COOKIE, this.sealed([psuId, world.key], LIFETIME_MS), { ...this.options(), maxAge: LIFETIME_MS });
  }

  /** A client's ticket to its world's dashboard (AUTH_MODE=strict), for the sign-in form to carry. */
  ticket(world: World): string {
    return this.sealed(['ticket', world.key], TICKET_LIFETIME_MS);
  }

  /** The world a ticket opens: the open world in AUTH_MODE=open (no ticket needed); null for none, an expired or a forged one. */
  worldOf(ticket: string): World | null {
    if (!this.strict) return World.open;
    const [kind, key] = this.opened(ticket) ?? [];
    return kind === 'ticket' && key ? World.ofClient(key) : null;
  }

  /** Signs out: the cookie is cleared, and worthless on every instance from now on, should it be sent again (docs/security.md, "Sessions end"). */
  async close(request: Request, response: Response): Promise<void> {
    const value: unknown = request.cookies?.[COOKIE];
    if (typeof value === 'string' && this.opened(value)) await this.ended.end(value, new Date(Date.now() + LIFETIME_MS));
    response.clearCookie(COOKIE, this.options());
  }

  /** The signed-in PSU and their world; null without a session, or with an expired, tampered or ended one. */
  async sessionOf(request: Request): Promise<DashboardSession | null> {
    const value: unknown = request.cookies?.[COOKIE];
    const [psuId, key] = (typeof value === 'string' && this.opened(value)) || [];
    if (!psuId || key === undefined) return null;
    if (this.strict !== (key !== '')) return null; // a session of the other mode's worlds
    if (await this.ended.isEnded(value as string)) return null;
    return { psuId, world: key === '' ? World.open : World.ofClient(key) };
  }

  /** `parts`, each base64url-encoded, an expiry and their signature, dot-separated. */
  private sealed(parts: string[], lifetimeMs: number): string {
    const payload = [...parts.map((part) => Buffer.from(part).toString('base64url')), Date.now() + lifetimeMs].join('.');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The parts of a sealed value, if its signature holds and it has not expired. */
  private opened(value: string): string[] | null {
    const fields = value.split('.');
    const [expires, signature] = fields.slice(-2);
    if (fields.length < 3 || !signature) return null;
    const expected = Buffer.from(this.sign(fields.slice(0, -1).join('.')));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected) || !(Number(expires) >= Date.now())) return null;
    return fields.slice(0, -2).map((part) => Buffer.from(part, 'base64url').toString());
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }

  private options(): CookieOptions {
    return {
      path: '/dashboard',
      httpOnly: true,
      sameSite: 'strict',
      secure: this.config.get('PUBLIC_BASE_URL', { infer: true }).startsWith('https:'),
    };
  }
}
