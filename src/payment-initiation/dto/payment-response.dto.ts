import { ApiProperty } from '@nestjs/swagger';
import { href, Href } from '../../common/links';
import type { Payment } from '../payment.entity';
import type { PaymentStatus } from '../payment.machine';
import { BulkPaymentDto } from './bulk-payment.dto';
import { CrossBorderCreditTransferDto } from './cross-border-credit-transfer.dto';
import { PeriodicPaymentDto } from './periodic-payment.dto';
import { InstantSepaCreditTransferDto, SepaCreditTransferDto } from './sepa-credit-transfer.dto';

const STATUSES = ['RCVD', 'PDNG', 'ACSP', 'RJCT', 'CANC'];
const PAYMENT = '/v1/payments/sepa-credit-transfers/3d9a81b3-a47d-4130-8765-a9c0ff861b99';

/** The request body class of each service and product: what is validated, stored and echoed. */
export const PAYMENT_BODY_TYPES = {
  'payments/sepa-credit-transfers': SepaCreditTransferDto,
  'payments/instant-sepa-credit-transfers': InstantSepaCreditTransferDto,
  'payments/cross-border-credit-transfers': CrossBorderCreditTransferDto,
  'bulk-payments/sepa-credit-transfers': BulkPaymentDto,
  'periodic-payments/sepa-credit-transfers': PeriodicPaymentDto,
} as const;

export class PaymentLinks {
  @ApiProperty({ type: Href, example: { href: 'http://localhost:3000/sca/payments?payment_id=3d9a81b3-a47d-4130-8765-a9c0ff861b99&service=payments&product=sepa-credit-transfers' } })
  scaRedirect: Href;

  @ApiProperty({ type: Href, example: { href: PAYMENT } })
  self: Href;

  @ApiProperty({ type: Href, example: { href: `${PAYMENT}/status` } })
  status: Href;

  @ApiProperty({ type: Href, example: { href: `${PAYMENT}/authorisations/authorization_not_yet_available` } })
  scaStatus: Href;
}

export class PaymentInitiationResponse {
  @ApiProperty({ enum: ['RCVD'], example: 'RCVD' })
  transactionStatus: PaymentStatus;

  @ApiProperty({ format: 'uuid', example: '3d9a81b3-a47d-4130-8765-a9c0ff861b99' })
  paymentId: string;

  @ApiProperty({ type: 'array', items: { type: 'object' }, example: [] })
  scaMethods: never[];

  @ApiProperty({ type: PaymentLinks })
  _links: PaymentLinks;

  @ApiProperty({ type: 'array', items: { type: 'object' }, example: [] })
  tppMessages: never[];
}

export class PaymentStatusResponse {
  @ApiProperty({ enum: STATUSES, example: 'ACSP' })
  transactionStatus: PaymentStatus;
}

export class CancellationLinks {
  @ApiProperty({ type: Href, example: { href: 'cancellation_authorisation_not_available' } })
  startAuthorisation: Href;
}

export class CancellationResponse {
  @ApiProperty({ enum: ['PDNG', 'ACSP'], example: 'PDNG', description: 'PDNG, or ACSP for a periodic payment with instalments to come' })
  transactionStatus: PaymentStatus;

  @ApiProperty({ type: 'array', items: { type: 'object' }, example: [] })
  scaMethods: never[];

  @ApiProperty({ type: CancellationLinks })
  _links: CancellationLinks;
}

export function toInitiationResponse({ id, service, product, status }: Payment, scaRedirect: Href): PaymentInitiationResponse {
  const self = `/v1/${service}/${product}/${id}`;
  return {
    transactionStatus: status,
    paymentId: id,
    scaMethods: [],
    _links: {
      scaRedirect,
      self: href(self),
      status: href(`${self}/status`),
      scaStatus: href(`${self}/authorisations/authorization_not_yet_available`),
    },
    tppMessages: [],
  };
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
      ...Object.fromEntries(echoedFields(type).map((field) => [field, { description: `as accepted (see the request schema ${type.name}), or null where not sent` }])),
      transactionStatus: { type: 'string', enum: STATUSES },
    },
  })),
};

/** Every initiation field of the product, as accepted (null where not sent), then the status. */
export function toPaymentResponse({ service, product, body, status }: Payment): Record<string, unknown> {
  const fields = echoedFields(PAYMENT_BODY_TYPES[`${service}/${product}` as keyof typeof PAYMENT_BODY_TYPES]);
  const echoed = body as unknown as Record<string, unknown>;
  return { ...Object.fromEntries(fields.map((field) => [field, echoed[field] ?? null])), transactionStatus: status };
}

/** The sandbox cannot authorise a cancellation yet: the link is the bank's fixed text. */
export function toCancellationResponse(status: PaymentStatus): CancellationResponse {
  return { transactionStatus: status, scaMethods: [], _links: { startAuthorisation: href('cancellation_authorisation_not_available') } };
}
