import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { isIP, isUUID } from 'class-validator';
import type { Request } from 'express';
import { FormatError } from '../common/error-catalogue';
import type { WorldRequest } from '../world/world';
import { TokenService } from '../oauth/token.service';
import { ClockService } from '../clock/clock.service';
import { CertificateClients } from '../tpp-identity/certificate-clients';
import { BankProfile } from '../profile/bank-profile';
import { Checks, RequestChecks, Stores } from './request-checks';
import { answerFormat, JSON_ONLY } from './answer-format';
import { XML_MEDIA_TYPES } from './xml';
import { WorldQuota } from '../database/world-quota';
import { IdleWorlds } from '../oauth/idle-worlds';
import { AnswerMemo } from '../common/answer-memo';

/** The one guard of every TPP route: finds the request's world by its token (or its certificate) and enters it (its clock), then checks its headers and body type. */
@Injectable()
export class RequestGuard implements CanActivate {
  constructor(
    private readonly tokens: TokenService,
    private readonly certificates: CertificateClients,
    private readonly clock: ClockService,
    private readonly profile: BankProfile,
    private readonly reflector: Reflector,
    private readonly quota: WorldQuota,
    private readonly idle: IdleWorlds,
  ) {}

  /** Each route's checks, its controller's and its own merged, and whether it stores, by handler and controller: read once, as decorators do not change. */
  private readonly routes = new AnswerMemo<{ checks: Partial<RequestChecks>; stores: boolean }>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { checks, stores } = this.routeOf(context);
    const request = context.switchToHttp().getRequest<WorldRequest>();
    const bearer = checks.token === 'strictOnly' ? 'strictOnly' : this.profile.tpp.oauth;
    const byToken = await this.tokens.worldOf(request.header('authorization'), bearer);
    request.worldByToken = byToken !== null;
    request.world = byToken ?? (await this.certificates.worldOf(request));
    if (request.world.clientId !== null) await this.idle.used(request.world.clientId);
    await this.clock.enter(request.world);
    if (checks.requestId && !isUUID(request.header('x-request-id') ?? '')) {
      throw new FormatError('X-Request-ID', 'X-Request-ID must be a UUID');
    }
    assertBodyType(request, checks.body ?? 'application/json');
    if (!checks.ownFormats) answerFormat(request, JSON_ONLY);
    if (checks.psuIpAddress) assertPsuIpAddress(request.header('psu-ip-address'));
    if (stores) await this.quota.assertRoom(request.world);
    return true;
  }

  private routeOf(context: ExecutionContext): { checks: Partial<RequestChecks>; stores: boolean } {
    const [controller, handler] = [context.getClass(), context.getHandler()];
    return (
      this.routes.recall(handler, controller.name) ??
      this.routes.keep(handler, controller.name, {
        checks: this.reflector.getAllAndMerge(Checks, [controller, handler]),
        stores: this.reflector.get(Stores, handler) === true,
      })
    );
  }
}

/**
 * A POST or PUT body in another media type than the route reads (curl -d sends a form) is not read
 * at all: name the header, rather than report every field of the body as missing.
 */
function assertBodyType(request: Request, type: 'application/json' | 'application/xml'): void {
  const sent = Number(request.header('content-length')) > 0 || request.header('transfer-encoding') !== undefined;
  const read = type === 'application/json' ? request.is('application/json') : request.is(XML_MEDIA_TYPES);
  if (sent && ['POST', 'PUT'].includes(request.method) && !read) {
    throw new FormatError(
      'Content-Type',
      type === 'application/json'
        ? 'the body must be JSON, sent with Content-Type: application/json'
        : 'the body must be a pain.001 document, sent with Content-Type: application/xml',
    );
  }
}

/** 400 FORMAT_ERROR unless the PSU-IP-Address header holds an IP address. */
export function assertPsuIpAddress(value: string | undefined): void {
  if (!isIP(value ?? '')) throw new FormatError('PSU-IP-Address', "PSU-IP-Address must be the IP address of the account holder's device");
}
