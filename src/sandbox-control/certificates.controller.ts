import { StoresResource } from '../http/request-checks';
import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { TppErrorResponse } from '../http/error-response.dto';
import { SandboxController } from '../http/controller.decorator';
import { World, RequestWorld } from '../world/world';
import { CertificatesService } from '../tpp-identity/certificates.service';
import { PSD2_ROLES, Psd2Role } from '../tpp-identity/psd2-statement';

const ROLES = Object.keys(PSD2_ROLES) as Psd2Role[];
/** ETSI TS 119 495: PSD, the country, the competent authority, the TPP's ID there. */
const ORGANISATION_IDENTIFIER = /^PSD[A-Z]{2}-[A-Z0-9]{1,8}-[A-Za-z0-9.-]{1,40}$/;
const SERIAL = {
  status: 404,
  type: TppErrorResponse,
  description: 'RESOURCE_UNKNOWN: no certificate the sandbox issued (to this client) with this serial number',
};

export class IssueCertificateDto {
  @ApiProperty({
    enum: ['QSEAL', 'QWAC'],
    example: 'QSEAL',
    description: 'QSEAL signs requests (Signature); QWAC authenticates the TLS client',
  })
  @IsIn(['QSEAL', 'QWAC'])
  type: 'QSEAL' | 'QWAC';

  @ApiProperty({ example: 'My TPP', maxLength: 64 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  // A certificate's name is printable text: no control character, no half of a surrogate pair (which no encoding can write).
  @Matches(/^[^\p{Cc}\p{Cs}]+$/u, { message: '$property must be printable text' })
  organisationName: string;

  @ApiProperty({
    type: [String],
    enum: ROLES,
    example: ['PSP_AI', 'PSP_PI'],
    description:
      "the roles of ETSI TS 119 495 V1.8.1: PSD2's PSP_AS, PSP_PI, PSP_AI, PSP_IC; PSP_CB and PSP_PA (a central bank, a public authority: their competent authority is NA, and they stand without PSD2's roles); VOP_RS and VOP_VS (payee verification)",
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(ROLES, { each: true })
  roles: Psd2Role[];

  @ApiPropertyOptional({
    example: 365,
    minimum: 1,
    maximum: 3650,
    description: 'valid from the sandbox today for this many days (default 365)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3650)
  validDays?: number;

  @ApiPropertyOptional({
    example: 'PSDAT-FMA-12345',
    pattern: ORGANISATION_IDENTIFIER.source,
    description: "the subject's organizationIdentifier; default PSDXX-SBX- and the client ID (AUTH_MODE=strict) or a random one",
  })
  @IsOptional()
  @Matches(ORGANISATION_IDENTIFIER, { message: '$property must read PSD<country>-<authority>-<ID>, e.g. PSDAT-FMA-12345' })
  organisationIdentifier?: string;
}

export class CaCertificateResponse {
  @ApiProperty({
    example: '-----BEGIN CERTIFICATE-----\nMIID…\n-----END CERTIFICATE-----',
    description: "the sandbox CA's certificate, PEM",
  })
  certificate: string;
}

export class IssuedCertificateResponse {
  @ApiProperty({ example: '5c3a9f0e1d2b4a6c8e0f1a2b3c4d5e6f', description: 'lower-case hex: the SN of a Signature keyId' })
  serialNumber: string;

  @ApiProperty({ enum: ['QSEAL', 'QWAC'] })
  type: string;

  @ApiProperty({ example: 'My TPP' })
  organisationName: string;

  @ApiProperty({ example: 'PSDAT-FMA-12345' })
  organisationIdentifier: string;

  @ApiProperty({ type: [String], enum: ROLES, example: ['PSP_AI'] })
  roles: Psd2Role[];

  @ApiProperty({ format: 'date', example: '2026-03-15' })
  notBefore: string;

  @ApiProperty({ format: 'date', example: '2027-03-15', description: 'valid until the start of this day (by the sandbox clock)' })
  notAfter: string;

  @ApiProperty({ description: 'PEM' })
  certificate: string;

  @ApiProperty({ description: 'PEM, PKCS#8, RSA 2048' })
  privateKey: string;

  @ApiProperty({ description: "the sandbox CA's certificate, PEM" })
  caCertificate: string;
}

export class RevokedCertificateResponse {
  @ApiProperty({ example: '5c3a9f0e1d2b4a6c8e0f1a2b3c4d5e6f' })
  serialNumber: string;

  @ApiProperty({ example: true })
  revoked: boolean;
}

/** Test certificates for TPPs (docs/tpp-identity.md): the sandbox CA, issuance, revocation. */
@ApiTags('Sandbox control')
@SandboxController('sandbox/certificates')
export class CertificatesController {
  constructor(private readonly certificates: CertificatesService) {}

  @Get('ca')
  @ApiOperation({ summary: "The sandbox CA's certificate: what the sandbox's test certificates are issued by" })
  @ApiOkResponse({ type: CaCertificateResponse })
  async ca(): Promise<CaCertificateResponse> {
    return { certificate: (await this.certificates.authority()).certificate };
  }

  @Post()
  @StoresResource()
  @ApiOperation({ summary: 'Issue a test QSealC or QWAC with PSD2 roles, valid from the sandbox today' })
  @ApiCreatedResponse({ type: IssuedCertificateResponse })
  async issue(@Body() body: IssueCertificateDto, @RequestWorld() world: World): Promise<IssuedCertificateResponse> {
    const issued = await this.certificates.issue(body, world, world.clientId ?? undefined);
    const { serialNumber, type, organisationName, organisationIdentifier, roles, notBefore, notAfter, certificate, privateKey } = issued;
    return {
      serialNumber,
      type,
      organisationName,
      organisationIdentifier,
      roles,
      notBefore,
      notAfter,
      certificate,
      privateKey,
      caCertificate: (await this.certificates.authority()).certificate,
    };
  }

  @Post(':serialNumber/revocation')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a certificate the sandbox issued: every request with it is then refused (CERTIFICATE_REVOKE)' })
  @ApiOkResponse({ type: RevokedCertificateResponse })
  @ApiResponse(SERIAL)
  async revoke(@Param('serialNumber') serialNumber: string, @RequestWorld() world: World): Promise<RevokedCertificateResponse> {
    const { serialNumber: revoked } = await this.certificates.revoke(serialNumber, world);
    return { serialNumber: revoked, revoked: true };
  }
}
