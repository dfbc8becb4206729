import { applyDecorators, Body, Delete, Get, HttpCode, Param, Post, Put, Res, Type } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiExcludeEndpoint,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import {
  AuthorisationListResponse,
  ScaStatusResponse,
  StartAuthorisationResponse,
  toStartAuthorisationResponse,
  updatePsuDataNotOffered,
} from '../authorisation/authorisation-response.dto';
import { Owner, RequestOwner } from '../oauth/owner';
import { CreatedResource } from '../http/created-resource.interceptor';
import { TppErrorResponse } from '../http/error-response.dto';
import { scaRedirectHref } from '../common/links';
import { TppRedirectUri } from '../http/tpp-redirect-uri.decorator';
import { RequiresPsuIpAddress, Xs2aController } from '../http/request.guard';
import { Environment } from '../config/environment';
import { BulkPaymentDto } from './dto/bulk-payment.dto';
import { CrossBorderCreditTransferDto } from './dto/cross-border-credit-transfer.dto';
import { PeriodicPaymentDto } from './dto/periodic-payment.dto';
import {
  CancellationResponse,
  PAYMENT_OBJECT_SCHEMA,
  PaymentInitiationResponse,
  PaymentStatusResponse,
  toCancellationResponse,
  toInitiationResponse,
  toPaymentResponse,
} from './dto/payment-response.dto';
import { InstantSepaCreditTransferDto, SepaCreditTransferDto } from './dto/sepa-credit-transfer.dto';
import { PaymentInitiationService } from './payment-initiation.service';
import { PAYMENT_PRODUCTS, PaymentType } from './payment-products';
import { AuthorisationKindSegment, PaymentRoute, productUnknown, underEveryService } from './payment-route.decorator';
import { PaymentBody } from './payment-terms';

const PAYMENT_ID = { name: 'paymentId', example: '3d9a81b3-a47d-4130-8765-a9c0ff861b99' };
// The payments service offers every product; the others offer a subset (404 PRODUCT_UNKNOWN otherwise).
const PRODUCT = { name: 'product', enum: [...PAYMENT_PRODUCTS.payments] };
const AUTHORISATION_ID = { name: 'authorisationId', description: 'an authorisation ID, or authorization_not_yet_available for the first one' };
/** The two kinds of authorisation a payment has, by the path segment of each. */
const KINDS = { authorisations: 'payment', 'cancellation-authorisations': 'cancellation' } as const;
type KindSegment = keyof typeof KINDS;
const underEveryKind = (suffix = '') => Object.keys(KINDS).flatMap((segment) => underEveryService(`:product/:paymentId/${segment}${suffix}`));
const PAYMENT_UNKNOWN = { status: 404, type: TppErrorResponse, description: 'PRODUCT_UNKNOWN; RESOURCE_UNKNOWN: no such payment under this product' };

/** The documentation and checks every initiation endpoint shares; `body` is its product's schema. */
function Initiation(summary: string, body: Type<PaymentBody>): MethodDecorator {
  return applyDecorators(
    HttpCode(200),
    RequiresPsuIpAddress(),
    ApiOperation({ summary }),
    ApiBody({ type: body }),
    ApiHeader({ name: 'TPP-Redirect-URI', required: false, description: 'echoed URL-encoded as redirectBackUrl in scaRedirect' }),
    ApiOkResponse({ type: PaymentInitiationResponse, description: 'stored, RCVD' }),
    CreatedResource(),
  );
}

@ApiTags('Payment initiation')
@Xs2aController('')
export class PaymentInitiationController {
  constructor(
    private readonly payments: PaymentInitiationService,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  @Post('payments/sepa-credit-transfers')
  @Initiation('Initiate a SEPA credit transfer', SepaCreditTransferDto)
  sepa(@Body() body: SepaCreditTransferDto, @TppRedirectUri() redirectUri: string | undefined, @RequestOwner() owner: Owner): Promise<PaymentInitiationResponse> {
    return this.initiate({ service: 'payments', product: 'sepa-credit-transfers' }, body, redirectUri, owner);
  }

  @Post('payments/instant-sepa-credit-transfers')
  @Initiation('Initiate an instant SEPA credit transfer', InstantSepaCreditTransferDto)
  instant(@Body() body: InstantSepaCreditTransferDto, @TppRedirectUri() redirectUri: string | undefined, @RequestOwner() owner: Owner): Promise<PaymentInitiationResponse> {
    return this.initiate({ service: 'payments', product: 'instant-sepa-credit-transfers' }, body, redirectUri, owner);
  }

  @Post('payments/cross-border-credit-transfers')
  @Initiation('Initiate a cross-border credit transfer', CrossBorderCreditTransferDto)
  crossBorder(@Body() body: CrossBorderCreditTransferDto, @TppRedirectUri() redirectUri: string | undefined, @RequestOwner() owner: Owner): Promise<PaymentInitiationResponse> {
    return this.initiate({ service: 'payments', product: 'cross-border-credit-transfers' }, body, redirectUri, owner);
  }

  @Post('bulk-payments/sepa-credit-transfers')
  @Initiation('Initiate a bulk of SEPA credit transfers', BulkPaymentDto)
  bulk(@Body() body: BulkPaymentDto, @TppRedirectUri() redirectUri: string | undefined, @RequestOwner() owner: Owner): Promise<PaymentInitiationResponse> {
    return this.initiate({ service: 'bulk-payments', product: 'sepa-credit-transfers' }, body, redirectUri, owner);
  }

  @Post('periodic-payments/sepa-credit-transfers')
  @Initiation('Initiate a periodic SEPA credit transfer', PeriodicPaymentDto)
  periodic(@Body() body: PeriodicPaymentDto, @TppRedirectUri() redirectUri: string | undefined, @RequestOwner() owner: Owner): Promise<PaymentInitiationResponse> {
    return this.initiate({ service: 'periodic-payments', product: 'sepa-credit-transfers' }, body, redirectUri, owner);
  }

  /** Any other product of a known service; declared after the five above, which Express tries first. */
  @Post(underEveryService(':product'))
  @ApiExcludeEndpoint()
  unknownProduct(@Param('product') product: string): never {
    throw productUnknown(product);
  }

  @Get(underEveryService(':product/:paymentId'))
  @ApiOperation({ summary: 'Read a payment: its initiation fields as accepted, and its status' })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiOkResponse({ description: "the product's initiation fields (null where not sent) and transactionStatus", schema: PAYMENT_OBJECT_SCHEMA })
  @ApiResponse(PAYMENT_UNKNOWN)
  async get(@PaymentRoute() type: PaymentType, @Param('paymentId') paymentId: string, @RequestOwner() owner: Owner): Promise<Record<string, unknown>> {
    return toPaymentResponse(await this.payments.find(type, paymentId, owner));
  }

  @Get(underEveryService(':product/:paymentId/status'))
  @ApiOperation({ summary: 'Read the status of a payment' })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiOkResponse({ type: PaymentStatusResponse })
  @ApiResponse(PAYMENT_UNKNOWN)
  async status(@PaymentRoute() type: PaymentType, @Param('paymentId') paymentId: string, @RequestOwner() owner: Owner): Promise<PaymentStatusResponse> {
    return { transactionStatus: (await this.payments.find(type, paymentId, owner)).status };
  }

  @Delete(underEveryService(':product/:paymentId'))
  @HttpCode(204)
  @ApiOperation({ summary: 'Cancel a payment: RCVD at once (204); PDNG, or a periodic payment with instalments to come, needs the holder to authorise it (202)' })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiHeader({ name: 'PSU-IP-Address', required: false, description: "IP address of the account holder's device" })
  @ApiNoContentResponse({ description: 'cancelled: status CANC' })
  @ApiAcceptedResponse({ type: CancellationResponse, description: 'PDNG, or a periodic payment with instalments to come: the cancellation needs authorisation; status unchanged' })
  @ApiResponse(PAYMENT_UNKNOWN)
  @ApiResponse({ status: 405, type: TppErrorResponse, description: 'CANCELLATION_INVALID: instant, or already ACSP, RJCT or CANC' })
  async cancel(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @Res({ passthrough: true }) response: Response,
    @RequestOwner() owner: Owner,
  ): Promise<CancellationResponse | undefined> {
    const outcome = await this.payments.cancel(type, paymentId, owner);
    if (outcome.cancelled) return undefined;
    response.status(202);
    return toCancellationResponse(outcome.status);
  }

  @Post(underEveryKind())
  @HttpCode(201)
  @ApiOperation({ summary: 'Start an authorisation of a RCVD payment (authorisations) or of the cancellation of a PDNG one (cancellation-authorisations)' })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiHeader({ name: 'TPP-Redirect-URI', required: false, description: 'where the SCA page sends the account holder back' })
  @ApiResponse({ status: 201, type: StartAuthorisationResponse })
  @ApiResponse(PAYMENT_UNKNOWN)
  @ApiResponse({ status: 405, type: TppErrorResponse, description: 'SERVICE_INVALID: a cancellation authorisation of an instant payment, which can never be cancelled' })
  @ApiResponse({ status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: the payment is not RCVD (authorisations) or not PDNG nor a periodic payment with instalments to come (cancellation-authorisations)' })
  @CreatedResource()
  async startAuthorisation(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @AuthorisationKindSegment() segment: KindSegment,
    @TppRedirectUri() redirectUri: string | undefined,
    @RequestOwner() owner: Owner,
  ): Promise<StartAuthorisationResponse> {
    const kind = KINDS[segment];
    const authorisation = await this.payments.startAuthorisation(type, paymentId, kind, redirectUri, owner);
    const query = { payment_id: paymentId, service: type.service, product: type.product };
    const page = kind === 'payment' ? 'payments' : 'payments/cancellation';
    const scaRedirect = scaRedirectHref(this.config.get('PUBLIC_BASE_URL', { infer: true }), page, query, redirectUri);
    return toStartAuthorisationResponse(authorisation, scaRedirect, `/v1/${type.service}/${type.product}/${paymentId}/${segment}`);
  }

  @Get(underEveryKind())
  @ApiOperation({ summary: 'List the authorisations, or the cancellation authorisations, of a payment' })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiOkResponse({ type: AuthorisationListResponse })
  @ApiResponse(PAYMENT_UNKNOWN)
  async authorisations(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @AuthorisationKindSegment() segment: KindSegment,
    @RequestOwner() owner: Owner,
  ): Promise<AuthorisationListResponse> {
    return { authorisationIds: await this.payments.authorisationIds(type, paymentId, KINDS[segment], owner) };
  }

  @Get(underEveryKind('/:authorisationId'))
  @ApiOperation({ summary: "Read the SCA status of a payment's authorisation or cancellation authorisation" })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiParam(AUTHORISATION_ID)
  @ApiOkResponse({ type: ScaStatusResponse })
  @ApiResponse({ ...PAYMENT_UNKNOWN, description: `${PAYMENT_UNKNOWN.description}; RESOURCE_UNKNOWN: no such authorisation` })
  async scaStatus(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @AuthorisationKindSegment() segment: KindSegment,
    @Param('authorisationId') authorisationId: string,
    @RequestOwner() owner: Owner,
  ): Promise<ScaStatusResponse> {
    return { scaStatus: (await this.payments.findAuthorisation(type, paymentId, KINDS[segment], authorisationId, owner)).status };
  }

  @Put(underEveryKind('/:authorisationId'))
  @ApiExcludeEndpoint()
  updatePsuData(): never {
    throw updatePsuDataNotOffered();
  }

  private async initiate(type: PaymentType, body: PaymentBody, redirectUri: string | undefined, owner: Owner): Promise<PaymentInitiationResponse> {
    const payment = await this.payments.initiate(type, body, redirectUri, owner);
    const query = { payment_id: payment.id, service: type.service, product: type.product };
    return toInitiationResponse(payment, scaRedirectHref(this.config.get('PUBLIC_BASE_URL', { infer: true }), 'payments', query, redirectUri));
  }
}
