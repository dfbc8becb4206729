import { StoresResource } from '../http/request-checks';
import { Body, Get, Headers, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CreateFundsConsentDto } from './dto/create-funds-consent.dto';
import { ConsentRoutes } from '../consent/consent.controller';
import { ConsentCreatedResponse } from '../consent/dto/consent-response.dto';
import { FundsConsentResponse, toFundsConsentResponse } from './dto/funds-consent-response.dto';
import { CreatesInBerlinGroup } from '../http/berlin-group-answers';
import { TppErrorResponse } from '../http/error-response.dto';
import { Xs2aController } from '../http/controller.decorator';
import { ApiScaRequestHeaders, SCA_APPROACH_HEADER, ScaHeaders, ScaRequestHeaders } from '../http/sca-headers.decorator';
import {
  ApiNotificationHeaders,
  NOTIFICATION_HEADERS,
  NotificationHeaders,
  NotificationRequest,
} from '../notifications/notification-headers.decorator';
import { World, RequestWorld } from '../world/world';
import { FundsConfirmationDto, FundsConfirmationResponse } from './dto/funds-confirmation.dto';
import { FundsConfirmationService } from './funds-confirmation.service';

const CONSENT_UNKNOWN = {
  status: 403,
  type: TppErrorResponse,
  description: 'CONSENT_UNKNOWN: no consent for the confirmation of funds with this ID',
} as const;

/** Berlin Group's confirmation of funds (PIIS), where the profile offers it (docs/funds-confirmation.md). */
@ApiTags('Confirmation of funds')
@Xs2aController('funds-confirmations', 'PSP_IC')
export class FundsConfirmationController {
  constructor(private readonly funds: FundsConfirmationService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: "Whether the account's available balance covers an amount now" })
  @ApiBody({ type: FundsConfirmationDto })
  // The served document leaves it out where the bank manages the consents outside the API (funds-document.ts).
  @ApiHeader({
    name: 'Consent-ID',
    required: true,
    description: 'a valid consent for the confirmation of funds on the account',
    schema: { type: 'string' },
  })
  @ApiOkResponse({ type: FundsConfirmationResponse })
  @ApiResponse({
    status: 400,
    type: TppErrorResponse,
    description:
      "FORMAT_ERROR; NO_PIIS_ACTIVATION: not the consent's account; CARD_INVALID: not the consent's card; PARAMETER_NOT_CONSISTENT: not the account's currency",
  })
  @ApiResponse({
    status: 401,
    type: TppErrorResponse,
    description: 'TOKEN_INVALID; CONSENT_INVALID: the consent is not valid; CONSENT_EXPIRED',
  })
  @ApiResponse(CONSENT_UNKNOWN)
  @ApiResponse({ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no such account' })
  async check(
    @Body() body: FundsConfirmationDto,
    @Headers('consent-id') consentId: string | undefined,
    @RequestWorld() world: World,
  ): Promise<FundsConfirmationResponse> {
    return { fundsAvailable: await this.funds.fundsAvailable(body, consentId, world) };
  }
}

/** Berlin Group's consent for the confirmation of funds (PIIS consent 2.0), authorised by the holder as an account-information consent is. */
@ApiTags('Confirmation of funds')
@Xs2aController('consents/confirmation-of-funds', 'PSP_IC', 'v2')
export class FundsConsentController extends ConsentRoutes {
  protected readonly purpose = 'piis';
  // Beside the consent routes' own constructor: what makes a consent for the confirmation of funds.
  @Inject(FundsConfirmationService) private readonly funds: FundsConfirmationService;

  @Post()
  @StoresResource()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a consent for the confirmation of funds on one account' })
  @ApiBody({ type: CreateFundsConsentDto })
  @ApiScaRequestHeaders()
  @ApiNotificationHeaders()
  @ApiOkResponse({ type: ConsentCreatedResponse, headers: { ...SCA_APPROACH_HEADER, ...NOTIFICATION_HEADERS } })
  @CreatesInBerlinGroup()
  async create(
    @Body() body: CreateFundsConsentDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @NotificationHeaders() notification: NotificationRequest | null,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<ConsentCreatedResponse> {
    return this.created((request) => this.funds.createConsent(body, request, world, notification), headers, notification, response);
  }

  @Get(':consentId')
  @ApiOperation({ summary: 'Read a consent for the confirmation of funds' })
  @ApiOkResponse({ type: FundsConsentResponse })
  @ApiResponse(CONSENT_UNKNOWN)
  async get(@Param('consentId') consentId: string, @RequestWorld() world: World): Promise<FundsConsentResponse> {
    return toFundsConsentResponse(await this.consents.findCurrent(consentId, world, 'piis'));
  }
}
