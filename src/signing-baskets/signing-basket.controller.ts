import { StoresResource } from '../http/request-checks';
import { Body, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthorisationService } from '../authorisation/authorisation.service';
import { scaRedirectHref } from '../common/links';
import { Environment } from '../config/environment';
import { CreatesInBerlinGroup } from '../http/berlin-group-answers';
import { announceCreated } from '../http/created-resource';
import { TppErrorResponse } from '../http/error-response.dto';
import { Xs2aController } from '../http/controller.decorator';
import { ApiScaRequestHeaders, SCA_APPROACH_HEADER, ScaHeaders, ScaRequestHeaders } from '../http/sca-headers.decorator';
import { World, RequestWorld } from '../world/world';
import {
  announceNotifications,
  ApiNotificationHeaders,
  NOTIFICATION_HEADERS,
  NotificationHeaders,
  NotificationRequest,
} from '../notifications/notification-headers.decorator';
import { NotificationsService } from '../notifications/notifications.service';
import {
  BasketCreatedResponse,
  BasketResponse,
  BasketStatusResponse,
  CreateSigningBasketDto,
  toBasketCreatedResponse,
  toBasketResponse,
} from './signing-basket.dto';
import { SigningBasketService } from './signing-basket.service';

const BASKET_UNKNOWN = { status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no such signing basket' } as const;

/** Berlin Group's signing baskets, where the profile offers them (docs/signing-baskets.md). */
@ApiTags('Signing baskets')
@Xs2aController('signing-baskets', 'PSP_PI')
export class SigningBasketController {
  constructor(
    private readonly baskets: SigningBasketService,
    private readonly authorisations: AuthorisationService,
    private readonly notifications: NotificationsService,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  @Post()
  @StoresResource()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a signing basket of payments and consents waiting for SCA, which one SCA then authorises' })
  @ApiBody({ type: CreateSigningBasketDto })
  @ApiScaRequestHeaders()
  @ApiNotificationHeaders()
  @ApiOkResponse({ type: BasketCreatedResponse, headers: { ...SCA_APPROACH_HEADER, ...NOTIFICATION_HEADERS } })
  @ApiResponse({
    status: 400,
    type: TppErrorResponse,
    description: 'FORMAT_ERROR: no member, or a malformed list; RESOURCE_UNKNOWN: an ID names no payment or consent of this client',
  })
  @ApiResponse({
    status: 409,
    type: TppErrorResponse,
    description: 'REFERENCE_STATUS_INVALID: a member is not waiting for SCA, or is in another open basket',
  })
  @CreatesInBerlinGroup()
  async create(
    @Body() body: CreateSigningBasketDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @NotificationHeaders() notification: NotificationRequest | null,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<BasketCreatedResponse> {
    const request = await this.authorisations.requestOf(headers);
    await this.notifications.admit(notification);
    const { basket, authorisation } = await this.baskets.create(body, request, world, notification);
    announceNotifications(response, notification, true);
    const scaRedirect = scaRedirectHref(
      this.config.get('PUBLIC_BASE_URL', { infer: true }),
      'signing-baskets',
      { basket_id: basket.id },
      headers.redirectUri ?? undefined,
    );
    return announceCreated(response, request.approach, toBasketCreatedResponse(basket, authorisation, scaRedirect));
  }

  @Get(':basketId')
  @ApiOperation({ summary: 'Read a signing basket: its members and its status' })
  @ApiOkResponse({ type: BasketResponse })
  @ApiResponse(BASKET_UNKNOWN)
  async get(@Param('basketId') basketId: string, @RequestWorld() world: World): Promise<BasketResponse> {
    return toBasketResponse(await this.baskets.read(basketId, world));
  }

  @Get(':basketId/status')
  @ApiOperation({ summary: 'Read the status of a signing basket' })
  @ApiOkResponse({ type: BasketStatusResponse })
  @ApiResponse(BASKET_UNKNOWN)
  async status(@Param('basketId') basketId: string, @RequestWorld() world: World): Promise<BasketStatusResponse> {
    return { transactionStatus: (await this.baskets.read(basketId, world)).status };
  }

  @Delete(':basketId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an open signing basket (CANC); its members stay as they are' })
  @ApiNoContentResponse({ description: 'deleted: status CANC' })
  @ApiResponse(BASKET_UNKNOWN)
  @ApiResponse({
    status: 409,
    type: TppErrorResponse,
    description: 'STATUS_INVALID: the basket is already authorised, rejected or deleted',
  })
  async delete(@Param('basketId') basketId: string, @RequestWorld() world: World): Promise<void> {
    await this.baskets.delete(basketId, world);
  }
}
