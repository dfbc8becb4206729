import { StoresResource } from '../http/request-checks';
import { applyDecorators, Body, Delete, Get, HttpCode, Param, Post, Put, Res, Type, ValidationPipe } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiConsumes,
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
import { World, RequestWorld } from '../world/world';
import { announceCreated } from '../http/created-resource';
import { CreatesInBerlinGroup } from '../http/berlin-group-answers';
import { TppErrorResponse } from '../http/error-response.dto';
import { Href, scaRedirectHref } from '../common/links';
import type { Authorisation } from '../authorisation/authorisation.entity';
import { ApiVopRequestHeaders, vopRequestOf } from '../verification-of-payee/vop-headers.decorator';
import type { Payment } from './payment.entity';
import { announceApproach, ApiScaRequestHeaders, SCA_APPROACH_HEADER, ScaHeaders, ScaRequestHeaders } from '../http/sca-headers.decorator';
import { AuthorisationService } from '../authorisation/authorisation.service';
import {
  announceNotifications,
  ApiNotificationHeaders,
  NOTIFICATION_HEADERS,
  NotificationHeaders,
  NotificationRequest,
} from '../notifications/notification-headers.decorator';
import { NotificationsService } from '../notifications/notifications.service';
import { RequiresPsuIpAddress } from '../http/controller.decorator';
import { Environment } from '../config/environment';
import { BankProfile } from '../profile/bank-profile';
import { BulkPaymentDto } from './dto/bulk-payment.dto';
import { CrossBorderCreditTransferDto } from './dto/cross-border-credit-transfer.dto';
import { PeriodicPaymentDto } from './dto/periodic-payment.dto';
import {
  CancellationResponse,
  CreditorConfirmationResponse,
  PAYMENT_BODY_TYPES,
  PAYMENT_OBJECT_SCHEMA,
  PaymentInitiationResponse,
  PaymentStatusResponse,
  toCancellationResponse,
  toConfirmationResponse,
  toInitiationWithoutAuthorisation,
  toInitiationResponse,
  toPaymentResponse,
  toStatusResponse,
} from './dto/payment-response.dto';
import { InstantSepaCreditTransferDto, SepaCreditTransferDto } from './dto/sepa-credit-transfer.dto';
import { PaymentInitiationService } from './payment-initiation.service';
import { isPain001, jsonTwinOf, PAYMENT_PRODUCTS, PAYMENT_SERVICES, PaymentServiceName, PaymentType } from './payment-products';
import { asPain001Refusal, PAIN_001_NAMESPACE, readPain001 } from './pain001';
import { pain002Of } from './pain002';
import { Checks } from '../http/request-checks';
import { answerFormat, AnswersBeyondJson, JSON_ONLY } from '../http/answer-format';
import { createValidationPipe } from '../http/validation.pipe';
import { PaymentController, PaymentRoute, productUnknown, underEveryService } from './payment-route.decorator';
import { PaymentBody } from './payment-terms';
import { PAYMENT_EXAMPLES } from './dto/payment-examples';

// Its example names the service's fixture payment (fixture-payments.ts).
const PAYMENT_ID = { name: 'paymentId' };
// The payments service offers every product; the others offer a subset (404 PRODUCT_UNKNOWN otherwise).
const PRODUCT = { name: 'product', enum: [...PAYMENT_PRODUCTS.payments] };
const PAYMENT_UNKNOWN = {
  status: 404,
  type: TppErrorResponse,
  description: 'PRODUCT_UNKNOWN; RESOURCE_UNKNOWN: no such payment under this product',
};

/** The documentation and checks every initiation endpoint shares; `body` documents its product's body. */
function Initiation(summary: string, body: MethodDecorator): MethodDecorator {
  return applyDecorators(
    HttpCode(200),
    RequiresPsuIpAddress(),
    StoresResource(),
    ApiOperation({ summary }),
    body,
    ApiScaRequestHeaders(),
    ApiNotificationHeaders(),
    ApiVopRequestHeaders(),
    ApiOkResponse({
      type: PaymentInitiationResponse,
      description:
        'stored, RCVD; with the payee checked: RCVC and the SCA links, or RVCM or RVNC and only the creditorNameConfirmation link',
      headers: { ...SCA_APPROACH_HEADER, ...NOTIFICATION_HEADERS },
    }),
    CreatesInBerlinGroup(),
  );
}

/** A JSON product's body: its schema, and what Try it out sends. */
const JsonBody = (body: Type<PaymentBody>, example: object): MethodDecorator =>
  ApiBody({ type: body, examples: { 'Try it out': { value: example } } });

/** A pain.001 product's body (docs/formats.md): the document, read as its JSON twin's body; its example is pain-document.ts's. */
const Pain001Body = (): MethodDecorator =>
  applyDecorators(
    Checks({ body: 'application/xml' }),
    ApiConsumes('application/xml'),
    ApiBody({
      schema: {
        type: 'string',
        description: `A pain.001.001.03 (${PAIN_001_NAMESPACE}): one transaction for payments, one payment information block for bulk-payments; read as the JSON twin's body (docs/formats.md)`,
      },
    }),
  );

/** The answers a payment's reads offer: JSON, and for a pain.001 product its XML (docs/formats.md). */
const answersOf = (type: PaymentType): readonly ('application/json' | 'application/xml')[] =>
  isPain001(type.product) ? ['application/json', 'application/xml'] : JSON_ONLY;

/** The pain.001 products under each service: each one route, which the profile may not offer (OfferedProduct). */
const PAIN_001_ROUTES = (service: PaymentServiceName): string[] =>
  PAYMENT_PRODUCTS[service].filter(isPain001).map((product) => `${service}/${product}`);

/** A read that answers a pain.001 product's XML too (its content is documented by pain-document.ts). */
const XmlToo = (): MethodDecorator => AnswersBeyondJson('an Accept of neither JSON nor, for a pain.001 product, XML');

@ApiTags('Payment initiation')
@PaymentController()
export class PaymentInitiationController {
  constructor(
    private readonly payments: PaymentInitiationService,
    private readonly authorisations: AuthorisationService,
    private readonly notifications: NotificationsService,
    private readonly config: ConfigService<Environment, true>,
    private readonly profile: BankProfile,
  ) {
    this.validation = createValidationPipe(profile.requestGroups);
  }

  /** The global pipe's rules, for the body a pain.001 is read as (a parameter's pipe sees the XML text). */
  private readonly validation: ValidationPipe;

  @Post('payments/sepa-credit-transfers')
  @Initiation('Initiate a SEPA credit transfer', JsonBody(SepaCreditTransferDto, PAYMENT_EXAMPLES.sepa))
  sepa(
    @Body() body: SepaCreditTransferDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @NotificationHeaders() notification: NotificationRequest | null,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<PaymentInitiationResponse> {
    return this.initiate({ service: 'payments', product: 'sepa-credit-transfers' }, body, { headers, notification }, response, world);
  }

  @Post('payments/instant-sepa-credit-transfers')
  @Initiation('Initiate an instant SEPA credit transfer', JsonBody(InstantSepaCreditTransferDto, PAYMENT_EXAMPLES.instant))
  instant(
    @Body() body: InstantSepaCreditTransferDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @NotificationHeaders() notification: NotificationRequest | null,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<PaymentInitiationResponse> {
    return this.initiate(
      { service: 'payments', product: 'instant-sepa-credit-transfers' },
      body,
      { headers, notification },
      response,
      world,
    );
  }

  @Post('payments/cross-border-credit-transfers')
  @Initiation('Initiate a cross-border credit transfer', JsonBody(CrossBorderCreditTransferDto, PAYMENT_EXAMPLES.crossBorder))
  crossBorder(
    @Body() body: CrossBorderCreditTransferDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @NotificationHeaders() notification: NotificationRequest | null,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<PaymentInitiationResponse> {
    return this.initiate(
      { service: 'payments', product: 'cross-border-credit-transfers' },
      body,
      { headers, notification },
      response,
      world,
    );
  }

  @Post('bulk-payments/sepa-credit-transfers')
  @Initiation('Initiate a bulk of SEPA credit transfers', JsonBody(BulkPaymentDto, PAYMENT_EXAMPLES.bulk))
  bulk(
    @Body() body: BulkPaymentDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @NotificationHeaders() notification: NotificationRequest | null,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<PaymentInitiationResponse> {
    return this.initiate({ service: 'bulk-payments', product: 'sepa-credit-transfers' }, body, { headers, notification }, response, world);
  }

  @Post('periodic-payments/sepa-credit-transfers')
  @Initiation('Initiate a periodic SEPA credit transfer', JsonBody(PeriodicPaymentDto, PAYMENT_EXAMPLES.periodic))
  periodic(
    @Body() body: PeriodicPaymentDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @NotificationHeaders() notification: NotificationRequest | null,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<PaymentInitiationResponse> {
    return this.initiate(
      { service: 'periodic-payments', product: 'sepa-credit-transfers' },
      body,
      { headers, notification },
      response,
      world,
    );
  }

  @Post(PAYMENT_SERVICES.flatMap(PAIN_001_ROUTES))
  @Initiation(
    'Initiate a payment as a pain.001.001.03: its one credit transfer (payments), or every transaction of its one payment information block (bulk-payments)',
    Pain001Body(),
  )
  async pain001(
    @Body() document: unknown,
    @PaymentRoute() type: PaymentType,
    @ScaRequestHeaders() headers: ScaHeaders,
    @NotificationHeaders() notification: NotificationRequest | null,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<PaymentInitiationResponse> {
    const { body } = readPain001(document, type.service);
    const twin = PAYMENT_BODY_TYPES[`${type.service}/${jsonTwinOf(type.product)}` as keyof typeof PAYMENT_BODY_TYPES];
    // The twin's rules, its refusals naming the elements (a parameter's pipe saw only the XML text).
    const validated = await this.validation.transform(body, { type: 'body', metatype: twin }).catch((error: unknown) => {
      throw asPain001Refusal(error);
    });
    return this.initiate(type, validated as PaymentBody, { headers, notification }, response, world, document as string);
  }

  /** Any other product of a known service; declared after the routes above, which Express tries first. */
  @Post(underEveryService(':product'))
  @ApiExcludeEndpoint()
  unknownProduct(@Param('product') product: string): never {
    throw productUnknown(product);
  }

  @Get(underEveryService(':product/:paymentId'))
  @ApiOperation({ summary: 'Read a payment: its initiation fields as accepted, and its status' })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiOkResponse({
    description: "the product's initiation fields (null where not sent) and transactionStatus",
    schema: PAYMENT_OBJECT_SCHEMA,
  })
  @ApiResponse(PAYMENT_UNKNOWN)
  @XmlToo()
  async get(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<Record<string, unknown> | string> {
    const format = answerFormat(response.req, answersOf(type));
    const payment = await this.payments.find(type, paymentId, world);
    if (format !== 'application/xml' || payment.document === null) return toPaymentResponse(payment);
    // The pain.001 as it was sent (docs/formats.md).
    response.type(format);
    return payment.document;
  }

  @Get(underEveryService(':product/:paymentId/status'))
  @ApiOperation({ summary: 'Read the status of a payment' })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiOkResponse({ type: PaymentStatusResponse })
  @ApiResponse(PAYMENT_UNKNOWN)
  @XmlToo()
  async status(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<PaymentStatusResponse | string> {
    const format = answerFormat(response.req, answersOf(type));
    const payment = await this.payments.find(type, paymentId, world);
    if (format !== 'application/xml' || payment.document === null) return toStatusResponse(payment);
    response.type(format);
    return pain002Of(payment, readPain001(payment.document, payment.service).reference, this.profile.settings, new Date());
  }

  @Put(underEveryService(':product/:paymentId/creditor-confirmation'))
  @ApiOperation({
    summary: 'Pay anyway after the payee check (RVCM, RVNC): the payment moves to RCVC, and the answer carries the links its SCA needs',
  })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiOkResponse({ type: CreditorConfirmationResponse, headers: SCA_APPROACH_HEADER })
  @ApiResponse(PAYMENT_UNKNOWN)
  @ApiResponse({
    status: 409,
    type: TppErrorResponse,
    description: 'STATUS_INVALID: not RVCM or RVNC (confirmed already, cancelled, or never waiting for a confirmation)',
  })
  async confirmCreditor(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<CreditorConfirmationResponse> {
    const { payment, authorisation } = await this.payments.confirmCreditor(type, paymentId, world);
    if (authorisation.approach !== 'REDIRECT') response.setHeader('ASPSP-SCA-Approach', authorisation.approach);
    return toConfirmationResponse(payment, authorisation, this.scaRedirectOf(payment, authorisation), this.profile.habits);
  }

  @Delete(underEveryService(':product/:paymentId'))
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Cancel a payment: RCVD at once (204); PDNG, or a periodic payment with instalments to come, needs the holder to authorise it (202)',
  })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiHeader({ name: 'PSU-IP-Address', required: false, description: "IP address of the account holder's device" })
  @ApiHeader({
    name: 'TPP-Redirect-Preferred',
    required: false,
    schema: { type: 'boolean' },
    description: 'false: the link to start an embedded cancellation authorisation (with SCA_MODE=redirect)',
  })
  @ApiHeader({
    name: 'TPP-Decoupled-Preferred',
    required: false,
    schema: { type: 'boolean' },
    description: 'true: the link to start a decoupled one (with SCA_MODE=redirect)',
  })
  @ApiNoContentResponse({ description: 'cancelled: status CANC (RCVD, RCVC, and RVCM or RVNC even when instant)' })
  @ApiAcceptedResponse({
    type: CancellationResponse,
    description: 'PDNG, or a periodic payment with instalments to come: the cancellation needs authorisation; status unchanged',
    headers: SCA_APPROACH_HEADER,
  })
  @ApiResponse(PAYMENT_UNKNOWN)
  @ApiResponse({ status: 405, type: TppErrorResponse, description: 'CANCELLATION_INVALID: instant, or already ACSP, RJCT or CANC' })
  async cancel(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @ScaRequestHeaders() headers: ScaHeaders,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<CancellationResponse | undefined> {
    const outcome = await this.payments.cancel(type, paymentId, world);
    if (outcome.cancelled) return undefined;
    response.status(202);
    const { approach } = await this.authorisations.requestOf(headers);
    announceApproach(response, headers, approach);
    return toCancellationResponse(outcome.payment, approach, this.profile.answers);
  }

  private async initiate(
    type: PaymentType,
    body: PaymentBody,
    { headers, notification }: { headers: ScaHeaders; notification: NotificationRequest | null },
    response: Response,
    world: World,
    document: string | null = null,
  ): Promise<PaymentInitiationResponse> {
    const vop = vopRequestOf(response.req);
    const request = await this.authorisations.requestOf(headers);
    await this.notifications.admit(notification);
    const { payment, authorisation } = await this.payments.initiate(type, body, { request, notification, vop, document }, world);
    announceNotifications(response, notification, true);
    const answer = authorisation
      ? toInitiationResponse(payment, authorisation, this.scaRedirectOf(payment, authorisation), this.profile.habits)
      : toInitiationWithoutAuthorisation(payment);
    return announceCreated(response, request.approach, answer);
  }

  /** The redirect SCA page of the payment, with the TPP-Redirect-URI its authorisation was opened with. */
  private scaRedirectOf(payment: Payment, authorisation: Authorisation): Href {
    const query = { payment_id: payment.id, service: payment.service, product: payment.product };
    return scaRedirectHref(
      this.config.get('PUBLIC_BASE_URL', { infer: true }),
      'payments',
      query,
      authorisation.tppRedirectUri ?? undefined,
    );
  }
}
