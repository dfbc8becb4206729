import { EXAMPLE } from '../common/document-examples';
import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { isURL } from 'class-validator';
import type { Request, Response } from 'express';
import type { ScaApproach } from '../authorisation/authorisation.entity';
import { FormatError } from '../common/error-catalogue';

/** What a request says of the SCA it asks for (Berlin Group headers, docs/sca-approaches.md). */
export interface ScaHeaders {
  /** The approach the TPP prefers; null when it states no preference (the bank's redirect). */
  preferred: ScaApproach | null;
  psuId: string | null;
  redirectUri: string | null;
  nokRedirectUri: string | null;
  /**
   * TPP-Explicit-Authorisation-Preferred: true, the TPP will start the authorisation itself (for a
   * signing basket). Read leniently, as the bank ignores it: only where baskets are offered does it count (requestOf).
   */
  explicitPreferred: boolean;
}

/** A Berlin Group boolean header: "true", "false", or absent. */
export function booleanHeader(request: Request, name: string): boolean | null {
  const value = request.header(name);
  if (value === undefined) return null;
  if (value !== 'true' && value !== 'false') throw new FormatError(name, `${name} must be true or false`);
  return value === 'true';
}

/**
 * The longest value of each header the sandbox stores, as its columns hold it on every engine
 * (docs/security.md, "Bad input"); the served document declares each as its `maxLength`.
 */
const HEADER_MAX_LENGTH = { 'PSU-ID': 64, 'TPP-Redirect-URI': 2048, 'TPP-Nok-Redirect-URI': 2048, 'TPP-Notification-URI': 2000 } as const;
type StoredHeader = keyof typeof HEADER_MAX_LENGTH;

/** A stored header's value, null when absent; longer than its column: 400 FORMAT_ERROR before anything is stored. */
function storedHeader(request: Request, name: StoredHeader): string | null {
  const value = request.header(name);
  if (value === undefined) return null;
  if (value.length > HEADER_MAX_LENGTH[name])
    throw new FormatError(name, `${name} must not be longer than ${HEADER_MAX_LENGTH[name]} characters`);
  return value;
}

/** A stored header as the served document declares it: a string of at most its column's length. */
export const storedHeaderSchema = (name: StoredHeader, format?: 'uri') => ({
  type: 'string' as const,
  ...(format ? { format } : {}),
  maxLength: HEADER_MAX_LENGTH[name],
});

/**
 * A URL header (TPP-Redirect-URI, TPP-Nok-Redirect-URI, TPP-Notification-URI), read by this one
 * function: an absolute http or https URL that Node's URL parser reads too, without credentials
 * (docs/security.md, "Bad input"); null when absent, 400 FORMAT_ERROR otherwise, before anything is stored.
 * An IPv6 zone id (`[fe80::1%25lo]`) is none: WHATWG URL refuses it.
 */
export function uriHeader(request: Request, name: Exclude<StoredHeader, 'PSU-ID'>): string | null {
  const value = storedHeader(request, name);
  if (value === null) return null;
  const refused = (why: string) => new FormatError(name, `${name} must be an absolute http or https URL${why}`);
  if (!isURL(value, { require_protocol: true, require_tld: false, protocols: ['http', 'https'] })) throw refused('');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refused('');
  }
  if (url.username !== '' || url.password !== '') throw refused(' without credentials');
  return value;
}

/**
 * The Berlin Group way to ask for an approach: TPP-Decoupled-Preferred: true asks for decoupled,
 * TPP-Redirect-Preferred: false for embedded, TPP-Redirect-Preferred: true for redirect.
 */
export function preferredApproach(redirectPreferred: boolean | null, decoupledPreferred: boolean | null): ScaApproach | null {
  if (decoupledPreferred === true) return 'DECOUPLED';
  if (redirectPreferred === false) return 'EMBEDDED';
  return redirectPreferred === true ? 'REDIRECT' : null;
}

export const ScaRequestHeaders = createParamDecorator((_: unknown, context: ExecutionContext): ScaHeaders => {
  const request = context.switchToHttp().getRequest<Request>();
  const psuId = storedHeader(request, 'PSU-ID');
  return {
    preferred: preferredApproach(booleanHeader(request, 'TPP-Redirect-Preferred'), booleanHeader(request, 'TPP-Decoupled-Preferred')),
    psuId: psuId || null,
    redirectUri: uriHeader(request, 'TPP-Redirect-URI'),
    nokRedirectUri: uriHeader(request, 'TPP-Nok-Redirect-URI'),
    explicitPreferred: request.header('TPP-Explicit-Authorisation-Preferred') === 'true',
  };
});

/**
 * The ASPSP-SCA-Approach header on an answer to a request that stated a preference, or on an
 * authorisation that is not the bank's redirect. A client that states none sees the bank's
 * answers unchanged: REDIRECT on a created resource (announceCreated), nothing elsewhere.
 */
export function announceApproach(response: Response, headers: ScaHeaders, approach: ScaApproach): void {
  if (headers.preferred !== null || approach !== 'REDIRECT') response.setHeader('ASPSP-SCA-Approach', approach);
}

/** The ASPSP-SCA-Approach response header, as the OpenAPI document lists it on the answers that may carry it. */
export const SCA_APPROACH_HEADER = {
  'ASPSP-SCA-Approach': {
    description: 'the approach in force (REDIRECT, EMBEDDED, DECOUPLED), on answers to a request that stated a preference',
    schema: { type: 'string', enum: ['REDIRECT', 'EMBEDDED', 'DECOUPLED'] },
  },
};

/** The request headers that choose the approach and where the holder goes back to, documented once for every operation that reads them. */
export const ApiScaRequestHeaders = (): MethodDecorator =>
  applyDecorators(
    ApiHeader({
      name: 'TPP-Redirect-URI',
      required: false,
      schema: storedHeaderSchema('TPP-Redirect-URI', 'uri'),
      description: 'where the SCA page sends the account holder back (echoed URL-encoded as redirectBackUrl in scaRedirect)',
    }),
    ApiHeader({
      name: 'TPP-Nok-Redirect-URI',
      required: false,
      schema: storedHeaderSchema('TPP-Nok-Redirect-URI', 'uri'),
      description: 'where the SCA page sends the account holder after a denial or a failure, instead of TPP-Redirect-URI',
    }),
    ApiHeader({
      name: 'TPP-Redirect-Preferred',
      required: false,
      schema: { type: 'boolean' },
      description: 'false: the embedded approach (with SCA_MODE=redirect)',
    }),
    ApiHeader({
      name: 'TPP-Decoupled-Preferred',
      required: false,
      schema: { type: 'boolean' },
      description: 'true: the decoupled approach (with SCA_MODE=redirect)',
    }),
    ApiHeader({
      name: 'PSU-ID',
      required: false,
      schema: storedHeaderSchema('PSU-ID'),
      description: 'the test PSU who authorises (embedded, decoupled)',
      example: EXAMPLE.psuId,
    }),
  );
