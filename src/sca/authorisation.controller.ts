import { applyDecorators, Body, Get, HttpCode, Injectable, Param, Post, Put, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Authorisation } from '../authorisation/authorisation.entity';
import {
  AuthorisationListResponse,
  psuMessageOf,
  ScaStatusResponse,
  ScaStepResponse,
  StartAuthorisationResponse,
  toStartAuthorisationResponse,
} from '../authorisation/authorisation-response.dto';
import { DomainError } from '../common/error-catalogue';
import { scaRedirectHref } from '../common/links';
import { AuthorisationService } from '../authorisation/authorisation.service';
import { Environment } from '../config/environment';
import { ConsentService } from '../consent/consent.service';
import { CONSENT_PATHS, ConsentPurpose } from '../consent/consent.entity';
import { announceCreated } from '../http/created-resource';
import { CreatesInBerlinGroup } from '../http/berlin-group-profile';
import { TppErrorResponse } from '../http/error-response.dto';
import { Xs2aController } from '../http/request.guard';
import { announceApproach, ApiScaRequestHeaders, SCA_APPROACH_HEADER, ScaHeaders, ScaRequestHeaders } from '../http/sca-headers.decorator';
import { Owner, RequestOwner } from '../oauth/owner';
import { PaymentInitiationService } from '../payment-initiation/payment-initiation.service';
import type { PaymentType } from '../payment-initiation/payment.entity';
import { AuthorisationKindSegment, PaymentController, PaymentRoute, underEveryService } from '../payment-initiation/payment-route.decorator';
import { toScaStepResponse } from './sca-answers';
import type { ScaMethod } from '../profile/bank-profile';
import { ScaService, ScaTarget } from './sca.service';
import { UpdatePsuDataDto } from './update-psu-data.dto';
import { vopBlockOf } from '../verification-of-payee/vop-status.dto';

const AUTHORISATION_ID = { name: 'authorisationId', description: 'an authorisation ID, or authorization_not_yet_available for the first one' };
const CONSENT_UNKNOWN = { status: 403, type: TppErrorResponse, description: 'CONSENT_UNKNOWN' } as const;
const STEP_ERRORS = [
  { status: 400, type: TppErrorResponse, description: 'FORMAT_ERROR: no step in the body, or no PSU-ID; SCA_INVALID: the authorisation failed; SCA_METHOD_UNKNOWN' },
  { status: 401, type: TppErrorResponse, description: 'PSU_CREDENTIALS_INVALID: unknown PSU, wrong password or TAN (counted: the third fails the authorisation)' },
  { status: 403, type: TppErrorResponse, description: 'SERVICE_BLOCKED: the PSU is blocked' },
  { status: 405, type: TppErrorResponse, description: 'SERVICE_INVALID: a redirect authorisation, which the SCA page decides' },
  { status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: the authorisation is not at the step the body is for' },
] as const;
const StepErrors = () => applyDecorators(...STEP_ERRORS.map((error) => ApiResponse(error)));

/**
 * The answer to a start: the bank's redirect answer, or (embedded, decoupled) the next step.
 * `path` is the resource's path with `/authorisations` (or `/cancellation-authorisations`).
 */
function startAnswer(authorisation: Authorisation, path: string, scaRedirect: () => ReturnType<typeof scaRedirectHref>, methods: ScaMethod[]): StartAuthorisationResponse {
  if (authorisation.approach === 'REDIRECT') return toStartAuthorisationResponse(authorisation, scaRedirect(), path);
  const { scaStatus, ...step } = toScaStepResponse(authorisation, `${path}/${authorisation.id}`, methods);
  return { scaStatus, authorisationId: authorisation.id, ...step };
}

/** An authorisation that is not there (404 RESOURCE_UNKNOWN on a read) is none to update: ScaService.update answers as the bank does. */
async function orNone(found: Promise<Authorisation>): Promise<Authorisation | null> {
  try {
    return await found;
  } catch (error) {
    if (error instanceof DomainError && error.details[0].messageId === 'XS2A020E') return null;
    throw error;
  }
}

const scaStatusAnswer = (authorisation: Authorisation): ScaStatusResponse => ({ scaStatus: authorisation.status, ...psuMessageOf(authorisation) });

/**
 * The authorisation sub-resources of a consent (docs/sca-approaches.md): start, list, read (poll),
 * update PSU data. The same for both purposes of a consent: each subclass is one path's controller.
 */
@Injectable() // for its constructor's parameter types, which the subclasses inherit
abstract class ConsentAuthorisationRoutes {
  /** The consents this controller serves, named by their path. */
  protected abstract readonly purpose: ConsentPurpose;

  constructor(
    private readonly sca: ScaService,
    private readonly consents: ConsentService,
    private readonly authorisations: AuthorisationService,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  @Post(':consentId/authorisations')
  @HttpCode(201)
  @ApiOperation({ summary: 'Start a further authorisation of a consent waiting for the account holder; embedded: may carry the password' })
  @ApiScaRequestHeaders()
  @ApiBody({ type: UpdatePsuDataDto, required: false })
  @ApiResponse({ status: 201, type: StartAuthorisationResponse, headers: SCA_APPROACH_HEADER })
  @ApiResponse(CONSENT_UNKNOWN)
  @ApiResponse({ status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: the consent is not waiting for the account holder' })
  @CreatesInBerlinGroup()
  async start(
    @Param('consentId') consentId: string,
    @Body() body: UpdatePsuDataDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @Res({ passthrough: true }) response: Response,
    @RequestOwner() owner: Owner,
  ): Promise<StartAuthorisationResponse> {
    const target: ScaTarget = { kind: 'consent', resourceId: consentId };
    const request = await this.authorisations.requestOf(headers, target);
    const authorisation = await this.sca.start(target, () => this.consents.startAuthorisation(consentId, request, owner, this.purpose), body, request, owner);
    const scaRedirect = () => scaRedirectHref(this.config.get('PUBLIC_BASE_URL', { infer: true }), 'consents', { consent_id: consentId }, headers.redirectUri ?? undefined);
    return announceCreated(response, authorisation.approach, startAnswer(authorisation, `${CONSENT_PATHS[this.purpose]}/${consentId}/authorisations`, scaRedirect, this.sca.methodsOf(authorisation)));
  }

  @Get(':consentId/authorisations')
  @ApiOperation({ summary: 'List the authorisations of a consent' })
  @ApiOkResponse({ type: AuthorisationListResponse })
  @ApiResponse(CONSENT_UNKNOWN)
  async list(@Param('consentId') consentId: string, @RequestOwner() owner: Owner): Promise<AuthorisationListResponse> {
    return { authorisationIds: await this.consents.authorisationIds(consentId, owner, this.purpose) };
  }

  @Get(':consentId/authorisations/:authorisationId')
  @ApiOperation({ summary: 'Read the SCA status of an authorisation of a consent (decoupled: poll it until finalised or failed)' })
  @ApiParam(AUTHORISATION_ID)
  @ApiOkResponse({ type: ScaStatusResponse })
  @ApiResponse(CONSENT_UNKNOWN)
  @ApiResponse({ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no such authorisation' })
  async scaStatus(@Param('consentId') consentId: string, @Param('authorisationId') authorisationId: string, @RequestOwner() owner: Owner): Promise<ScaStatusResponse> {
    const authorisation = await this.consents.findAuthorisation(consentId, authorisationId, owner, this.purpose);
    return scaStatusAnswer(await this.sca.poll({ kind: 'consent', resourceId: consentId }, authorisation, owner));
  }

  @Put(':consentId/authorisations/:authorisationId')
  @ApiOperation({ summary: 'Update PSU data (embedded: password, method, TAN; decoupled: the PSU-ID)' })
  @ApiParam(AUTHORISATION_ID)
  @ApiScaRequestHeaders()
  @ApiBody({ type: UpdatePsuDataDto })
  @ApiOkResponse({ type: ScaStepResponse, headers: SCA_APPROACH_HEADER })
  @ApiResponse(CONSENT_UNKNOWN)
  @ApiResponse({ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no such authorisation' })
  @StepErrors()
  async update(
    @Param('consentId') consentId: string,
    @Param('authorisationId') authorisationId: string,
    @Body() body: UpdatePsuDataDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @Res({ passthrough: true }) response: Response,
    @RequestOwner() owner: Owner,
  ): Promise<ScaStepResponse> {
    const authorisation = await orNone(this.consents.findAuthorisation(consentId, authorisationId, owner, this.purpose));
    const updated = await this.sca.update({ kind: 'consent', resourceId: consentId }, authorisation, body, headers.psuId, owner);
    announceApproach(response, headers, updated.approach);
    return toScaStepResponse(updated, `${CONSENT_PATHS[this.purpose]}/${consentId}/authorisations/${updated.id}`, this.sca.methodsOf(updated));
  }
}

@ApiTags('Consents')
@Xs2aController('consents')
export class ConsentAuthorisationController extends ConsentAuthorisationRoutes {
  protected readonly purpose = 'ais';
}

/** Served where the profile offers the confirmation of funds with its consents (FundsConfirmationModule). */
@ApiTags('Confirmation of funds')
@Xs2aController('consents/confirmation-of-funds', 'v2')
export class FundsConsentAuthorisationController extends ConsentAuthorisationRoutes {
  protected readonly purpose = 'piis';
}

/** The two kinds of authorisation a payment has, by the path segment of each. */
const KINDS = { authorisations: 'payment', 'cancellation-authorisations': 'cancellation' } as const;
type KindSegment = keyof typeof KINDS;
const underEveryKind = (suffix = '') => Object.keys(KINDS).flatMap((segment) => underEveryService(`:product/:paymentId/${segment}${suffix}`));
const PRODUCT = { name: 'product', description: 'the payment product' };
const PAYMENT_ID = { name: 'paymentId', example: '3d9a81b3-a47d-4130-8765-a9c0ff861b99' };
const PAYMENT_UNKNOWN = { status: 404, type: TppErrorResponse, description: 'PRODUCT_UNKNOWN; RESOURCE_UNKNOWN: no such payment under this product, or no such authorisation' };

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
  @ApiOperation({ summary: 'Start an authorisation of a RCVD payment (authorisations) or of the cancellation of a PDNG one (cancellation-authorisations); embedded: may carry the password' })
  @ApiParam(PRODUCT)
  @ApiParam(PAYMENT_ID)
  @ApiScaRequestHeaders()
  @ApiBody({ type: UpdatePsuDataDto, required: false })
  @ApiResponse({ status: 201, type: StartAuthorisationResponse, headers: SCA_APPROACH_HEADER })
  @ApiResponse(PAYMENT_UNKNOWN)
  @ApiResponse({ status: 405, type: TppErrorResponse, description: 'SERVICE_INVALID: a cancellation authorisation of an instant payment, which can never be cancelled' })
  @ApiResponse({ status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: the payment is not RCVD (authorisations) or not PDNG nor a periodic payment with instalments to come (cancellation-authorisations)' })
  @CreatesInBerlinGroup()
  async start(
    @PaymentRoute() type: PaymentType,
    @Param('paymentId') paymentId: string,
    @AuthorisationKindSegment() segment: KindSegment,
    @Body() body: UpdatePsuDataDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @Res({ passthrough: true }) response: Response,
    @RequestOwner() owner: Owner,
  ): Promise<StartAuthorisationResponse> {
    const kind = KINDS[segment];
    const request = await this.authorisations.requestOf(headers, { kind, resourceId: paymentId });
    const open = () => this.payments.startAuthorisation(type, paymentId, kind, request, owner);
    const authorisation = await this.sca.start({ kind, resourceId: paymentId }, open, body, request, owner);
    const query = { payment_id: paymentId, service: type.service, product: type.product };
    const page = kind === 'payment' ? 'payments' : 'payments/cancellation';
    const scaRedirect = () => scaRedirectHref(this.config.get('PUBLIC_BASE_URL', { infer: true }), page, query, headers.redirectUri ?? undefined);
    const answer = startAnswer(authorisation, `/v1/${type.service}/${type.product}/${paymentId}/${segment}`, scaRedirect, this.sca.methodsOf(authorisation));
    return announceCreated(response, authorisation.approach, { ...answer, ...(await this.vopOf(kind, paymentId, owner)) });
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
    @RequestOwner() owner: Owner,
  ): Promise<AuthorisationListResponse> {
    return { authorisationIds: await this.payments.authorisationIds(type, paymentId, KINDS[segment], owner) };
  }

  @Get(underEveryKind('/:authorisationId'))
  @ApiOperation({ summary: "Read the SCA status of a payment's authorisation or cancellation authorisation (decoupled: poll it until finalised or failed)" })
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
    @RequestOwner() owner: Owner,
  ): Promise<ScaStatusResponse> {
    const kind = KINDS[segment];
    const authorisation = await this.payments.findAuthorisation(type, paymentId, kind, authorisationId, owner);
    return scaStatusAnswer(await this.sca.poll({ kind, resourceId: paymentId }, authorisation, owner));
  }

  @Put(underEveryKind('/:authorisationId'))
  @ApiOperation({ summary: "Update PSU data on a payment's authorisation or cancellation authorisation (embedded: password, method, TAN; decoupled: the PSU-ID)" })
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
    @RequestOwner() owner: Owner,
  ): Promise<ScaStepResponse> {
    const kind = KINDS[segment];
    const authorisation = await orNone(this.payments.findAuthorisation(type, paymentId, kind, authorisationId, owner));
    const updated = await this.sca.update({ kind, resourceId: paymentId }, authorisation, body, headers.psuId, owner);
    announceApproach(response, headers, updated.approach);
    const answer = toScaStepResponse(updated, `/v1/${type.service}/${type.product}/${paymentId}/${segment}/${updated.id}`, this.sca.methodsOf(updated));
    return { ...answer, ...(await this.vopOf(kind, paymentId, owner)) };
  }

  /** The payee results a payment's authorisation answers repeat, as the 1.3.16 yaml places them (docs/verification-of-payee.md). */
  private async vopOf(kind: 'payment' | 'cancellation', paymentId: string, owner: Owner): Promise<ReturnType<typeof vopBlockOf>> {
    return kind === 'payment' ? vopBlockOf(await this.payments.findById(paymentId, owner)) : {};
  }
}
