import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { AisRequest, ConsentedRequest, RequiresConsent } from '../consent/consent.guard';
import { AccountReferenceResponse, toAccountReferenceResponse } from '../consent/dto/consent-response.dto';
import { Xs2aController } from '../http/controller.decorator';
import type { TrustedBeneficiary } from './trusted-beneficiary.entity';
import { TrustedBeneficiaries } from './trusted-beneficiaries.service';

export class TrustedBeneficiaryResponse {
  @ApiProperty({ example: 'tb-georg-stadtwerke' })
  trustedBeneficiaryId: string;

  @ApiProperty({
    type: AccountReferenceResponse,
    nullable: true,
    description: 'the account it is trusted for; null: every account of the holder',
  })
  debtorAccount: AccountReferenceResponse | null;

  @ApiProperty({ type: AccountReferenceResponse })
  creditorAccount: AccountReferenceResponse;

  @ApiProperty({ type: String, nullable: true, example: 'STWMDEM1XXX' })
  creditorAgent: string | null;

  @ApiProperty({ example: 'Stadtwerke Musterstadt GmbH' })
  creditorName: string;

  @ApiProperty({ type: String, nullable: true, example: 'Electricity' })
  creditorAlias: string | null;
}

export class TrustedBeneficiariesResponse {
  @ApiProperty({ type: [TrustedBeneficiaryResponse] })
  trustedBeneficiaries: TrustedBeneficiaryResponse[];
}

const toResponse = ({
  trustedBeneficiaryId,
  debtorIban,
  creditorIban,
  creditorAgent,
  creditorName,
  creditorAlias,
}: TrustedBeneficiary): TrustedBeneficiaryResponse => ({
  trustedBeneficiaryId,
  debtorAccount: debtorIban === null ? null : toAccountReferenceResponse({ iban: debtorIban, currency: null }),
  creditorAccount: toAccountReferenceResponse({ iban: creditorIban, currency: null }),
  creditorAgent,
  creditorName,
  creditorAlias,
});

/** Berlin Group's list of trusted beneficiaries, where the profile offers it (docs/trusted-beneficiaries.md). */
@ApiTags('Account information')
@Xs2aController('trusted-beneficiaries', 'PSP_AI')
export class TrustedBeneficiariesController {
  constructor(private readonly trusted: TrustedBeneficiaries) {}

  @Get()
  @RequiresConsent('details')
  @ApiOperation({
    summary:
      "The payees the holder trusts, of the accounts the consent's additionalInformation.trustedBeneficiaries names (CONSENT_INVALID where it names none)",
  })
  @ApiOkResponse({ type: TrustedBeneficiariesResponse })
  async list(@ConsentedRequest() { consent, world }: AisRequest): Promise<TrustedBeneficiariesResponse> {
    return { trustedBeneficiaries: (await this.trusted.listedFor(consent, world)).map(toResponse) };
  }
}
