import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import type { Request } from 'express';
import { FormatError } from '../common/error-catalogue';
import { booleanHeader } from '../http/sca-headers.decorator';
import type { VopRequest } from './verification-of-payee.service';

/** Client-VOP-Requested and Client-VOP-Request-ID of a payment initiation (docs/verification-of-payee.md); a malformed one is 400 before anything is stored. */
export function vopRequestOf(request: Request): VopRequest {
  const requestId = request.header('Client-VOP-Request-ID');
  if (requestId !== undefined && !isUUID(requestId))
    throw new FormatError('Client-VOP-Request-ID', 'Client-VOP-Request-ID must be the X-Request-ID (a UUID) of an earlier payee check');
  return { requested: booleanHeader(request, 'Client-VOP-Requested'), requestId: requestId ?? null };
}

export const ApiVopRequestHeaders = (): MethodDecorator =>
  applyDecorators(
    ApiHeader({
      name: 'Client-VOP-Requested',
      required: false,
      schema: { type: 'boolean' },
      description:
        "true: check the creditor's name against the account's registered one (Verification of Payee); the profile may check every payment",
    }),
    ApiHeader({
      name: 'Client-VOP-Request-ID',
      required: false,
      schema: { type: 'string', format: 'uuid' },
      description:
        'the X-Request-ID of an earlier dedicated payee check of this client for the creditor: asks for the check as well; 400 when there is none',
    }),
  );
