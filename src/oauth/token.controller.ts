import { applyDecorators, Body, Controller, Header, Headers, HttpCode, Ip, Post } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { TppErrorResponse } from '../http/error-response.dto';
import { COMMON_ERRORS } from '../http/controller.decorator';
import { TOKEN_LIFETIME, TokenForm, TokenService } from './token.service';
import { Access } from '../http/route-access';
import { EXAMPLE } from '../common/document-examples';

/** Documents the form; the fields are checked by TokenService, which answers OAuth's own error codes. */
class TokenRequest {
  @ApiProperty({ enum: ['client_credentials'], example: 'client_credentials' })
  grant_type: string;

  // A fixture client: accepted in either AUTH_MODE (docs/security.md).
  @ApiPropertyOptional({ example: EXAMPLE.clientId, description: 'the client ID, when not sent with HTTP Basic; in AUTH_MODE=open any' })
  client_id?: string;

  @ApiPropertyOptional({ example: EXAMPLE.clientSecret, description: 'the client secret, with client_id (required in AUTH_MODE=strict)' })
  client_secret?: string;

  @ApiPropertyOptional({ example: 'AIS PIS', description: 'accepted and echoed' })
  scope?: string;
}

class TokenResponse {
  @ApiProperty({ example: 'nPz0bV3d9kq1r3xYbq2H0s8Qm8D4VvO8QkS2e4u7G5A' })
  access_token: string;

  @ApiProperty({ enum: ['Bearer'] })
  token_type: 'Bearer';

  @ApiProperty({ example: TOKEN_LIFETIME, description: 'seconds' })
  expires_in: number;

  @ApiPropertyOptional({ example: 'AIS PIS', description: 'the scope asked for, when one was' })
  scope?: string;
}

class OAuthErrorResponse extends TppErrorResponse {
  @ApiProperty({ enum: ['invalid_client', 'invalid_request', 'unsupported_grant_type', 'slow_down'] })
  error: string;

  @ApiProperty()
  error_description: string;
}

@ApiTags('Authentication')
@Controller('oauth2')
@Access({ role: null, audience: 'public' })
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post('token')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({ summary: 'OAuth2 client credentials grant: a bearer token for /v1 (required in AUTH_MODE=strict)' })
  @ApiBasicAuth()
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: TokenRequest })
  @ApiOkResponse({ type: TokenResponse })
  @ApiResponse({ status: 400, type: OAuthErrorResponse, description: 'invalid_request or unsupported_grant_type (FORMAT_ERROR)' })
  @ApiResponse({
    status: 401,
    type: OAuthErrorResponse,
    description: 'invalid_client (TOKEN_INVALID): client credentials missing, unknown (AUTH_MODE=strict) or wrong',
  })
  @ApiResponse({
    status: 429,
    type: OAuthErrorResponse,
    headers: { 'Retry-After': { description: 'seconds until the client may try again', schema: { type: 'integer' } } },
    description: 'slow_down (ACCESS_EXCEEDED): 5 failed sign-ins of this client from this address within 15 minutes',
  })
  @applyDecorators(...COMMON_ERRORS)
  async token(
    @Headers('authorization') authorization: string | undefined,
    @Ip() address: string,
    @Body() form: TokenForm = {},
  ): Promise<TokenResponse> {
    const { token, expiresIn, scope } = await this.tokens.issue(authorization, form, address);
    return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, ...(scope === undefined ? {} : { scope }) };
  }
}
