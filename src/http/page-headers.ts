import { createHash } from 'node:crypto';
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
