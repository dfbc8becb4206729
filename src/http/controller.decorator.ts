import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { TppErrorResponse } from './error-response.dto';
import { BankConditionsGuard, MAX_DELAY_MS } from '../conditions/bank-conditions.service';
import { TppIdentityGuard } from '../tpp-identity/tpp-identity.guard';
import type { RouteRole } from '../tpp-identity/psd2-statement';
import { Access } from './route-access';
import { RequestGuard } from './request.guard';
import { Checks } from './request-checks';

/**
 * What any operation can answer besides its own: an unreadable request, a body over the limit,
 * a bug, and a database that cannot take a write. Listed before an operation's own answers, which then take precedence.
 */
export const COMMON_ERRORS = [
  ApiResponse({ status: 400, description: 'FORMAT_ERROR: the URL or the body cannot be read', type: TppErrorResponse }),
  ApiResponse({ status: 413, description: 'FORMAT_ERROR: the body is larger than 100 KiB', type: TppErrorResponse }),
  ApiResponse({
    status: 500,
    description: 'INTERNAL_SERVER_ERROR: a fault of the sandbox (a bug: please report it)',
    type: TppErrorResponse,
  }),
  ApiResponse({
    status: 503,
    description: 'SERVICE_UNAVAILABLE: the database is full or unavailable; nothing changed',
    type: TppErrorResponse,
  }),
];

/** An Accept naming no media type the operation answers in: the request guard's 406 on every /v1 and /sandbox route. */
const NOT_ACCEPTABLE = ApiResponse({
  status: 406,
  description: 'REQUESTED_FORMATS_INVALID: the Accept header names no media type the operation answers in (docs/formats.md)',
  type: TppErrorResponse,
});

/**
 * A controller of the bank's XS2A interface: path below /v1 (PIIS consents: /v2), the PSD2 role its
 * routes need (docs/security.md), bearer token and X-Request-ID enforced and documented.
 */
export function Xs2aController(path: string, role: RouteRole, version: 'v1' | 'v2' = 'v1'): ClassDecorator {
  return applyDecorators(
    ...COMMON_ERRORS,
    Controller(`${version}/${path}`),
    Access({ role }),
    Checks({ token: 'always', requestId: true }),
    // The token (or the certificate) first: it names the world (docs/security.md "Worlds"). Then the
    // TPP's certificates, checked before any of the world's conditions answer (docs/tpp-identity.md, docs/failures.md).
    UseGuards(RequestGuard, TppIdentityGuard, BankConditionsGuard),
    ApiBearerAuth(),
    ApiHeader({
      name: 'X-Request-ID',
      required: true,
      description: 'UUID of the request, echoed in the response',
      schema: { type: 'string', format: 'uuid', example: '99391c7e-ad88-49ec-a2ad-99ddcb1f7721' },
    }),
    ApiResponse({ status: 400, description: 'FORMAT_ERROR: a header, parameter or field is missing or malformed', type: TppErrorResponse }),
    ApiResponse({
      status: 401,
      description: 'TOKEN_INVALID: no bearer token (or, in AUTH_MODE=strict, not one the sandbox issued); TOKEN_EXPIRED',
      type: TppErrorResponse,
    }),
    NOT_ACCEPTABLE,
    ApiHeader({
      name: 'X-Sandbox-Delay',
      required: false,
      description: `sandbox trigger: answer after this many milliseconds (0 to ${MAX_DELAY_MS})`,
    }),
    ApiHeader({
      name: 'X-Sandbox-Maintenance',
      required: false,
      description: 'sandbox trigger: true answers 503 SERVICE_UNAVAILABLE, as in maintenance',
    }),
    ApiResponse({
      status: 503,
      description: 'SERVICE_UNAVAILABLE: the database is full or unavailable, or the bank is in maintenance; nothing changed',
      type: TppErrorResponse,
    }),
  );
}

/** The /sandbox controller: no bearer token in AUTH_MODE=open; in strict mode a client acts on its own resources only. */
export function SandboxController(path: string): ClassDecorator {
  return applyDecorators(
    ...COMMON_ERRORS,
    Controller(path),
    Access({ role: null, audience: 'control' }),
    Checks({ token: 'strictOnly' }),
    UseGuards(RequestGuard),
    ApiBearerAuth(),
    // With the empty requirement after it, the token is optional: only AUTH_MODE=strict needs it.
    ApiSecurity({}),
    ApiResponse({ status: 400, type: TppErrorResponse, description: 'FORMAT_ERROR' }),
    ApiResponse({ status: 401, type: TppErrorResponse, description: 'AUTH_MODE=strict only: TOKEN_INVALID, TOKEN_EXPIRED' }),
    NOT_ACCEPTABLE,
  );
}

/** A payment initiation: PSU-IP-Address is mandatory (Berlin Group yaml). */
export const RequiresPsuIpAddress = (): MethodDecorator =>
  applyDecorators(
    Checks({ psuIpAddress: true }),
    ApiHeader({ name: 'PSU-IP-Address', required: true, description: "IP address of the account holder's device", example: '192.0.2.10' }),
  );
