import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { doubleCsrf, DoubleCsrfUtilities } from 'csrf-csrf';
import type { Request, Response } from 'express';
import helmet from 'helmet';
import { Environment } from '../config/environment';
import { PAGE_STYLE } from './sca-pages';

/** The form field that carries the CSRF token. */
export const CSRF_FIELD = '_csrf';

/** A query or form value as the pages use it: a repeated or missing one counts as empty. */
export const formValue = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Security headers of the SCA pages: nothing but the page's own stylesheet may load, no script
 * runs, no other site may frame the page (it asks for a password). `form-action` stays open: the
 * form posts to the page itself, which then redirects to the TPP's registered address, a redirect
 * that browsers check against form-action too.
 */
export const pageHeaders = () =>
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        styleSrc: [`'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
  });

/**
 * Double-submit CSRF tokens bound to the page's path and the consent or payment it decides on, so
 * a token from one page cannot approve another. The secret lives as long as the process: a form
 * left open across a restart asks the holder to submit again.
 */
@Injectable()
export class PageCsrf {
  private readonly csrf: DoubleCsrfUtilities;

  constructor(config: ConfigService<Environment, true>) {
    const secret = randomBytes(32).toString('hex');
    this.csrf = doubleCsrf({
      getSecret: () => secret,
      getSessionIdentifier: (request) => `${request.path}|${request.method === 'POST' ? formValue(request.body?.id) : formValue(request.query.consent_id ?? request.query.payment_id)}`,
      cookieName: 'psd2-sandbox-csrf',
      cookieOptions: { path: '/sca', sameSite: 'strict', httpOnly: true, secure: config.get('PUBLIC_BASE_URL', { infer: true }).startsWith('https:') },
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
