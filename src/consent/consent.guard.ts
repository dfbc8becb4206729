import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { requestWorld, type World, type WorldRequest } from '../world/world';
import { AccountService, coverageOf } from './coverage';
import { FormatError, ResourceUnknownError, refusal } from '../common/error-catalogue';
import { TppErrorResponse } from '../http/error-response.dto';
import { Consent } from './consent.entity';
import { ConsentService } from './consent.service';

const SERVICE_KEY = 'consent:service';

type ConsentRequest = WorldRequest & { consent?: Consent };

/**
 * Enforces the Consent-ID header in the order of docs/behaviour.md, "Account information": present, known, valid, and (on
 * routes with an :accountId) covering that account for the service.
 */
@Injectable()
export class ConsentGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly consents: ConsentService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const service = this.reflector.get<AccountService>(SERVICE_KEY, context.getHandler());
    const request = context.switchToHttp().getRequest<ConsentRequest>();
    const consentId = request.header('consent-id');
    if (!consentId) throw new FormatError('Consent-ID', 'the Consent-ID header is required');

    // The bank's message numbers for an expired consent: 004 on transactions, 005 on the account list, details and balances.
    const consent = await this.consents.findValid(
      consentId,
      requestWorld(request),
      'ais',
      service === 'transactions' ? 'transactionsConsentExpired' : 'consentExpired',
    );

    // An account's IBAN is its ID; a card account's service, which knows its masked PAN, checks it (docs/card-accounts.md).
    const accountId = request.params.accountId as string | undefined;
    if (accountId) assertCovered(consent, accountId, service, accountId);
    request.consent = consent;
    return true;
  }
}

/** 404 RESOURCE_UNKNOWN where the consent does not name the account (`key`: its IBAN or masked PAN), 401 CONSENT_INVALID where it does not grant `service` on it. */
export function assertCovered(consent: Consent, key: string, service: AccountService, accountId: string): void {
  const coverage = coverageOf(consent.access, key, service);
  if (coverage === 'notInConsent') throw new ResourceUnknownError(accountId);
  if (coverage === 'serviceNotGranted') {
    throw refusal('serviceNotGranted', `consent ${consent.id} does not grant ${service} on ${accountId}`);
  }
}

/** An account-information operation: needs a valid consent that covers `service` on the addressed account. */
export function RequiresConsent(service: AccountService): MethodDecorator {
  return applyDecorators(
    SetMetadata(SERVICE_KEY, service),
    UseGuards(ConsentGuard),
    ApiHeader({
      name: 'Consent-ID',
      required: true,
      description: 'ID of a valid consent',
      schema: { type: 'string', example: 'e6151d43-dca8-4fe1-b139-3a89bfeb57a2' },
    }),
    ApiHeader({
      name: 'PSU-IP-Address',
      required: false,
      description:
        "the account holder's IP address when they are present; without it the read counts against the consent's frequencyPerDay",
      schema: { type: 'string', example: '192.0.2.10' },
    }),
    ApiResponse({
      status: 401,
      type: TppErrorResponse,
      description:
        "TOKEN_INVALID; CONSENT_EXPIRED; CONSENT_INVALID (consent not valid, or service not granted); CONSENT_UNKNOWN: the consent's frequencyPerDay is used up (the bank's answer)",
    }),
    ApiResponse({ status: 403, type: TppErrorResponse, description: 'CONSENT_UNKNOWN' }),
    ApiResponse({ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: account unknown or not part of the consent' }),
    ApiResponse({
      status: 429,
      type: TppErrorResponse,
      // Listed where the profile answers it so: Berlin Group's answers (error-examples.ts).
      description: "ACCESS_EXCEEDED (XS2A006E): the consent's frequencyPerDay is used up for this account today",
    }),
  );
}

/** The consent ConsentGuard checked, and the PSU-IP-Address sent when the account holder is present. */
export interface AisRequest {
  consent: Consent;
  psuIpAddress: string | undefined;
  /** Whose accounts and cards the request may name (AccountStore.visibleTo). */
  world: World;
}

/** The AisRequest of the request that ConsentGuard let through. */
export const ConsentedRequest = createParamDecorator((_: unknown, context: ExecutionContext): AisRequest => {
  const request = context.switchToHttp().getRequest<ConsentRequest>();
  return { consent: request.consent!, psuIpAddress: request.header('psu-ip-address'), world: requestWorld(request) };
});
