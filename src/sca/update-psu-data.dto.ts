import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';

export class PsuDataDto {
  @ApiPropertyOptional({ example: 'sandbox', maxLength: 64, description: "the PSU's password (every test PSU's is sandbox)" })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  password?: string;
}

/**
 * Berlin Group update PSU data, one step per request (docs/sca-approaches.md): the password
 * (updatePsuAuthentication), the method (selectPsuAuthenticationMethod), the TAN
 * (transactionAuthorisation); empty with a PSU-ID header to identify the PSU (decoupled).
 */
export class UpdatePsuDataDto {
  @ApiPropertyOptional({ type: PsuDataDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PsuDataDto)
  psuData?: PsuDataDto;

  @ApiPropertyOptional({ example: 'push', maxLength: 35, description: 'one of the scaMethods the previous answer listed' })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  authenticationMethodId?: string;

  @ApiPropertyOptional({ example: '123456', maxLength: 64, description: "the TAN (every test PSU's is 123456)" })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  scaAuthenticationData?: string;
}
