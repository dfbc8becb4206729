import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import type { Payment } from '../payment-initiation/payment.entity';
import type { PaymentStatus } from '../payment-initiation/payment.machine';

/** One creditor's Verification of Payee result (Berlin Group 1.3.16, docs/verification-of-payee.md). */
export class VopStatus {
  @ApiPropertyOptional({ example: 'E2E-2026-0001', description: "the creditor's endToEndIdentification, where it has one" })
  originalEndToEndId?: string;

  @ApiProperty({
    enum: ['RCVC', 'RVCM', 'RVNC'],
    example: 'RVCM',
    description: "this creditor's check: RCVC matched, RVCM the payer must confirm, RVNC its bank did not answer",
  })
  transactionStatus: PaymentStatus;

  @ApiProperty({ enum: ['MTCH', 'CMTC', 'NMTC', 'NOAP'], example: 'CMTC' })
  creditorNameMatch: string;

  @ApiPropertyOptional({ example: 'Georg Mustermann', maxLength: 140, description: 'CMTC only: the name registered for the account' })
  matchedCreditorName?: string;
}

/**
 * The block as the 1.3.16 yaml types it in an authorisation's answers: one object, the payment's one
 * creditor; a bulk of several creditors has it in its initiation and status answers only
 * (docs/verification-of-payee.md).
 */
export function authorisationVopBlockOf(payment: Pick<Payment, 'vopResults' | 'body'>): {
  originalTransactionInformationAndVopStatus?: VopStatus;
} {
  const results = vopBlockOf(payment).originalTransactionInformationAndVopStatus;
  return results?.length === 1 ? { originalTransactionInformationAndVopStatus: results[0] } : {};
}

export const VOP_BLOCK: ApiPropertyOptions = {
  type: [VopStatus],
  description: 'when the payee was checked: each creditor, in the order of the body',
};

/** The Verification of Payee block of a checked payment: each creditor's result, by its own outcome. */
export function vopBlockOf({ vopResults, body }: Pick<Payment, 'vopResults' | 'body'>): {
  originalTransactionInformationAndVopStatus?: VopStatus[];
} {
  if (vopResults === null) return {};
  const entries: { endToEndIdentification?: string }[] = 'payments' in body ? body.payments : [body];
  return {
    originalTransactionInformationAndVopStatus: vopResults.map(({ creditorNameMatch, matchedCreditorName, unreachable }, index) => ({
      ...(entries[index].endToEndIdentification === undefined ? {} : { originalEndToEndId: entries[index].endToEndIdentification }),
      transactionStatus: unreachable ? 'RVNC' : creditorNameMatch === 'MTCH' ? 'RCVC' : 'RVCM',
      creditorNameMatch,
      ...(matchedCreditorName === undefined ? {} : { matchedCreditorName }),
    })),
  };
}
