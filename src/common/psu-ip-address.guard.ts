import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { isIP } from 'class-validator';
import type { Request } from 'express';
import { FormatError } from './error-catalogue';

/** 400 FORMAT_ERROR unless the PSU-IP-Address header holds an IP address. */
export function assertPsuIpAddress(value: string | undefined): void {
  if (!isIP(value ?? '')) throw new FormatError('PSU-IP-Address', "PSU-IP-Address must be the IP address of the account holder's device");
}

/** The Berlin Group yaml makes PSU-IP-Address mandatory where this guard is applied (payment initiation). */
@Injectable()
export class PsuIpAddressGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    assertPsuIpAddress(context.switchToHttp().getRequest<Request>().header('psu-ip-address'));
    return true;
  }
}

export const RequiresPsuIpAddress = (): MethodDecorator =>
  applyDecorators(
    UseGuards(PsuIpAddressGuard),
    ApiHeader({ name: 'PSU-IP-Address', required: true, description: "IP address of the account holder's device", example: '192.0.2.10' }),
  );
