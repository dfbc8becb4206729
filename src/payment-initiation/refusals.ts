import type { PaymentBody } from './payment-terms';
import type { RejectionReason } from './payment.machine';

/**
 * Creditor accounts the bank refuses to pay, one per ISO 20022 reason (docs/failures.md): a
 * payment to any of them is rejected (RJCT) when the holder authorises it, with the reason on its
 * status. Valid IBANs of the sandbox's bank code, so that they pass every format check.
 */
export const REFUSED_CREDITORS: Record<string, { reason: RejectionReason; meaning: string }> = {
  AT899900009990000001: { reason: 'AC01', meaning: 'the creditor account number is wrong' },
  AT629900009990000002: { reason: 'AC04', meaning: 'the creditor account is closed' },
  AT359900009990000003: { reason: 'AC06', meaning: 'the creditor account is blocked' },
  AT089900009990000004: { reason: 'AM04', meaning: 'insufficient funds' },
  AT789900009990000005: { reason: 'MS03', meaning: 'the reason is not specified' },
};

/** The first refused creditor of a payment, entries of a bulk in order; null when it pays none. */
export function refusalOf(body: PaymentBody): RejectionReason | null {
  const creditors = 'payments' in body ? body.payments.map((entry) => entry.creditorAccount.iban) : [body.creditorAccount.iban];
  return creditors.map((iban) => REFUSED_CREDITORS[iban]?.reason).find((reason) => reason !== undefined) ?? null;
}

/** Reasons no creditor account stands for: a booking would take a balance beyond the ceiling (docs/living-bank.md, "Ceiling"). */
const OTHER_REASONS: Partial<Record<RejectionReason, string>> = {
  AM02: 'the amount would take a balance beyond what an account holds',
};

/** What the payment status says of a reason (psuMessage). */
export const rejectionMessage = (reason: RejectionReason): string =>
  `Rejected (${reason}): ${OTHER_REASONS[reason] ?? Object.values(REFUSED_CREDITORS).find((refusal) => refusal.reason === reason)!.meaning}.`;
