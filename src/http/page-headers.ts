import { createHash } from 'node:crypto';
import type { CookieOptions } from 'express';
import helmet from 'helmet';

/**
 * Security headers of a server-rendered page (the SCA pages, the cockpit): nothing but the page's
 * own inline stylesheet may load, no script runs, no other site may frame it. `form-action` stays
 * open: an SCA form posts to the page itself, which then redirects to the TPP's registered
 * address, a redirect that browsers check against form-action too.
 */
export const htmlPageHeaders = (style: string) =>
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        styleSrc: [`'sha256-${createHash('sha256').update(style).digest('base64')}'`],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
  });

/**
 * A cookie of the server-rendered pages (the SCA pages' CSRF token, the dashboard's session, the
 * cockpit's token): for `path` only, never read by a script or sent from another site, and sent
 * over https only where the sandbox is served so (`PUBLIC_BASE_URL`; docs/security.md).
 */
export const pageCookie = (path: string, publicBaseUrl: string): CookieOptions => ({
  path,
  httpOnly: true,
  sameSite: 'strict',
  secure: publicBaseUrl.startsWith('https:'),
});
