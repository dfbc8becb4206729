import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsObject, IsOptional, Matches, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { onlyWhereOffered } from '../../http/validation.pipe';
import { CARD_ACCOUNTS, TRUSTED_BENEFICIARIES } from '../../profile/bank-profile';
import { AccountReferenceDto } from '../../common/account-reference.dto';
import { IsDateOnly, MASKED_PAN, NestedObject, NestedObjects } from '../../common/validators';

const WHERE_OFFERED = onlyWhereOffered(TRUSTED_BENEFICIARIES);
const WHERE_CARDS = onlyWhereOffered(CARD_ACCOUNTS);

/**
 * An account a consent names: by IBAN; where the bank shows card accounts, a card account by its
 * masked PAN instead (docs/card-accounts.md). The served document says so there (card-accounts-document.ts).
 */
export class ConsentAccountReferenceDto extends AccountReferenceDto {
  // A masked PAN sent as null counts as absent (class-validator's IsOptional lets null through).
  @ValidateIf((reference: ConsentAccountReferenceDto) => reference.maskedPan == null, WHERE_CARDS)
  declare iban: string;

  @IsOptional(WHERE_CARDS)
  @Matches(MASKED_PAN, { message: '$property must be a masked PAN: the first six and the last four digits, x between', ...WHERE_CARDS })
  maskedPan?: string;
}

/** Berlin Group's additional information of a consent: here its trusted beneficiaries, where the bank lists them (docs/trusted-beneficiaries.md). */
export class AdditionalInformationAccessDto {
  @ApiPropertyOptional({ type: [AccountReferenceDto], example: [{ iban: 'AT439900000000010017' }], description: 'the accounts whose trusted beneficiaries the TPP may list; empty: every account of the consent' })
  @IsOptional(WHERE_OFFERED)
  @IsArray(WHERE_OFFERED)
  @ValidateNested({ each: true, ...WHERE_OFFERED })
  @IsObject({ each: true, message: 'each item of $property must be an object', ...WHERE_OFFERED })
  @Type(() => AccountReferenceDto)
  trustedBeneficiaries?: AccountReferenceDto[];
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

  // Left out of the served document where the bank does not list trusted beneficiaries (trusted-beneficiaries-document.ts).
  @ApiPropertyOptional({ type: AdditionalInformationAccessDto })
  @IsOptional(WHERE_OFFERED)
  @ValidateNested(WHERE_OFFERED)
  @IsObject({ message: '$property must be an object', ...WHERE_OFFERED })
  @Type(() => AdditionalInformationAccessDto)
  additionalInformation?: AdditionalInformationAccessDto;
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
