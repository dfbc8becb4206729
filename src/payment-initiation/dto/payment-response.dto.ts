import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import type { Authorisation, ScaApproach } from '../../authorisation/authorisation.entity';
import { nextStepLinks, psuMessageOf, ScaLinks } from '../../authorisation/authorisation-response.dto';
import { href, Href } from '../../common/links';
import type { Payment } from '../payment.entity';
import { jsonTwinOf } from '../payment-products';
import type { AnswerHabits, AnswerStyle } from '../../common/answer-style';
import { IMPLICIT_AUTHORISATION_ID } from '../../authorisation/authorisation.service';
import { isAwaitingCreditorConfirmation, isAwaitingSca, PaymentStatus, RejectionReason } from '../payment.machine';
import { VOP_BLOCK, vopBlockOf, VopStatus } from '../../verification-of-payee/vop-status.dto';
import { rejectionMessage } from '../refusals';
import { BulkPaymentDto } from './bulk-payment.dto';
import { CrossBorderCreditTransferDto } from './cross-border-credit-transfer.dto';
import { PeriodicPaymentDto } from './periodic-payment.dto';
import { InstantSepaCreditTransferDto, SepaCreditTransferDto } from './sepa-credit-transfer.dto';

const STATUSES = ['RCVD', 'RCVC', 'RVCM', 'RVNC', 'PDNG', 'ACSP', 'RJCT', 'CANC'];
const PAYMENT = '/v1/payments/sepa-credit-transfers/3d9a81b3-a47d-4130-8765-a9c0ff861b99';

/** The request body class of each service and product: what is validated, stored and echoed. */
export const PAYMENT_BODY_TYPES = {
  'payments/sepa-credit-transfers': SepaCreditTransferDto,
  'payments/instant-sepa-credit-transfers': InstantSepaCreditTransferDto,
  'payments/cross-border-credit-transfers': CrossBorderCreditTransferDto,
  'bulk-payments/sepa-credit-transfers': BulkPaymentDto,
  'periodic-payments/sepa-credit-transfers': PeriodicPaymentDto,
} as const;

export class PaymentLinks extends OmitType(ScaLinks, ['scaRedirect', 'scaStatus']) {
  @ApiPropertyOptional({
    type: Href,
    description: "redirect (the bank's answer): the SCA page",
    example: {
      href: 'http://localhost:3000/sca/payments?payment_id=3d9a81b3-a47d-4130-8765-a9c0ff861b99&service=payments&product=sepa-credit-transfers',
    },
  })
  scaRedirect?: Href;

  @ApiProperty({ type: Href, example: { href: PAYMENT } })
  self: Href;

  @ApiProperty({ type: Href, example: { href: `${PAYMENT}/status` } })
  status: Href;

  @ApiPropertyOptional({
    type: Href,
    example: { href: `${PAYMENT}/authorisations/authorization_not_yet_available` },
    description: 'not in RVCM or RVNC',
  })
  scaStatus?: Href;

  @ApiPropertyOptional({
    type: Href,
    example: { href: `${PAYMENT}/creditor-confirmation` },
    description: 'RVCM, RVNC: PUT here to pay anyway (the only way on but DELETE)',
  })
  creditorNameConfirmation?: Href;

  // Only where the bank offers signing baskets (signing-baskets-document.ts).
  @ApiPropertyOptional({
    type: Href,
    example: { href: `${PAYMENT}/authorisations` },
    description: 'TPP-Explicit-Authorisation-Preferred: true: POST here to start the authorisation, or put the payment in a signing basket',
  })
  startAuthorisation?: Href;
}

export class PaymentInitiationResponse {
  @ApiProperty({ enum: ['RCVD', 'RCVC', 'RVCM', 'RVNC'], example: 'RCVD' })
  transactionStatus: PaymentStatus;

  @ApiProperty({ format: 'uuid', example: '3d9a81b3-a47d-4130-8765-a9c0ff861b99' })
  paymentId: string;

  @ApiPropertyOptional({ type: 'array', items: { type: 'object' }, example: [], description: 'not in RVCM or RVNC' })
  scaMethods?: never[];

  @ApiProperty({ type: PaymentLinks })
  _links: PaymentLinks;

  @ApiPropertyOptional({ example: 'Please confirm in your SandboxBank app.', description: 'decoupled: what the TPP shows the holder' })
  psuMessage?: string;

  @ApiPropertyOptional(VOP_BLOCK)
  originalTransactionInformationAndVopStatus?: VopStatus[];

  @ApiProperty({ type: 'array', items: { type: 'object' }, example: [] })
  tppMessages: never[];
}

export class CreditorConfirmationResponse {
  @ApiProperty({ enum: ['RCVC'], example: 'RCVC' })
  transactionStatus: PaymentStatus;

  @ApiProperty({ type: 'array', items: { type: 'object' }, example: [] })
  scaMethods: never[];

  @ApiProperty({ type: PaymentLinks })
  _links: PaymentLinks;

  @ApiPropertyOptional({ example: 'Please confirm in your SandboxBank app.', description: 'decoupled: what the TPP shows the holder' })
  psuMessage?: string;
}

export class PaymentStatusResponse {
  @ApiProperty({ enum: STATUSES, example: 'ACSP' })
  transactionStatus: PaymentStatus;

  @ApiPropertyOptional(VOP_BLOCK)
  originalTransactionInformationAndVopStatus?: VopStatus[];

  @ApiPropertyOptional({
    enum: ['AC01', 'AC04', 'AC06', 'AM02', 'AM04', 'MS03'],
    description:
      'RJCT by a refused creditor, by the funds rule (AM04) or by the ceiling of a balance (AM02; docs/failures.md): the ISO 20022 reason',
  })
  transactionStatusReason?: RejectionReason;

  @ApiPropertyOptional({
    example: 'Rejected (AC04): the creditor account is closed.',
    description: 'RJCT by a refused creditor: the reason in words',
  })
  psuMessage?: string;
}

export class CancellationLinks {
  @ApiPropertyOptional({
    type: Href,
    description:
      "redirect: the bank's fixed text cancellation_authorisation_not_available, no link (answers: bank); the link to start the cancellation authorisation (answers: berlin-group)",
    example: { href: 'cancellation_authorisation_not_available' },
  })
  startAuthorisation?: Href;

  @ApiPropertyOptional({
    type: Href,
    description: 'embedded: POST the password here',
    example: { href: `${PAYMENT}/cancellation-authorisations` },
  })
  startAuthorisationWithPsuAuthentication?: Href;

  @ApiPropertyOptional({
    type: Href,
    description: 'decoupled: POST here with the PSU-ID header',
    example: { href: `${PAYMENT}/cancellation-authorisations` },
  })
  startAuthorisationWithPsuIdentification?: Href;
}

export class CancellationResponse {
  @ApiProperty({ enum: ['PDNG', 'ACSP'], example: 'PDNG', description: 'PDNG, or ACSP for a periodic payment with instalments to come' })
  transactionStatus: PaymentStatus;

  @ApiProperty({ type: 'array', items: { type: 'object' }, example: [] })
  scaMethods: never[];

  @ApiProperty({ type: CancellationLinks })
  _links: CancellationLinks;
}

/**
 * The bank's answer, with the redirect page; for an embedded or decoupled authorisation, the link
 * to its next step instead, and (decoupled) what the holder is told (docs/sca-approaches.md).
 */
export function toInitiationResponse(
  payment: Payment,
  authorisation: Authorisation,
  scaRedirect: Href,
  habits: AnswerHabits,
): PaymentInitiationResponse {
  const { id, service, product, status } = payment;
  const self = `/v1/${service}/${product}/${id}`;
  const vop = vopBlockOf(payment);
  if (isAwaitingCreditorConfirmation(status)) {
    // No SCA link: the payer first confirms the payee (docs/verification-of-payee.md).
    const _links = { creditorNameConfirmation: href(`${self}/creditor-confirmation`), self: href(self), status: href(`${self}/status`) };
    return { transactionStatus: status, paymentId: id, _links, ...vop, tppMessages: [] };
  }
  const { transactionStatus, ...next } = toConfirmationResponse(payment, authorisation, scaRedirect, habits);
  return { transactionStatus, paymentId: id, ...next, ...vop, tppMessages: [] };
}

/**
 * A payment without an authorisation: exempted from SCA, it moved on at once and has no SCA to
 * link to (docs/trusted-beneficiaries.md); waiting for the TPP's explicit start, the link to start it
 * (docs/signing-baskets.md).
 */
export function toInitiationWithoutAuthorisation(payment: Payment): PaymentInitiationResponse {
  const self = `/v1/${payment.service}/${payment.product}/${payment.id}`;
  const start = isAwaitingSca(payment.status) ? { startAuthorisation: href(`${self}/authorisations`) } : {};
  return {
    transactionStatus: payment.status,
    paymentId: payment.id,
    _links: { ...start, self: href(self), status: href(`${self}/status`) },
    ...vopBlockOf(payment),
    tppMessages: [],
  };
}

/**
 * The status and the links of the SCA a payment waits for: the bank's redirect page; for an
 * embedded or decoupled authorisation the link to its next step instead, and (decoupled) what
 * the holder is told (docs/sca-approaches.md).
 */
export function toConfirmationResponse(
  { id, service, product, status }: Payment,
  authorisation: Authorisation,
  scaRedirect: Href,
  habits: AnswerHabits,
): CreditorConfirmationResponse {
  const self = `/v1/${service}/${product}/${id}`;
  const links = { self: href(self), status: href(`${self}/status`) };
  if (authorisation.approach === 'REDIRECT') {
    const named = habits.placeholderScaStatus ? IMPLICIT_AUTHORISATION_ID : authorisation.id;
    return {
      transactionStatus: status,
      scaMethods: [],
      _links: { scaRedirect, ...links, scaStatus: href(`${self}/authorisations/${named}`) },
    };
  }
  const { scaStatus, ...next } = nextStepLinks(authorisation, `${self}/authorisations/${authorisation.id}`);
  return { transactionStatus: status, scaMethods: [], _links: { ...next, ...links, scaStatus }, ...psuMessageOf(authorisation) };
}

/** The status; a payment a refused creditor rejected says why (docs/failures.md); a checked one, its payee results. */
export function toStatusResponse(payment: Payment): PaymentStatusResponse {
  const { status, reasonCode } = payment;
  const reason = reasonCode === null ? {} : { transactionStatusReason: reasonCode, psuMessage: rejectionMessage(reasonCode) };
  return { transactionStatus: status, ...reason, ...vopBlockOf(payment) };
}

/** The fields a product's payment object echoes, in order: DTO fields are own properties in declaration order (ES2022 class fields). */
const echoedFields = (type: (typeof PAYMENT_BODY_TYPES)[keyof typeof PAYMENT_BODY_TYPES]) => Object.keys(new type());

/**
 * The payment object of each product for the OpenAPI document: every field of its request schema,
 * as accepted or null, then transactionStatus. anyOf, because SEPA and instant differ by one field.
 */
export const PAYMENT_OBJECT_SCHEMA = {
  anyOf: Object.entries(PAYMENT_BODY_TYPES).map(([path, type]) => ({
    title: `payment object of ${path}`,
    type: 'object',
    additionalProperties: false,
    required: [...echoedFields(type), 'transactionStatus'],
    properties: {
      ...Object.fromEntries(
        echoedFields(type).map((field) => [
          field,
          { description: `as accepted (see the request schema ${type.name}), or null where not sent` },
        ]),
      ),
      transactionStatus: { type: 'string', enum: STATUSES },
      originalTransactionInformationAndVopStatus: {
        type: 'array',
        items: { $ref: '#/components/schemas/VopStatus' },
        description: VOP_BLOCK.description,
      },
    },
  })),
};

/** Every initiation field of the product, as accepted (null where not sent), then the status. */
export function toPaymentResponse(payment: Payment): Record<string, unknown> {
  const { service, product, body, status } = payment;
  const fields = echoedFields(PAYMENT_BODY_TYPES[`${service}/${jsonTwinOf(product)}` as keyof typeof PAYMENT_BODY_TYPES]);
  const echoed = body as unknown as Record<string, unknown>;
  return {
    ...Object.fromEntries(fields.map((field) => [field, echoed[field] ?? null])),
    transactionStatus: status,
    ...vopBlockOf(payment),
  };
}

/**
 * The link to start the cancellation's authorisation, named for the approach. The bank's redirect
 * answer carries its fixed text instead (its page is reached by starting one anyway); Berlin Group's
 * answers link the start, which a generated client follows (docs/profiles.md).
 */
export function toCancellationResponse(payment: Payment, approach: ScaApproach, answers: AnswerStyle): CancellationResponse {
  const start = `/v1/${payment.service}/${payment.product}/${payment.id}/cancellation-authorisations`;
  const links: Record<ScaApproach, CancellationLinks> = {
    REDIRECT: { startAuthorisation: href(answers === 'bank' ? 'cancellation_authorisation_not_available' : start) },
    EMBEDDED: { startAuthorisationWithPsuAuthentication: href(start) },
    DECOUPLED: { startAuthorisationWithPsuIdentification: href(start) },
  };
  return { transactionStatus: payment.status, scaMethods: [], _links: links[approach] };
}
