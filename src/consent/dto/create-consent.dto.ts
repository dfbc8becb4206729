import { EXAMPLE } from '../../common/document-examples';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { AccountReferenceDto } from '../../common/account-reference.dto';
import { IsCurrency, IsDateOnly, IsIban, MASKED_PAN, NestedObject, NestedObjects } from '../../common/validators';
import { FIELD_SERVICES, OfferedBy, WhereOffered } from '../../core/offered-by';

/**
 * An account a consent names: by IBAN as any account reference, or where the bank shows card
 * accounts, a card by its masked PAN instead (docs/card-accounts.md). The served document shows
 * AccountReferenceDto, or the card service's one of the two (card-accounts-document.ts).
 */
export class ConsentAccountReferenceDto {
  // A masked PAN sent as null counts as absent (class-validator's IsOptional lets null through).
  @WhereOffered(FIELD_SERVICES.cardAccounts, (where) => [
    ValidateIf((reference: ConsentAccountReferenceDto) => reference.maskedPan == null, where),
  ])
  @IsIban()
  iban: string;

  @IsOptional()
  @IsCurrency()
  currency?: string;

  @OfferedBy(FIELD_SERVICES.cardAccounts, (where) => [
    IsOptional(where),
    Matches(MASKED_PAN, { message: '$property must be a masked PAN: the first six and the last four digits, x between', ...where }),
  ])
  maskedPan?: string;
}

/** Berlin Group's additional information of a consent: here its trusted beneficiaries (docs/trusted-beneficiaries.md). */
export class AdditionalInformationAccessDto {
  @ApiPropertyOptional({
    type: [AccountReferenceDto],
    example: [{ iban: EXAMPLE.creditorIban }],
    description: 'the accounts whose trusted beneficiaries the TPP may list; empty: every account of the consent',
  })
  @IsOptional()
  @IsArray()
  @NestedObjects(() => AccountReferenceDto)
  trustedBeneficiaries?: AccountReferenceDto[];
}

const ALL_ACCOUNTS = ['allAccounts', 'allAccountsWithOwnerName'] as const;

/** What a consent asks for (docs/behaviour.md, "Consent access"): the lists' and the all-accounts requests' meaning is the profile's (consents.access). */
export class ConsentAccessDto {
  @ApiPropertyOptional({
    type: [AccountReferenceDto],
    example: [{ iban: EXAMPLE.iban }],
    description: "Berlin Group's access rules (consents.access: berlin-group): the accounts' details only; the seed bank's rules ignore it",
  })
  @IsOptional()
  @IsArray()
  @NestedObjects(() => ConsentAccountReferenceDto)
  accounts?: ConsentAccountReferenceDto[] | null;

  @ApiPropertyOptional({ type: [AccountReferenceDto], example: [{ iban: EXAMPLE.iban }] })
  @IsOptional()
  @IsArray()
  @NestedObjects(() => ConsentAccountReferenceDto)
  balances?: ConsentAccountReferenceDto[] | null;

  @ApiPropertyOptional({ type: [AccountReferenceDto], example: [] })
  @IsOptional()
  @IsArray()
  @NestedObjects(() => ConsentAccountReferenceDto)
  transactions?: ConsentAccountReferenceDto[] | null;

  @ApiPropertyOptional({
    enum: ALL_ACCOUNTS,
    description:
      "every account the holder has: the seed bank's rules grant every service on them (and ignore the lists), Berlin Group's their details only",
  })
  @IsOptional()
  @IsIn(ALL_ACCOUNTS)
  availableAccounts?: (typeof ALL_ACCOUNTS)[number];

  @ApiPropertyOptional({
    enum: ALL_ACCOUNTS,
    description: "every account the holder has with its balances (Berlin Group's rules); the seed bank's: as availableAccounts",
  })
  @IsOptional()
  @IsIn(ALL_ACCOUNTS)
  availableAccountsWithBalance?: (typeof ALL_ACCOUNTS)[number];

  @ApiPropertyOptional({
    enum: ALL_ACCOUNTS,
    description: "every service on every account the holder has; the seed bank's rules: as availableAccounts",
  })
  @IsOptional()
  @IsIn(ALL_ACCOUNTS)
  allPsd2?: (typeof ALL_ACCOUNTS)[number];

  @ApiPropertyOptional({ type: AdditionalInformationAccessDto })
  @OfferedBy(FIELD_SERVICES.trustedBeneficiaries, (where) => [
    IsOptional(where),
    ValidateNested(where),
    IsObject({ message: '$property must be an object', ...where }),
    Type(() => AdditionalInformationAccessDto),
  ])
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

  @ApiPropertyOptional({
    example: false,
    description:
      "whether the session also initiates a payment; required by Berlin Group's access rules (consents.access: berlin-group); the sandbox stores no combined session",
  })
  @IsOptional()
  @IsBoolean()
  combinedServiceIndicator?: boolean;

  @ApiProperty({
    example: EXAMPLE.date(90),
    description:
      "last day of validity, not before today; a later date is cut down to the bank's longest validity (this document's introduction)",
  })
  @IsDateOnly()
  validUntil: string;

  // No upper bound of 4 (the Berlin Group default): the bank accepts more. The maximum only keeps
  // the value exact and inside an integer column on every database.
  @ApiProperty({
    example: 4,
    minimum: 1,
    maximum: 2147483647,
    description: "a higher frequency is cut down to the bank's maximum, where it has one (this document's introduction)",
  })
  @IsInt()
  @Min(1)
  @Max(2147483647)
  frequencyPerDay: number;
}
