import { StoresResource } from '../http/request-checks';
import { EXAMPLE } from '../common/document-examples';
import { Body, Delete, Get, HttpCode, Injectable, Param, Post, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiBody, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequestWorld, World } from '../world/world';
import { announceCreated } from '../http/created-resource';
import { CreatesInBerlinGroup } from '../http/berlin-group-answers';
import { TppErrorResponse } from '../http/error-response.dto';
import { scaRedirectHref } from '../common/links';
import { ApiScaRequestHeaders, SCA_APPROACH_HEADER, ScaHeaders, ScaRequestHeaders } from '../http/sca-headers.decorator';
import { Xs2aController } from '../http/controller.decorator';
import { Environment } from '../config/environment';
import {
  ConsentCreatedResponse,
  ConsentResponse,
  ConsentStatusResponse,
  toConsentCreatedResponse,
  toConsentResponse,
} from './dto/consent-response.dto';
import { CreateConsentDto } from './dto/create-consent.dto';
import { ConsentService } from './consent.service';
import type { ConsentPurpose } from './consent.entity';
import { AuthorisationRequest, AuthorisationService } from '../authorisation/authorisation.service';
import type { Authorisation } from '../authorisation/authorisation.entity';
import type { ConsentStatus } from './consent.machine';
import {
  announceNotifications,
  ApiNotificationHeaders,
  NOTIFICATION_HEADERS,
  NotificationHeaders,
  NotificationRequest,
} from '../notifications/notification-headers.decorator';
import { NotificationsService } from '../notifications/notifications.service';
import { BankProfile } from '../profile/bank-profile';

/**
 * The bank answers an explicit account list with its first valid fixture consent (docs/behaviour.md,
 * "Consents"); its body must stay the bank's, so a header tells a TPP what happened.
 */
const FIXTURE_CONSENT_HEADER = 'Sandbox-Fixture-Consent';
/** The header as an answer documents it, `where` it is sent. */
const fixtureConsentHeader = (where: string) => ({
  [FIXTURE_CONSENT_HEADER]: { description: `${where}: \`<Consent-ID>; reason="…"\``, schema: { type: 'string' } },
});
const FIXTURE_DELETED_REASON =
  'a fixture of the bank: as the bank does, DELETE answers 204 and leaves it valid; a consent of your own (availableAccounts) ends as terminatedByTpp';
const FIXTURE_CONSENT_REASON =
  'as the bank does, an explicit account list is answered with its first valid fixture consent: nothing was stored, the fixture keeps its own accounts, validUntil and frequencyPerDay, and DELETE leaves it valid; ask for availableAccounts for a consent of your own';

const CONSENT_UNKNOWN = { status: 403, type: TppErrorResponse, description: 'CONSENT_UNKNOWN' } as const;

/**
 * What the consents of both purposes share (docs/funds-confirmation.md): the answer to a creation,
 * the status and the deletion. Each subclass is one path's controller.
 */
@Injectable() // for its constructor's parameter types, which the subclasses inherit
export abstract class ConsentRoutes {
  protected abstract readonly purpose: ConsentPurpose;

  constructor(
    protected readonly consents: ConsentService,
    private readonly authorisations: AuthorisationService,
    private readonly notifications: NotificationsService,
    private readonly config: ConfigService<Environment, true>,
    private readonly profile: BankProfile,
  ) {}

  /** Creates the consent (`create`, given the authorisation the headers ask for) and answers it with its headers. */
  protected async created(
    create: (
      request: AuthorisationRequest,
    ) => Promise<{ consentId: string; consentStatus: ConsentStatus; authorisation: Authorisation | null; stored: boolean }>,
    headers: ScaHeaders,
    notification: NotificationRequest | null,
    response: Response,
  ): Promise<ConsentCreatedResponse> {
    const request = await this.authorisations.requestOf(headers);
    await this.notifications.admit(notification);
    const { consentId, consentStatus, authorisation, stored } = await create(request);
    announceNotifications(response, notification, stored);
    if (!stored) response.setHeader(FIXTURE_CONSENT_HEADER, `${consentId}; reason="${FIXTURE_CONSENT_REASON}"`);
    const scaRedirect = scaRedirectHref(
      this.config.get('PUBLIC_BASE_URL', { infer: true }),
      'consents',
      { consent_id: consentId },
      headers.redirectUri ?? undefined,
    );
    return announceCreated(
      response,
      request.approach,
      toConsentCreatedResponse(this.purpose, consentId, consentStatus, authorisation, scaRedirect, this.profile.habits, request.explicit),
    );
  }

  @Get(':consentId/status')
  @ApiOperation({ summary: 'Read the status of a consent' })
  @ApiOkResponse({ type: ConsentStatusResponse })
  @ApiResponse(CONSENT_UNKNOWN)
  async status(@Param('consentId') consentId: string, @RequestWorld() world: World): Promise<ConsentStatusResponse> {
    return { consentStatus: (await this.consents.findCurrent(consentId, world, this.purpose)).status };
  }

  @Delete(':consentId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a consent (fixtures answer 204 and stay as they are)' })
  @ApiNoContentResponse({
    description: 'deleted: status terminatedByTpp; a fixture stays as it is',
    headers: fixtureConsentHeader('where the consent is a fixture, which stays valid'),
  })
  @ApiResponse(CONSENT_UNKNOWN)
  @ApiResponse({
    status: 409,
    type: TppErrorResponse,
    description: 'STATUS_INVALID: the consent is already rejected, expired or terminated',
  })
  async delete(
    @Param('consentId') consentId: string,
    @RequestWorld() world: World,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    if ((await this.consents.delete(consentId, world, this.purpose)) === 'fixture')
      response.setHeader(FIXTURE_CONSENT_HEADER, `${consentId}; reason="${FIXTURE_DELETED_REASON}"`);
  }
}

/**
 * One access form a request (Swagger UI would otherwise merge every form into one body): the
 * first is what Try it out sends. validUntil is cut down to the bank's longest validity.
 */
const consentExample = (access: object) => ({
  value: { access, recurringIndicator: true, validUntil: EXAMPLE.date(90), frequencyPerDay: 4, combinedServiceIndicator: false },
});
const CONSENT_EXAMPLES = {
  accounts: {
    summary: 'Balances and transactions of one account',
    ...consentExample({ accounts: [{ iban: EXAMPLE.iban }], balances: [{ iban: EXAMPLE.iban }], transactions: [{ iban: EXAMPLE.iban }] }),
  },
  allAccounts: { summary: 'The list of every account of the holder', ...consentExample({ availableAccounts: 'allAccounts' }) },
  allPsd2: { summary: 'Every service on every account of the holder', ...consentExample({ allPsd2: 'allAccounts' }) },
};

@ApiTags('Consents')
@Xs2aController('consents', 'PSP_AI')
export class ConsentController extends ConsentRoutes {
  protected readonly purpose = 'ais';

  @Post()
  @StoresResource()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an account-information consent' })
  @ApiBody({ type: CreateConsentDto, examples: CONSENT_EXAMPLES })
  @ApiHeader({ name: 'PSU-IP-Address', required: false, description: "IP address of the account holder's device" })
  @ApiScaRequestHeaders()
  @ApiNotificationHeaders()
  @ApiOkResponse({
    type: ConsentCreatedResponse,
    headers: {
      ...SCA_APPROACH_HEADER,
      ...NOTIFICATION_HEADERS,
      ...fixtureConsentHeader('where the bank answered with its fixture consent instead of storing one'),
    },
  })
  @CreatesInBerlinGroup()
  async create(
    @Body() body: CreateConsentDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @NotificationHeaders() notification: NotificationRequest | null,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<ConsentCreatedResponse> {
    return this.created((request) => this.consents.create(body, request, world, notification), headers, notification, response);
  }

  @Get(':consentId')
  @ApiOperation({ summary: 'Read a consent' })
  @ApiOkResponse({ type: ConsentResponse })
  @ApiResponse(CONSENT_UNKNOWN)
  async get(@Param('consentId') consentId: string, @RequestWorld() world: World): Promise<ConsentResponse> {
    return toConsentResponse(await this.consents.findCurrent(consentId, world, 'ais'));
  }
}
