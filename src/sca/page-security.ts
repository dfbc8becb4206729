import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { doubleCsrf, DoubleCsrfUtilities } from 'csrf-csrf';
import type { Request, Response } from 'express';
import { formValue } from '../common/html';
import { Environment } from '../config/environment';
import { htmlPageHeaders, pageCookie } from '../http/page-headers';
import { Store } from '../database/store';
import { SandboxSecret } from './sandbox-secret.entity';
import { PAGE_STYLE } from './sca-pages';

/**
 * A secret every instance on the database shares, made by the first that needs it: a page served
 * by one instance posts to any other, and survives a restart.
 */
export async function sharedSecret(store: Store, name: string): Promise<string> {
  return store.write(async () => {
    await store.insertIfAbsent(SandboxSecret, { name, value: randomBytes(32).toString('hex') });
    return (await store.read(SandboxSecret).findOneByOrFail({ name })).value;
  });
}

/** Values a page hands out and takes back, which cannot be forged or outlive their term: signed with a shared secret. */
export class Sealer {
  constructor(private readonly secret: string) {}

  /** `parts`, each base64url-encoded, an expiry and their signature, dot-separated. */
  sealed(parts: string[], lifetimeMs: number): string {
    const payload = [...parts.map((part) => Buffer.from(part).toString('base64url')), Date.now() + lifetimeMs].join('.');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The parts of a sealed value, if its signature holds and it has not expired. */
  opened(value: string): string[] | null {
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
}

/** The form field that carries the CSRF token. */
export const CSRF_FIELD = '_csrf';

/** Security headers of the SCA pages (page-headers.ts): only their own stylesheet. */
export const pageHeaders = () => htmlPageHeaders(PAGE_STYLE);

/**
 * Double-submit CSRF tokens bound to the page's path and the resource it decides on (its `<resource>_id`
 * query parameter: consent_id, payment_id, a service's), so a token from one page cannot approve another. The secret is shared
 * (sharedSecret): a form left open across a restart still submits.
 */
@Injectable()
export class PageCsrf implements OnModuleInit {
  private csrf: DoubleCsrfUtilities;

  constructor(
    private readonly config: ConfigService<Environment, true>,
    private readonly store: Store,
  ) {}

  async onModuleInit(): Promise<void> {
    const secret = await sharedSecret(this.store, 'sca-page-csrf');
    const { config } = this;
    this.csrf = doubleCsrf({
      getSecret: () => secret,
      getSessionIdentifier: (request) =>
        `${request.path}|${formValue(request.method === 'POST' ? request.body?.id : Object.entries(request.query).find(([name]) => name.endsWith('_id'))?.[1])}`,
      cookieName: 'psd2-sandbox-csrf',
      // The SCA pages' and the permission dashboard's forms (docs/permission-dashboard.md).
      cookieOptions: pageCookie('/', config.get('PUBLIC_BASE_URL', { infer: true })),
      getCsrfTokenFromRequest: (request) => formValue(request.body?.[CSRF_FIELD]),
    });
  }

  /** A token for the page being shown; sets the cookie it must match. */
  token(request: Request, response: Response): string {
    return this.csrf.generateCsrfToken(request, response);
  }

  isValid(request: Request): boolean {
    return this.csrf.validateRequest(request);
  }
}
