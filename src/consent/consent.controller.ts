import { Body, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  AuthorisationListResponse,
  ScaStatusResponse,
  StartAuthorisationResponse,
  toStartAuthorisationResponse,
  updatePsuDataNotOffered,
} from '../authorisation/authorisation-response.dto';
import { ConfigService } from '@nestjs/config';
import { ApiBody, ApiExcludeEndpoint, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequestOwner, Owner } from '../oauth/owner';
import { CreatedResource } from '../http/created-resource.interceptor';
import { TppErrorResponse } from '../http/error-response.dto';
import { scaRedirectHref } from '../common/links';
import { TppRedirectUri } from '../http/tpp-redirect-uri.decorator';
import { Xs2aController } from '../http/request.guard';
import { Environment } from '../config/environment';
import { ConsentCreatedResponse, ConsentResponse, ConsentStatusResponse, toConsentCreatedResponse, toConsentResponse } from './dto/consent-response.dto';
import { CreateConsentDto } from './dto/create-consent.dto';
import { ConsentService } from './consent.service';

const CONSENT_UNKNOWN = { status: 403, type: TppErrorResponse, description: 'CONSENT_UNKNOWN' } as const;
const NOT_WAITING = { status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: the consent is not waiting for the account holder' } as const;

@ApiTags('Consents')
@Xs2aController('consents')
export class ConsentController {
  constructor(
    private readonly consents: ConsentService,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an account-information consent' })
  @ApiBody({ type: CreateConsentDto })
  @ApiHeader({ name: 'PSU-IP-Address', required: false, description: "IP address of the account holder's device" })
  @ApiOkResponse({ type: ConsentCreatedResponse })
  @CreatedResource()
  async create(@Body() body: CreateConsentDto, @TppRedirectUri() redirectUri: string | undefined, @RequestOwner() owner: Owner): Promise<ConsentCreatedResponse> {
    const { consentId, consentStatus } = await this.consents.create(body, redirectUri, owner);
    return toConsentCreatedResponse(consentId, consentStatus, this.scaRedirect(consentId, redirectUri));
  }

  @Post(':consentId/authorisations')
  @HttpCode(201)
  @ApiOperation({ summary: 'Start a further authorisation of a consent waiting for the account holder' })
  @ApiHeader({ name: 'TPP-Redirect-URI', required: false, description: 'where the SCA page sends the account holder back' })
  @ApiResponse({ status: 201, type: StartAuthorisationResponse })
  @ApiResponse(CONSENT_UNKNOWN)
  @ApiResponse(NOT_WAITING)
  @CreatedResource()
  async startAuthorisation(
    @Param('consentId') consentId: string,
    @TppRedirectUri() redirectUri: string | undefined,
    @RequestOwner() owner: Owner,
  ): Promise<StartAuthorisationResponse> {
    const authorisation = await this.consents.startAuthorisation(consentId, redirectUri, owner);
    return toStartAuthorisationResponse(authorisation, this.scaRedirect(consentId, redirectUri), `/v1/consents/${consentId}/authorisations`);
  }

  @Get(':consentId/authorisations')
  @ApiOperation({ summary: 'List the authorisations of a consent' })
  @ApiOkResponse({ type: AuthorisationListResponse })
  @ApiResponse(CONSENT_UNKNOWN)
  async authorisations(@Param('consentId') consentId: string, @RequestOwner() owner: Owner): Promise<AuthorisationListResponse> {
    return { authorisationIds: await this.consents.authorisationIds(consentId, owner) };
  }

  @Get(':consentId/authorisations/:authorisationId')
  @ApiOperation({ summary: 'Read the SCA status of an authorisation of a consent' })
  @ApiOkResponse({ type: ScaStatusResponse })
  @ApiResponse(CONSENT_UNKNOWN)
  @ApiResponse({ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no such authorisation' })
  async scaStatus(
    @Param('consentId') consentId: string,
    @Param('authorisationId') authorisationId: string,
    @RequestOwner() owner: Owner,
  ): Promise<ScaStatusResponse> {
    return { scaStatus: (await this.consents.findAuthorisation(consentId, authorisationId, owner)).status };
  }

  @Put(':consentId/authorisations/:authorisationId')
  @ApiExcludeEndpoint()
  updatePsuData(): never {
    throw updatePsuDataNotOffered();
  }

  @Get(':consentId')
  @ApiOperation({ summary: 'Read a consent' })
  @ApiOkResponse({ type: ConsentResponse })
  @ApiResponse(CONSENT_UNKNOWN)
  async get(@Param('consentId') consentId: string, @RequestOwner() owner: Owner): Promise<ConsentResponse> {
    return toConsentResponse(await this.consents.findCurrent(consentId, owner));
  }

  @Get(':consentId/status')
  @ApiOperation({ summary: 'Read the status of a consent' })
  @ApiOkResponse({ type: ConsentStatusResponse })
  @ApiResponse(CONSENT_UNKNOWN)
  async status(@Param('consentId') consentId: string, @RequestOwner() owner: Owner): Promise<ConsentStatusResponse> {
    return { consentStatus: (await this.consents.findCurrent(consentId, owner)).status };
  }

  @Delete(':consentId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a consent (fixtures answer 204 and stay as they are)' })
  @ApiNoContentResponse({ description: 'deleted: status terminatedByTpp' })
  @ApiResponse(CONSENT_UNKNOWN)
  @ApiResponse({ status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: the consent is already rejected, expired or terminated' })
  async delete(@Param('consentId') consentId: string, @RequestOwner() owner: Owner): Promise<void> {
    await this.consents.delete(consentId, owner);
  }

  private scaRedirect(consentId: string, redirectUri?: string) {
    return scaRedirectHref(this.config.get('PUBLIC_BASE_URL', { infer: true }), 'consents', { consent_id: consentId }, redirectUri);
  }
}
