import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = { properties?: Record<string, { enum?: string[]; description?: string }> };

/**
 * The served document says what the profile does with trusted beneficiaries (docs/trusted-beneficiaries.md):
 * where the bank does not list them, the request fields that ask for them are left out (the
 * validation pipe strips them unread); where it exempts payments to them, an initiation may answer
 * the status the payment moved on to.
 */
export function documentTrustedBeneficiaries(document: OpenAPIObject, { listed, exempted }: { listed: boolean; exempted: boolean }): void {
  const schemas = document.components!.schemas as Record<string, Schema>;
  if (!listed) {
    delete schemas.ConsentAccessDto.properties!.additionalInformation;
    // With SANDBOX_CONTROL=false there are no scenarios to document.
    delete schemas.CreateScenarioDto?.properties?.trustedBeneficiaries;
    delete schemas.AdditionalInformationAccessDto;
    delete schemas.ScenarioTrustedBeneficiaryDto;
  }
  if (listed && exempted) {
    const status = schemas.PaymentInitiationResponse.properties!.transactionStatus;
    status.enum = [...status.enum!, 'ACSP', 'PDNG', 'RJCT'];
    status.description =
      'a payment to trusted beneficiaries is exempted from SCA: it moved on at once (ACSP, PDNG, RJCT), with no SCA links';
  }
}
