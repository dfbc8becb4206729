import { applyDecorators, Body, Controller, Delete, Get, Header, Headers, HttpCode, Ip, Param, Post } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Environment } from '../config/environment';
import { TppErrorResponse } from '../http/error-response.dto';
import { COMMON_ERRORS } from '../http/controller.decorator';
import { Access } from '../http/route-access';
import { AUTH_METHODS, clientMetadataOf } from './client-metadata';
import type { TppClient } from './client.entity';
import { RegistrationService } from './registration.service';
import { IdleWorlds } from './idle-worlds';

class ClientRegistrationRequest {
  @ApiProperty({ example: 'Example AISP', maxLength: 140 })
  client_name: string;

  @ApiProperty({ type: [String], example: ['https://tpp.example/callback'], minItems: 1, maxItems: 10, description: 'absolute https URLs' })
  redirect_uris: string[];

  @ApiPropertyOptional({ type: [String], enum: ['client_credentials'] })
  grant_types?: string[];

  @ApiPropertyOptional({ enum: AUTH_METHODS })
  token_endpoint_auth_method?: string;

  @ApiPropertyOptional({
    description:
      'a certificate the sandbox CA issued (PEM or base64 DER), unrevoked and no other client’s: it becomes this client’s (a sandbox extension)',
  })
  certificate?: string;
}

class ClientInformationResponse {
  @ApiProperty({ format: 'uuid' })
  client_id: string;

  @ApiPropertyOptional({
    description: "in the registration's answer only: the sandbox keeps the secret's hash, so it cannot show it again (docs/security.md)",
  })
  client_secret?: string;

  @ApiProperty({ description: 'seconds since 1970' })
  client_id_issued_at: number;

  @ApiProperty({ enum: [0], description: 'never expires' })
  client_secret_expires_at: number;

  @ApiProperty()
  client_name: string;

  @ApiProperty({ type: [String] })
  redirect_uris: string[];

  @ApiProperty({ type: [String], enum: ['client_credentials'] })
  grant_types: string[];

  @ApiProperty({ enum: AUTH_METHODS })
  token_endpoint_auth_method: string;

  @ApiPropertyOptional({ description: 'only in the registration’s answer: the bearer token of /register/{clientId} (RFC 7592)' })
  registration_access_token?: string;

  @ApiProperty({ format: 'uri' })
  registration_client_uri: string;

  @ApiProperty({
    example: 30,
    description: 'the sandbox deletes the client with its world after this many days without a request (WORLD_IDLE_DAYS); 0: never',
  })
  sandbox_idle_days: number;
}

class AuthorizationServerMetadata {
  @ApiProperty({ format: 'uri' })
  issuer: string;

  @ApiProperty({ format: 'uri' })
  token_endpoint: string;

  @ApiPropertyOptional({ format: 'uri', description: 'absent where the profile closes registration' })
  registration_endpoint?: string;

  @ApiProperty({ type: [String], enum: ['client_credentials'] })
  grant_types_supported: string[];

  @ApiProperty({ type: [String], enum: AUTH_METHODS })
  token_endpoint_auth_methods_supported: string[];
}

class RegistrationErrorResponse extends TppErrorResponse {
  @ApiProperty({
    enum: ['invalid_client_metadata', 'invalid_redirect_uri', 'invalid_request', 'invalid_token', 'access_denied', 'slow_down'],
  })
  error: string;

  @ApiProperty()
  error_description: string;
}

const REFUSED = [
  ApiResponse({
    status: 401,
    type: RegistrationErrorResponse,
    description: 'invalid_token (TOKEN_INVALID): no registration access token, or not this client’s',
  }),
];

/**
 * A TPP onboards itself (docs/security.md, "Clients register themselves"): OAuth dynamic client
 * registration (RFC 7591), its management (RFC 7592), and the authorisation server metadata that
 * advertises it beside the token endpoint (RFC 8414).
 */
@ApiTags('Authentication')
@Controller()
@Access({ role: null, audience: 'public' })
export class RegistrationController {
  private readonly base: string;

  constructor(
    private readonly registrations: RegistrationService,
    private readonly idle: IdleWorlds,
    config: ConfigService<Environment, true>,
  ) {
    this.base = config.get('PUBLIC_BASE_URL', { infer: true });
  }

  @Get('.well-known/oauth-authorization-server')
  @ApiOperation({
    summary: 'OAuth authorisation server metadata (RFC 8414): the token endpoint and, where open, the registration endpoint',
  })
  @ApiOkResponse({ type: AuthorizationServerMetadata })
  @applyDecorators(...COMMON_ERRORS)
  metadata(): AuthorizationServerMetadata {
    return {
      issuer: this.base,
      token_endpoint: `${this.base}/oauth2/token`,
      ...(this.registrations.open ? { registration_endpoint: `${this.base}/register` } : {}),
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: AUTH_METHODS,
    };
  }

  @Post('register')
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Register a client (RFC 7591): its ID and secret for the token endpoint, and a world of its own in AUTH_MODE=strict',
  })
  @ApiBody({
    type: ClientRegistrationRequest,
    examples: { 'Try it out': { value: { client_name: 'Example AISP', redirect_uris: ['https://tpp.example/callback'] } } },
  })
  @ApiCreatedResponse({ type: ClientInformationResponse })
  @ApiResponse({
    status: 400,
    type: RegistrationErrorResponse,
    description: 'invalid_client_metadata or invalid_redirect_uri (FORMAT_ERROR): nothing is stored',
  })
  @ApiResponse({
    status: 403,
    type: RegistrationErrorResponse,
    description: 'access_denied (SERVICE_BLOCKED): the profile closes registration (tpp.registration: closed)',
  })
  @ApiResponse({
    status: 429,
    type: RegistrationErrorResponse,
    headers: { 'Retry-After': { description: 'seconds until the hour is over', schema: { type: 'integer' } } },
    description: 'slow_down (ACCESS_EXCEEDED): REGISTRATIONS_PER_HOUR clients registered from this address within the hour',
  })
  @applyDecorators(...COMMON_ERRORS)
  async register(@Body() body: unknown, @Ip() address: string): Promise<ClientInformationResponse> {
    const { client, clientSecret, registrationToken } = await this.registrations.register(clientMetadataOf(body), address);
    return { ...this.information(client), client_secret: clientSecret, registration_access_token: registrationToken };
  }

  @Get('register/:clientId')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Read a registered client (RFC 7592), with its registration access token' })
  @ApiBearerAuth()
  @ApiOkResponse({ type: ClientInformationResponse })
  @applyDecorators(...REFUSED, ...COMMON_ERRORS)
  async read(
    @Param('clientId') clientId: string,
    @Headers('authorization') authorization: string | undefined,
  ): Promise<ClientInformationResponse> {
    return this.information(await this.registrations.find(clientId, authorization));
  }

  @Delete('register/:clientId')
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Delete a registered client (RFC 7592) and its world: no row of it is left, its tokens stop working at once, its certificates are revoked',
  })
  @ApiBearerAuth()
  @ApiNoContentResponse({ description: 'deleted' })
  @applyDecorators(...REFUSED, ...COMMON_ERRORS)
  async delete(@Param('clientId') clientId: string, @Headers('authorization') authorization: string | undefined): Promise<void> {
    await this.registrations.delete(await this.registrations.find(clientId, authorization));
  }

  private information(client: TppClient): ClientInformationResponse {
    return {
      client_id: client.clientId,
      client_id_issued_at: Math.floor(Date.parse(client.registeredAt!) / 1000),
      client_secret_expires_at: 0,
      client_name: client.name,
      redirect_uris: client.redirectUris!,
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_basic',
      registration_client_uri: `${this.base}/register/${client.clientId}`,
      sandbox_idle_days: this.idle.idleDays,
    };
  }
}
