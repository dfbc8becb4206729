import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiBody, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { TppErrorResponse } from '../common/error-response.dto';
import { scaRedirectHref } from '../common/links';
import { TppRedirectUri } from '../common/tpp-redirect-uri.decorator';
import { Xs2aController } from '../common/tpp-request.guard';
import { Environment } from '../config/environment';
import { ConsentCreatedResponse, ConsentResponse, ConsentStatusResponse, toConsentCreatedResponse, toConsentResponse } from './dto/consent-response.dto';
import { CreateConsentDto } from './dto/create-consent.dto';
import { ConsentService } from './consent.service';

const CONSENT_UNKNOWN = { status: 403, type: TppErrorResponse, description: 'CONSENT_UNKNOWN' } as const;

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
  async create(@Body() body: CreateConsentDto, @TppRedirectUri() redirectUri?: string): Promise<ConsentCreatedResponse> {
    const { consentId, consentStatus } = await this.consents.create(body, redirectUri);
    const scaRedirect = scaRedirectHref(this.config.get('PUBLIC_BASE_URL', { infer: true }), 'consents', { consent_id: consentId }, redirectUri);
    return toConsentCreatedResponse(consentId, consentStatus, scaRedirect);
  }

  @Get(':consentId')
  @ApiOperation({ summary: 'Read a consent' })
  @ApiOkResponse({ type: ConsentResponse })
  @ApiResponse(CONSENT_UNKNOWN)
  async get(@Param('consentId') consentId: string): Promise<ConsentResponse> {
    return toConsentResponse(await this.consents.findCurrent(consentId));
  }

  @Get(':consentId/status')
  @ApiOperation({ summary: 'Read the status of a consent' })
  @ApiOkResponse({ type: ConsentStatusResponse })
  @ApiResponse(CONSENT_UNKNOWN)
  async status(@Param('consentId') consentId: string): Promise<ConsentStatusResponse> {
    return { consentStatus: (await this.consents.findCurrent(consentId)).status };
  }

  @Delete(':consentId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a consent (fixtures answer 204 and stay as they are)' })
  @ApiNoContentResponse({ description: 'deleted: status terminatedByTpp' })
  @ApiResponse(CONSENT_UNKNOWN)
  @ApiResponse({ status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: the consent is already rejected, expired or terminated' })
  async delete(@Param('consentId') consentId: string): Promise<void> {
    await this.consents.delete(consentId);
  }
}
