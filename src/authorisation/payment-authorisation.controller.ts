import { Body, Param, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthorisationListResponse, ScaStatusResponse, ScaStepResponse, StartAuthorisationResponse } from './authorisation-response.dto';
import {
  AuthorisationRoutes,
  ListAuthorisationsRoute,
  ScaStatusRoute,
  StartAuthorisationRoute,
  UpdatePsuDataRoute,
} from './authorisation-routes.decorator';
import { TppErrorResponse } from '../http/error-response.dto';
import { ScaHeaders, ScaRequestHeaders } from '../http/sca-headers.decorator';
import { RequestWorld, World } from '../world/world';
import { PaymentInitiationService } from '../payment-initiation/payment-initiation.service';
import type { PaymentType } from '../payment-initiation/payment.entity';
import {
  AuthorisationKindSegment,
  PaymentController,
  PaymentRoute,
  underEveryService,
} from '../payment-initiation/payment-route.decorator';
import { AuthorisationFlow, AuthorisedResource } from '../sca/authorisation-flow.service';
import { UpdatePsuDataDto } from '../sca/update-psu-data.dto';
import { authorisationVopBlockOf } from '../verification-of-payee/vop-status.dto';

/** The two kinds of authorisation a payment has, by the path segment of each. */
const KINDS = { authorisations: 'payment', 'cancellation-authorisations': 'cancellation' } as const;
type KindSegment = keyof typeof KINDS;
const PAYMENT_UNKNOWN = {
  status: 404,
  type: TppErrorResponse,
  description: 'PRODUCT_UNKNOWN; RESOURCE_UNKNOWN: no such payment under this product, or no such authorisation',
};

const ROUTES: AuthorisationRoutes = {
  paths: (suffix) => Object.keys(KINDS).flatMap((segment) => underEveryService(`:product/:paymentId/${segment}${suffix}`)),
  params: [
    { name: 'product', description: 'the payment product' },
    { name: 'paymentId', example: '3d9a81b3-a47d-4130-8765-a9c0ff861b99' },
  ],
  summaries: {
    start:
      'Start an authorisation of a RCVD payment (authorisations) or of the cancellation of a PDNG one (cancellation-authorisations); embedded: may carry the password',
    list: 'List the authorisations, or the cancellation authorisations, of a payment',
    scaStatus:
      "Read the SCA status of a payment's authorisation or cancellation authorisation (decoupled: poll it until finalised or failed)",
    update:
      "Update PSU data on a payment's authorisation or cancellation authorisation (embedded: password, method, TAN; decoupled: the PSU-ID)",
  },
  unknown: [PAYMENT_UNKNOWN],
  startRefused: [
    {
      status: 405,
      type: TppErrorResponse,
      description: 'SERVICE_INVALID: a cancellation authorisation of an instant payment, which can never be cancelled',
    },
    {
      status: 409,
      type: TppErrorResponse,
      description:
        'STATUS_INVALID: the payment is not RCVD (authorisations) or not PDNG nor a periodic payment with instalments to come (cancellation-authorisations)',
    },
  ],
  authorisationUnknown: [],
};

/** The authorisation and cancellation-authorisation sub-resources of a payment, under every service (docs/sca-approaches.md). */
@ApiTags('Payment initiation')
@PaymentController()
export class PaymentAuthorisationController {
  constructor(
    private readonly flow: AuthorisationFlow,
    private readonly payments: PaymentInitiationService,
  ) {}

  @StartAuthorisationRoute(ROUTES)
  start(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @AuthorisationKindSegment() segment: KindSegment,
    @Body() body: UpdatePsuDataDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<StartAuthorisationResponse> {
    return this.flow.start(this.payment(type, paymentId, segment, world), body, headers, response, world);
  }

  @ListAuthorisationsRoute(ROUTES)
  list(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @AuthorisationKindSegment() segment: KindSegment,
    @RequestWorld() world: World,
  ): Promise<AuthorisationListResponse> {
    return this.flow.list(this.payment(type, paymentId, segment, world));
  }

  @ScaStatusRoute(ROUTES)
  scaStatus(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @AuthorisationKindSegment() segment: KindSegment,
    @Param('authorisationId') authorisationId: string,
    @RequestWorld() world: World,
  ): Promise<ScaStatusResponse> {
    return this.flow.scaStatus(this.payment(type, paymentId, segment, world), authorisationId, world);
  }

  @UpdatePsuDataRoute(ROUTES)
  update(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @AuthorisationKindSegment() segment: KindSegment,
    @Param('authorisationId') authorisationId: string,
    @Body() body: UpdatePsuDataDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<ScaStepResponse> {
    return this.flow.update(this.payment(type, paymentId, segment, world), authorisationId, body, headers, response, world);
  }

  private payment(type: PaymentType, paymentId: string, segment: KindSegment, world: World): AuthorisedResource {
    const kind = KINDS[segment];
    return {
      target: { kind, resourceId: paymentId },
      path: `/v1/${type.service}/${type.product}/${paymentId}/${segment}`,
      page: {
        name: kind === 'payment' ? 'payments' : 'payments/cancellation',
        query: { payment_id: paymentId, service: type.service, product: type.product },
      },
      open: (request) => this.payments.startAuthorisation(type, paymentId, kind, request, world),
      ids: () => this.payments.authorisationIds(type, paymentId, kind, world),
      find: (authorisationId) => this.payments.findAuthorisation(type, paymentId, kind, authorisationId, world),
      // The payee result a payment's authorisation answers repeat, as the 1.3.16 yaml places and types it (docs/verification-of-payee.md).
      also: async () => (kind === 'payment' ? authorisationVopBlockOf(await this.payments.findById(paymentId, world)) : {}),
    };
  }
}
