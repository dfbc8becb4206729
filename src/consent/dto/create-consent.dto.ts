import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { AccountReferenceDto } from '../../common/account-reference.dto';
import { IsDateOnly, NestedObject, NestedObjects } from '../../common/validators';

/**
 * An account a consent names: by IBAN, or, where a service declares the field (card accounts), by
 * masked PAN instead (docs/development.md, "A service plugs in").
 */
export class ConsentAccountReferenceDto extends AccountReferenceDto {
  declare maskedPan?: string;
}

export class ConsentAccessDto {
  @ApiPropertyOptional({ type: [AccountReferenceDto], example: [{ iban: 'AT099900000000001511' }] })
  @IsOptional()
  @IsArray()
  @NestedObjects(() => ConsentAccountReferenceDto)
  balances?: ConsentAccountReferenceDto[] | null;

  @ApiPropertyOptional({ type: [AccountReferenceDto], example: [] })
  @IsOptional()
  @IsArray()
  @NestedObjects(() => ConsentAccountReferenceDto)
  transactions?: ConsentAccountReferenceDto[] | null;

  @ApiPropertyOptional({ enum: ['allAccounts'], description: 'requests every account the holder has; the lists are then ignored' })
  @IsOptional()
  @IsIn(['allAccounts'])
  availableAccounts?: 'allAccounts';

  @ApiPropertyOptional({ enum: ['allAccounts'], description: 'Berlin Group: every service on every account; answered as availableAccounts is' })
  @IsOptional()
  @IsIn(['allAccounts'])
  allPsd2?: 'allAccounts';

  /** Berlin Group's additional information of a consent, where a service declares it (trusted beneficiaries). */
  declare additionalInformation?: { trustedBeneficiaries?: AccountReferenceDto[] };
}

export class CreateConsentDto {
  @ApiProperty({ type: ConsentAccessDto })
  @IsDefined()
  @NestedObject(() => ConsentAccessDto)
  access: ConsentAccessDto;

  @ApiProperty({ example: true })
  @IsBoolean()
  recurringIndicator: boolean;

  @ApiProperty({ example: '2026-12-31', description: "last day of validity, not before today; a later date is cut down to the bank's longest validity (this document's introduction)" })
  @IsDateOnly()
  validUntil: string;

  // No upper bound of 4 (the Berlin Group default): the bank accepts more. The maximum only keeps
  // the value exact and inside an integer column on every database.
  @ApiProperty({ example: 4, minimum: 1, maximum: 2147483647, description: "a higher frequency is cut down to the bank's maximum, where it has one (this document's introduction)" })
  @IsInt()
  @Min(1)
  @Max(2147483647)
  frequencyPerDay: number;
}
