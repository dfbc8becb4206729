import { ApiProperty } from '@nestjs/swagger';
import { Consent, fundsAccountOf } from '../../consent/consent.entity';
import type { ConsentStatus } from '../../consent/consent.machine';
import { AccountReferenceResponse, CONSENT_STATUSES, toAccountReferenceResponse } from '../../consent/dto/consent-response.dto';

/** A consent for the confirmation of funds as Berlin Group's PIIS consent 2.0 shows it. */
export class FundsConsentResponse {
  @ApiProperty({ type: AccountReferenceResponse })
  account: AccountReferenceResponse;

  @ApiProperty({ type: String, nullable: true, example: '1234567891234' })
  cardNumber: string | null;

  @ApiProperty({ type: String, nullable: true, example: '2030-12-31' })
  cardExpiryDate: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'MyMerchant Loyalty Card' })
  cardInformation: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Your contract 1234 with MyMerchant' })
  registrationInformation: string | null;

  @ApiProperty({ enum: CONSENT_STATUSES, example: 'valid' })
  consentStatus: ConsentStatus;
}

export function toFundsConsentResponse(consent: Consent): FundsConsentResponse {
  return { account: toAccountReferenceResponse(fundsAccountOf(consent)), ...consent.card!, consentStatus: consent.status };
}
