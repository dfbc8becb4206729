import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsIban } from '../common/validators';
import { FIELD_SERVICES, whereOffered } from '../core/offered-by';
import type { ScenarioPart } from '../core/sandbox-service';
import { optionalList } from '../http/validation.pipe';

/**
 * Trusted beneficiaries' group: the fields of other features' requests it offers (a consent's
 * additionalInformation, a scenario's trusted payees) are read only where the bank lists them
 * (docs/trusted-beneficiaries.md).
 */
export const TRUSTED_BENEFICIARIES = FIELD_SERVICES.trustedBeneficiaries;
const WHERE_OFFERED = whereOffered(TRUSTED_BENEFICIARIES);

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
export const SCENARIO_FIELD: Pick<ScenarioPart, 'field' | 'request'> = {
  field: 'trustedBeneficiaries',
  request: optionalList(
    ScenarioTrustedBeneficiaryDto,
    100,
    "payees the holder trusts for all the scenario's accounts; its consent may then list them",
  ),
};
