import type { OpenAPIObject } from '@nestjs/swagger';
import { PaymentInitiationResponse } from '../payment-initiation/dto/payment-response.dto';

type Schema = { properties?: Record<string, { enum?: string[]; description?: string }> };

/**
 * Where the bank exempts payments to trusted beneficiaries from SCA, the served document says that
 * an initiation may answer the status the payment moved on to (docs/trusted-beneficiaries.md).
 * Where it does not list them, the fields that ask for them are left out as every unoffered field
 * is (OfferedBy).
 */
export function documentTrustedBeneficiaries(document: OpenAPIObject, { listed, exempted }: { listed: boolean; exempted: boolean }): void {
  if (!listed || !exempted) return;
  const schemas = document.components!.schemas as Record<string, Schema>;
  const status = schemas[PaymentInitiationResponse.name].properties!.transactionStatus;
  status.enum = [...status.enum!, 'ACSP', 'PDNG', 'RJCT'];
  status.description = 'a payment to trusted beneficiaries is exempted from SCA: it moved on at once (ACSP, PDNG, RJCT), with no SCA links';
}
