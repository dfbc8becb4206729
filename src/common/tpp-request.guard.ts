import { applyDecorators, CanActivate, Controller, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiResponse } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import type { Request } from 'express';
import type { OwnedRequest } from '../auth/owner';
import { TokenService } from '../auth/token.service';
import { FormatError } from './error-catalogue';
import { TppErrorResponse } from './error-response.dto';

/** The checks every /v1 request passes before anything else (docs/behaviour.md, "Requests"), and whose data it may see. */
@Injectable()
export class TppRequestGuard implements CanActivate {
  constructor(private readonly tokens: TokenService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<OwnedRequest>();
    request.owner = await this.tokens.ownerOf(request.header('authorization'), true);
    if (!isUUID(request.header('x-request-id') ?? '')) {
      throw new FormatError('X-Request-ID', 'X-Request-ID must be a UUID');
    }
    assertJsonBody(request);
    return true;
  }
}

/**
 * A POST or PUT body in another media type than JSON (curl -d sends a form) is not read at all:
 * name the header, rather than report every field of the body as missing.
 */
export function assertJsonBody(request: Request): void {
  const sent = Number(request.header('content-length')) > 0 || request.header('transfer-encoding') !== undefined;
  if (sent && ['POST', 'PUT'].includes(request.method) && !request.is('application/json')) {
    throw new FormatError('Content-Type', 'the body must be JSON, sent with Content-Type: application/json');
  }
}

/**
 * What any operation can answer besides its own: an unreadable request, a body over the limit,
 * a bug, and a database that cannot take a write. Listed before an operation's own answers, which then take precedence.
 */
export const COMMON_ERRORS = [
  ApiResponse({ status: 400, description: 'FORMAT_ERROR: the URL or the body cannot be read', type: TppErrorResponse }),
  ApiResponse({ status: 413, description: 'FORMAT_ERROR: the body is larger than 100 KiB', type: TppErrorResponse }),
  ApiResponse({ status: 500, description: 'INTERNAL_SERVER_ERROR: a fault of the sandbox (a bug: please report it)', type: TppErrorResponse }),
  ApiResponse({ status: 503, description: 'SERVICE_UNAVAILABLE: the change could not be stored (database full or unavailable); nothing changed', type: TppErrorResponse }),
];

/** A controller of the bank's XS2A interface: path below /v1, bearer token and X-Request-ID enforced and documented. */
export function Xs2aController(path: string): ClassDecorator {
  return applyDecorators(
    ...COMMON_ERRORS,
    Controller(`v1/${path}`),
    UseGuards(TppRequestGuard),
    ApiBearerAuth(),
    ApiHeader({
      name: 'X-Request-ID',
      required: true,
      description: 'UUID of the request, echoed in the response',
      schema: { type: 'string', format: 'uuid', example: '99391c7e-ad88-49ec-a2ad-99ddcb1f7721' },
    }),
    ApiResponse({ status: 400, description: 'FORMAT_ERROR: a header, parameter or field is missing or malformed', type: TppErrorResponse }),
    ApiResponse({ status: 401, description: 'TOKEN_INVALID: no bearer token (or, in AUTH_MODE=strict, not one the sandbox issued); TOKEN_EXPIRED', type: TppErrorResponse }),
  );
}
