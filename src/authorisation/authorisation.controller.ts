import { Body, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthorisationListResponse, ScaStatusResponse, ScaStepResponse, StartAuthorisationResponse } from './authorisation-response.dto';
import { scaRedirectHref } from '../common/links';
import { AuthorisationService } from './authorisation.service';
import { Environment } from '../config/environment';
import { announceCreated } from '../http/created-resource';
import { CreatesInBerlinGroup } from '../http/berlin-group-profile';
import { TppErrorResponse } from '../http/error-response.dto';
import { Xs2aController } from '../http/request.guard';
import { announceApproach, ApiScaRequestHeaders, SCA_APPROACH_HEADER, ScaHeaders, ScaRequestHeaders } from '../http/sca-headers.decorator';
import { World, RequestWorld } from '../oauth/world';
import { PaymentInitiationService } from '../payment-initiation/payment-initiation.service';
import type { PaymentType } from '../payment-initiation/payment.entity';
import {
  AuthorisationKindSegment,
  PaymentController,
  PaymentRoute,
  underEveryService,
} from '../payment-initiation/payment-route.decorator';
import { ScaService } from '../sca/sca.service';
import { UpdatePsuDataDto } from '../sca/update-psu-data.dto';
import { authorisationVopBlockOf } from '../verification-of-payee/vop-status.dto';
import {
  AUTHORISATION_ID,
  ConsentAuthorisationRoutes,
  orNone,
  scaStatusAnswer,
  startAnswer,
  StepErrors,
} from './authorisation-routes.decorator';

@ApiTags('Consents')
@Xs2aController('consents', 'PSP_AI')
export class ConsentAuthorisationController extends ConsentAuthorisationRoutes {
  protected readonly purpose = 'ais';
}

/** The two kinds of authorisation a payment has, by the path segment of each. */
const KINDS = { authorisations: 'payment', 'cancellation-authorisations': 'cancellation' } as const;
type KindSegment = keyof typeof KINDS;
const underEveryKind = (suffix = '') =>
  Object.keys(KINDS).flatMap((segment) => underEveryService(`:product/:paymentId/${segment}${suffix}`));
const PRODUCT = { name: 'product', description: 'the payment product' };
const PAYMENT_ID = { name: 'paymentId', example: '3d9a81b3-a47d-4130-8765-a9c0ff861b99' };
const PAYMENT_UNKNOWN = {
  status: 404,
  type: TppErrorResponse,
  description: 'PRODUCT_UNKNOWN; RESOURCE_UNKNOWN: no such payment under this product, or no such authorisation',
};

/** The authorisation and cancellation-authorisation sub-resources of a payment, under every service (docs/sca-approaches.md). */
@ApiTags('Payment initiation')
@PaymentController()
export class PaymentAuthorisationController {
  constructor(
    private readonly sca: ScaService,
    private readonly payments: PaymentInitiationService,
    private readonly authorisations: AuthorisationService,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  @Post(underEveryKind())
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Start an authorisation of a RCVD payment (authorisations) or of the cancellation of a PDNG one (cancellation-authorisations); embedded: may carry the password',
  })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiScaRequestHeaders()
  @ApiBody({ type: UpdatePsuDataDto, required: false })
  @ApiResponse({ status: 201, type: StartAuthorisationResponse, headers: SCA_APPROACH_HEADER })
  @ApiResponse(PAYMENT_UNKNOWN)
  @ApiResponse({
    status: 405,
    type: TppErrorResponse,
    description: 'SERVICE_INVALID: a cancellation authorisation of an instant payment, which can never be cancelled',
  })
  @ApiResponse({
    status: 409,
    type: TppErrorResponse,
    description:
      'STATUS_INVALID: the payment is not RCVD (authorisations) or not PDNG nor a periodic payment with instalments to come (cancellation-authorisations)',
  })
  @CreatesInBerlinGroup()
  async start(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @AuthorisationKindSegment() segment: KindSegment,
    @Body() body: UpdatePsuDataDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<StartAuthorisationResponse> {
    const kind = KINDS[segment];
    const request = await this.authorisations.requestOf(headers, { kind, resourceId: paymentId });
    const open = () => this.payments.startAuthorisation(type, paymentId, kind, request, world);
    const authorisation = await this.sca.start({ kind, resourceId: paymentId }, open, body, request, world);
    const query = { payment_id: paymentId, service: type.service, product: type.product };
    const page = kind === 'payment' ? 'payments' : 'payments/cancellation';
    const scaRedirect = () =>
      scaRedirectHref(this.config.get('PUBLIC_BASE_URL', { infer: true }), page, query, headers.redirectUri ?? undefined);
    const answer = startAnswer(this.sca, authorisation, `/v1/${type.service}/${type.product}/${paymentId}/${segment}`, scaRedirect);
    return announceCreated(response, authorisation.approach, { ...answer, ...(await this.vopOf(kind, paymentId, world)) });
  }

  @Get(underEveryKind())
  @ApiOperation({ summary: 'List the authorisations, or the cancellation authorisations, of a payment' })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiOkResponse({ type: AuthorisationListResponse })
  @ApiResponse(PAYMENT_UNKNOWN)
  async list(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @AuthorisationKindSegment() segment: KindSegment,
    @RequestWorld() world: World,
  ): Promise<AuthorisationListResponse> {
    return { authorisationIds: await this.payments.authorisationIds(type, paymentId, KINDS[segment], world) };
  }

  @Get(underEveryKind('/:authorisationId'))
  @ApiOperation({
    summary:
      "Read the SCA status of a payment's authorisation or cancellation authorisation (decoupled: poll it until finalised or failed)",
  })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiParam(AUTHORISATION_ID)
  @ApiOkResponse({ type: ScaStatusResponse })
  @ApiResponse(PAYMENT_UNKNOWN)
  async scaStatus(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @AuthorisationKindSegment() segment: KindSegment,
    @Param('authorisationId') authorisationId: string,
    @RequestWorld() world: World,
  ): Promise<ScaStatusResponse> {
    const kind = KINDS[segment];
    const authorisation = await this.payments.findAuthorisation(type, paymentId, kind, authorisationId, world);
    return scaStatusAnswer(await this.sca.poll({ kind, resourceId: paymentId }, authorisation, world));
  }

  @Put(underEveryKind('/:authorisationId'))
  @ApiOperation({
    summary:
      "Update PSU data on a payment's authorisation or cancellation authorisation (embedded: password, method, TAN; decoupled: the PSU-ID)",
  })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiParam(AUTHORISATION_ID)
  @ApiScaRequestHeaders()
  @ApiBody({ type: UpdatePsuDataDto })
  @ApiOkResponse({ type: ScaStepResponse, headers: SCA_APPROACH_HEADER })
  @ApiResponse(PAYMENT_UNKNOWN)
  @StepErrors()
  async update(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @AuthorisationKindSegment() segment: KindSegment,
    @Param('authorisationId') authorisationId: string,
    @Body() body: UpdatePsuDataDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<ScaStepResponse> {
    const kind = KINDS[segment];
    const authorisation = await orNone(this.payments.findAuthorisation(type, paymentId, kind, authorisationId, world));
    const updated = await this.sca.update({ kind, resourceId: paymentId }, authorisation, body, headers.psuId, world);
    announceApproach(response, headers, updated.approach);
    const answer = this.sca.stepAnswer(updated, `/v1/${type.service}/${type.product}/${paymentId}/${segment}/${updated.id}`);
    return { ...answer, ...(await this.vopOf(kind, paymentId, world)) };
  }

  /** The payee result a payment's authorisation answers repeat, as the 1.3.16 yaml places and types it (docs/verification-of-payee.md). */
  private async vopOf(
    kind: 'payment' | 'cancellation',
    paymentId: string,
    world: World,
  ): Promise<ReturnType<typeof authorisationVopBlockOf>> {
    return kind === 'payment' ? authorisationVopBlockOf(await this.payments.findById(paymentId, world)) : {};
  }
}
