import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { AccountReferenceDto } from '../common/account-reference.dto';
import type { DeclaredField } from '../common/declare-field';
import { IsIban } from '../common/validators';
import { listWhereOffered, onlyWhereOffered } from '../http/validation.pipe';

/**
 * The fields trusted beneficiaries add to other features' requests (docs/trusted-beneficiaries.md),
 * read only where the bank lists them (the group TRUSTED_BENEFICIARIES); left out of the served
 * document elsewhere (trusted-beneficiaries-document.ts).
 */
export const TRUSTED_BENEFICIARIES = 'trustedBeneficiaries';
const WHERE_OFFERED = onlyWhereOffered(TRUSTED_BENEFICIARIES);

/** Berlin Group's additional information of a consent: here its trusted beneficiaries. */
export class AdditionalInformationAccessDto {
  @ApiPropertyOptional({
    type: [AccountReferenceDto],
    example: [{ iban: 'AT439900000000010017' }],
    description: 'the accounts whose trusted beneficiaries the TPP may list; empty: every account of the consent',
  })
  @IsOptional(WHERE_OFFERED)
  @IsArray(WHERE_OFFERED)
  @ValidateNested({ each: true, ...WHERE_OFFERED })
  @IsObject({ each: true, message: 'each item of $property must be an object', ...WHERE_OFFERED })
  @Type(() => AccountReferenceDto)
  trustedBeneficiaries?: AccountReferenceDto[];
}

/** A consent's access may ask for the list (access.additionalInformation.trustedBeneficiaries). */
export const CONSENT_FIELDS: DeclaredField[] = [
  {
    name: 'additionalInformation',
    decorators: [
      ApiPropertyOptional({ type: AdditionalInformationAccessDto }),
      IsOptional(WHERE_OFFERED),
      ValidateNested(WHERE_OFFERED),
      IsObject({ message: '$property must be an object', ...WHERE_OFFERED }),
      Type(() => AdditionalInformationAccessDto),
    ],
  },
];

/** A payee the scenario's holder trusts for every account of theirs (docs/trusted-beneficiaries.md). */
export class ScenarioTrustedBeneficiaryDto {
  @ApiProperty({ example: 'AT439900000000010017' })
  @IsIban(WHERE_OFFERED)
  creditorIban: string;

  @ApiProperty({ example: 'Georg Mustermann', maxLength: 70 })
  @IsString(WHERE_OFFERED)
  @IsNotEmpty(WHERE_OFFERED)
  @MaxLength(70, WHERE_OFFERED)
  creditorName: string;

  @ApiPropertyOptional({ example: 'Landlord', maxLength: 70 })
  @IsOptional(WHERE_OFFERED)
  @IsString(WHERE_OFFERED)
  @MaxLength(70, WHERE_OFFERED)
  creditorAlias?: string;
}

/** A scenario's trusted payees. */
export const SCENARIO_FIELDS: { request: DeclaredField } = {
  request: {
    name: 'trustedBeneficiaries',
    decorators: listWhereOffered(
      TRUSTED_BENEFICIARIES,
      ScenarioTrustedBeneficiaryDto,
      100,
      "payees the holder trusts for all the scenario's accounts; its consent may then list them",
    ),
  },
};
