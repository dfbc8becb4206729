import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { CookieOptions, Request, Response } from 'express';
import type { Environment } from '../config/environment';
import { Store } from '../database/store';
import { sharedSecret } from '../sca/page-security';

const COOKIE = 'psd2-sandbox-dashboard';
/** As an online-banking session: signed out after a quarter of an hour (real time). */
const LIFETIME_MS = 15 * 60 * 1000;

/**
 * The holder's session on the permission dashboard (docs/permission-dashboard.md): after the sign-in
 * with PSU ID and password, a cookie naming the PSU until it expires, signed with a secret every
 * instance shares, so it cannot be forged or moved to another PSU. It holds no password.
 */
@Injectable()
export class DashboardSessions implements OnModuleInit {
  private secret: string;

  constructor(
    private readonly store: Store,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  async onModuleInit(): Promise<void> {
    this.secret = await sharedSecret(this.store, 'dashboard-session');
  }

  open(psuId: string, response: Response): void {
    const expires = Date.now() + LIFETIME_MS;
    const payload = `${Buffer.from(psuId).toString('base64url')}.${expires}`;
    response.cookie(COOKIE, `${payload}.${this.sign(payload)}`, { ...this.options(), maxAge: LIFETIME_MS });
  }

  close(response: Response): void {
    response.clearCookie(COOKIE, this.options());
  }

  /** The signed-in PSU; null without a session, or with an expired or tampered one. */
  psuOf(request: Request): string | null {
    const value: unknown = request.cookies?.[COOKIE];
    if (typeof value !== 'string') return null;
    const [psu, expires, signature] = value.split('.');
    if (!psu || !expires || !signature) return null;
    const expected = Buffer.from(this.sign(`${psu}.${expires}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected) || Number(expires) < Date.now()) return null;
    return Buffer.from(psu, 'base64url').toString();
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }

  private options(): CookieOptions {
    return { path: '/dashboard', httpOnly: true, sameSite: 'strict', secure: this.config.get('PUBLIC_BASE_URL', { infer: true }).startsWith('https:') };
  }
}
