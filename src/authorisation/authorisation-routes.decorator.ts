import { applyDecorators, Body, Get, HttpCode, Injectable, Param, Post, Put, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiResponseOptions } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Authorisation, AuthorisationKind } from './authorisation.entity';
import {
  AuthorisationListResponse,
  psuMessageOf,
  ScaStatusResponse,
  ScaStepResponse,
  StartAuthorisationResponse,
  toStartAuthorisationResponse,
} from './authorisation-response.dto';
import { isRefusal } from '../common/error-catalogue';
import { scaRedirectHref } from '../common/links';
import { AuthorisationRequest, AuthorisationService } from './authorisation.service';
import { Environment } from '../config/environment';
import { ConsentService } from '../consent/consent.service';
import { CONSENT_PATHS, ConsentPurpose } from '../consent/consent.entity';
import { announceCreated } from '../http/created-resource';
import { CreatesInBerlinGroup } from '../http/berlin-group-profile';
import { TppErrorResponse } from '../http/error-response.dto';
import { announceApproach, ApiScaRequestHeaders, SCA_APPROACH_HEADER, ScaHeaders, ScaRequestHeaders } from '../http/sca-headers.decorator';
import { World, RequestWorld } from '../oauth/world';
import { ScaService, ScaTarget } from '../sca/sca.service';
import { UpdatePsuDataDto } from '../sca/update-psu-data.dto';

export const AUTHORISATION_ID = {
  name: 'authorisationId',
  description: 'an authorisation ID, or authorization_not_yet_available for the first one',
};
const CONSENT_UNKNOWN = { status: 403, type: TppErrorResponse, description: 'CONSENT_UNKNOWN' } as const;
const STEP_ERRORS = [
  {
    status: 400,
    type: TppErrorResponse,
    description: 'FORMAT_ERROR: no step in the body, or no PSU-ID; SCA_INVALID: the authorisation failed; SCA_METHOD_UNKNOWN',
  },
  {
    status: 401,
    type: TppErrorResponse,
    description: 'PSU_CREDENTIALS_INVALID: unknown PSU, wrong password or TAN (counted: the third fails the authorisation)',
  },
  { status: 403, type: TppErrorResponse, description: 'SERVICE_BLOCKED: the PSU is blocked' },
  { status: 405, type: TppErrorResponse, description: 'SERVICE_INVALID: a redirect authorisation, which the SCA page decides' },
  { status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: the authorisation is not at the step the body is for' },
] as const;
export const StepErrors = () => applyDecorators(...STEP_ERRORS.map((error) => ApiResponse(error)));

/**
 * The answer to a start: the bank's redirect answer, or (embedded, decoupled) the next step.
 * `path` is the resource's path with `/authorisations` (or `/cancellation-authorisations`).
 */
export function startAnswer(
  sca: ScaService,
  authorisation: Authorisation,
  path: string,
  scaRedirect: () => ReturnType<typeof scaRedirectHref>,
): StartAuthorisationResponse {
  if (authorisation.approach === 'REDIRECT') return toStartAuthorisationResponse(authorisation, scaRedirect(), path);
  const { scaStatus, ...step } = sca.stepAnswer(authorisation, `${path}/${authorisation.id}`);
  return { scaStatus, authorisationId: authorisation.id, ...step };
}

/** An authorisation that is not there (404 RESOURCE_UNKNOWN on a read) is none to update: ScaService.update answers as the bank does. */
export async function orNone(found: Promise<Authorisation>): Promise<Authorisation | null> {
  try {
    return await found;
  } catch (error) {
    if (isRefusal(error, 'authorisationUnknown')) return null;
    throw error;
  }
}

export const scaStatusAnswer = (authorisation: Authorisation): ScaStatusResponse => ({
  scaStatus: authorisation.status,
  ...psuMessageOf(authorisation),
});

/** What a consent or a basket lends its authorisation sub-resources: where it lives, its SCA page, and how its authorisations are found and opened. */
interface AuthorisedResource {
  kind: AuthorisationKind;
  /** The resource's own path: `/v1/consents/<id>`. */
  path(id: string): string;
  /** Its SCA page (`consents`) and the query parameter that names the resource there. */
  page: { name: string; parameter: string };
  open(id: string, request: AuthorisationRequest, world: World): Promise<Authorisation>;
  ids(id: string, world: World): Promise<string[]>;
  find(id: string, authorisationId: string, world: World): Promise<Authorisation>;
}

/** The four operations on a resource's authorisation sub-resources (docs/sca-approaches.md): start, list, read (poll), update PSU data. */
export class AuthorisationRoutes {
  constructor(
    private readonly sca: ScaService,
    private readonly authorisations: AuthorisationService,
    private readonly baseUrl: string,
    private readonly resource: AuthorisedResource,
  ) {}

  async start(
    id: string,
    body: UpdatePsuDataDto,
    headers: ScaHeaders,
    response: Response,
    world: World,
  ): Promise<StartAuthorisationResponse> {
    const target: ScaTarget = { kind: this.resource.kind, resourceId: id };
    const request = await this.authorisations.requestOf(headers, target);
    const authorisation = await this.sca.start(target, () => this.resource.open(id, request, world), body, request, world);
    const { name, parameter } = this.resource.page;
    const scaRedirect = () => scaRedirectHref(this.baseUrl, name, { [parameter]: id }, headers.redirectUri ?? undefined);
    return announceCreated(
      response,
      authorisation.approach,
      startAnswer(this.sca, authorisation, `${this.resource.path(id)}/authorisations`, scaRedirect),
    );
  }

  async list(id: string, world: World): Promise<AuthorisationListResponse> {
    return { authorisationIds: await this.resource.ids(id, world) };
  }

  async scaStatus(id: string, authorisationId: string, world: World): Promise<ScaStatusResponse> {
    const authorisation = await this.resource.find(id, authorisationId, world);
    return scaStatusAnswer(await this.sca.poll({ kind: this.resource.kind, resourceId: id }, authorisation, world));
  }

  async update(
    id: string,
    authorisationId: string,
    body: UpdatePsuDataDto,
    headers: ScaHeaders,
    response: Response,
    world: World,
  ): Promise<ScaStepResponse> {
    const authorisation = await orNone(this.resource.find(id, authorisationId, world));
    const updated = await this.sca.update({ kind: this.resource.kind, resourceId: id }, authorisation, body, headers.psuId, world);
    announceApproach(response, headers, updated.approach);
    return this.sca.stepAnswer(updated, `${this.resource.path(id)}/authorisations/${updated.id}`);
  }
}

/** How a resource's authorisation routes are documented: its path parameter and what is said of it. */
interface RoutesDocs {
  param: string;
  /** What a resource's name is in each summary: "a consent", "a signing basket". */
  name: string;
  startSummary: string;
  updateSummary: string;
  /** The answer when the resource is unknown, and when its authorisation is. */
  unknown: ApiResponseOptions;
  noAuthorisation: ApiResponseOptions;
  notWaiting: string;
}

/**
 * The four routes of a resource's authorisation sub-resources, documented for it (`docs`), each
 * handed to `of`: one set of handlers for consents of both purposes and for signing baskets.
 */
export function AuthorisationRoutesOf(docs: RoutesDocs) {
  @Injectable() // for its subclasses' constructor parameter types
  abstract class Routes {
    protected abstract get of(): AuthorisationRoutes;

    @Post(`:${docs.param}/authorisations`)
    @HttpCode(201)
    @ApiOperation({ summary: docs.startSummary })
    @ApiScaRequestHeaders()
    @ApiBody({ type: UpdatePsuDataDto, required: false })
    @ApiResponse({ status: 201, type: StartAuthorisationResponse, headers: SCA_APPROACH_HEADER })
    @ApiResponse(docs.unknown)
    @ApiResponse({ status: 409, type: TppErrorResponse, description: docs.notWaiting })
    @CreatesInBerlinGroup()
    start(
      @Param(docs.param) id: string,
      @Body() body: UpdatePsuDataDto,
      @ScaRequestHeaders() headers: ScaHeaders,
      @Res({ passthrough: true }) response: Response,
      @RequestWorld() world: World,
    ): Promise<StartAuthorisationResponse> {
      return this.of.start(id, body, headers, response, world);
    }

    @Get(`:${docs.param}/authorisations`)
    @ApiOperation({ summary: `List the authorisations of ${docs.name}` })
    @ApiOkResponse({ type: AuthorisationListResponse })
    @ApiResponse(docs.unknown)
    list(@Param(docs.param) id: string, @RequestWorld() world: World): Promise<AuthorisationListResponse> {
      return this.of.list(id, world);
    }

    @Get(`:${docs.param}/authorisations/:authorisationId`)
    @ApiOperation({ summary: `Read the SCA status of an authorisation of ${docs.name} (decoupled: poll it until finalised or failed)` })
    @ApiParam(AUTHORISATION_ID)
    @ApiOkResponse({ type: ScaStatusResponse })
    @ApiResponse(docs.unknown)
    @ApiResponse(docs.noAuthorisation)
    scaStatus(
      @Param(docs.param) id: string,
      @Param('authorisationId') authorisationId: string,
      @RequestWorld() world: World,
    ): Promise<ScaStatusResponse> {
      return this.of.scaStatus(id, authorisationId, world);
    }

    @Put(`:${docs.param}/authorisations/:authorisationId`)
    @ApiOperation({ summary: docs.updateSummary })
    @ApiParam(AUTHORISATION_ID)
    @ApiScaRequestHeaders()
    @ApiBody({ type: UpdatePsuDataDto })
    @ApiOkResponse({ type: ScaStepResponse, headers: SCA_APPROACH_HEADER })
    @ApiResponse(docs.unknown)
    @ApiResponse(docs.noAuthorisation)
    @StepErrors()
    update(
      @Param(docs.param) id: string,
      @Param('authorisationId') authorisationId: string,
      @Body() body: UpdatePsuDataDto,
      @ScaRequestHeaders() headers: ScaHeaders,
      @Res({ passthrough: true }) response: Response,
      @RequestWorld() world: World,
    ): Promise<ScaStepResponse> {
      return this.of.update(id, authorisationId, body, headers, response, world);
    }
  }
  return Routes;
}

/** A consent's authorisation sub-resources, the same for both purposes of a consent: each subclass is one path's controller. */
@Injectable() // for its constructor's parameter types, which the subclasses inherit
export abstract class ConsentAuthorisationRoutes extends AuthorisationRoutesOf({
  param: 'consentId',
  name: 'a consent',
  startSummary: 'Start a further authorisation of a consent waiting for the account holder; embedded: may carry the password',
  updateSummary: 'Update PSU data (embedded: password, method, TAN; decoupled: the PSU-ID)',
  unknown: CONSENT_UNKNOWN,
  noAuthorisation: { status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no such authorisation' },
  notWaiting: 'STATUS_INVALID: the consent is not waiting for the account holder',
}) {
  /** The consents this controller serves, named by their path. */
  protected abstract readonly purpose: ConsentPurpose;
  private routes?: AuthorisationRoutes;

  constructor(
    private readonly sca: ScaService,
    private readonly consents: ConsentService,
    private readonly authorisations: AuthorisationService,
    private readonly config: ConfigService<Environment, true>,
  ) {
    super();
  }

  /** Built on first use: `purpose` is the subclass's, set after this constructor ran. */
  protected get of(): AuthorisationRoutes {
    const purpose = this.purpose;
    this.routes ??= new AuthorisationRoutes(this.sca, this.authorisations, this.config.get('PUBLIC_BASE_URL', { infer: true }), {
      kind: 'consent',
      path: (id) => `${CONSENT_PATHS[purpose]}/${id}`,
      page: { name: 'consents', parameter: 'consent_id' },
      open: (id, request, world) => this.consents.startAuthorisation(id, request, world, purpose),
      ids: (id, world) => this.consents.authorisationIds(id, world, purpose),
      find: (id, authorisationId, world) => this.consents.findAuthorisation(id, authorisationId, world, purpose),
    });
    return this.routes;
  }
}
