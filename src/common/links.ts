import { ApiProperty } from '@nestjs/swagger';

export class Href {
  @ApiProperty({ example: '/v1/consents/e6151d43-dca8-4fe1-b139-3a89bfeb57a2' })
  href: string;
}

export const href = (value: string): Href => ({ href: value });

/** An absolute link to our own SCA page, with `redirectBackUrl` only when the TPP sent TPP-Redirect-URI. */
export function scaRedirectHref(baseUrl: string, page: string, query: Record<string, string>, redirectUri?: string): Href {
  const params = { ...query, ...(redirectUri ? { redirectBackUrl: redirectUri } : {}) };
  const search = Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');
  return href(`${baseUrl}/sca/${page}?${search}`);
}
