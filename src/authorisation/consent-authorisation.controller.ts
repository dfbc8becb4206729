import { Body, Injectable, Param, Res } from '@nestjs/common';
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
import { ConsentService } from '../consent/consent.service';
import { CONSENT_PATHS, ConsentPurpose } from '../consent/consent.entity';
import { TppErrorResponse } from '../http/error-response.dto';
import { Xs2aController } from '../http/controller.decorator';
import { ScaHeaders, ScaRequestHeaders } from '../http/sca-headers.decorator';
import { RequestWorld, World } from '../world/world';
import { AuthorisationFlow, AuthorisedResource } from '../sca/authorisation-flow.service';
import { UpdatePsuDataDto } from '../sca/update-psu-data.dto';

const ROUTES: AuthorisationRoutes = {
  paths: (suffix) => `:consentId/authorisations${suffix}`,
  summaries: {
    start: 'Start a further authorisation of a consent waiting for the account holder; embedded: may carry the password',
    list: 'List the authorisations of a consent',
    scaStatus: 'Read the SCA status of an authorisation of a consent (decoupled: poll it until finalised or failed)',
    update: 'Update PSU data (embedded: password, method, TAN; decoupled: the PSU-ID)',
  },
  unknown: [{ status: 403, type: TppErrorResponse, description: 'CONSENT_UNKNOWN' }],
  startRefused: [{ status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: the consent is not waiting for the account holder' }],
  authorisationUnknown: [{ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no such authorisation' }],
};

/**
 * A consent's authorisation sub-resources (docs/sca-approaches.md), the same for both purposes of
 * a consent: each subclass serves one path (this file's account information consents, the
 * confirmation of funds' own).
 */
@Injectable() // emits its constructor's parameter types, which the subclasses inherit
export abstract class ConsentAuthorisationRoutes {
  /** The consents this controller serves, named by their path. */
  protected abstract readonly purpose: ConsentPurpose;

  constructor(
    private readonly flow: AuthorisationFlow,
    private readonly consents: ConsentService,
  ) {}

  @StartAuthorisationRoute(ROUTES)
  start(
    @Param('consentId') id: string,
    @Body() body: UpdatePsuDataDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<StartAuthorisationResponse> {
    return this.flow.start(this.consent(id, world), body, headers, response, world);
  }

  @ListAuthorisationsRoute(ROUTES)
  list(@Param('consentId') id: string, @RequestWorld() world: World): Promise<AuthorisationListResponse> {
    return this.flow.list(this.consent(id, world));
  }

  @ScaStatusRoute(ROUTES)
  scaStatus(
    @Param('consentId') id: string,
    @Param('authorisationId') authorisationId: string,
    @RequestWorld() world: World,
  ): Promise<ScaStatusResponse> {
    return this.flow.scaStatus(this.consent(id, world), authorisationId, world);
  }

  @UpdatePsuDataRoute(ROUTES)
  update(
    @Param('consentId') id: string,
    @Param('authorisationId') authorisationId: string,
    @Body() body: UpdatePsuDataDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<ScaStepResponse> {
    return this.flow.update(this.consent(id, world), authorisationId, body, headers, response, world);
  }

  private consent(id: string, world: World): AuthorisedResource {
    const purpose = this.purpose;
    return {
      target: { kind: 'consent', resourceId: id },
      path: `${CONSENT_PATHS[purpose]}/${id}/authorisations`,
      page: { name: 'consents', query: { consent_id: id } },
      open: (request) => this.consents.startAuthorisation(id, request, world, purpose),
      ids: () => this.consents.authorisationIds(id, world, purpose),
      find: (authorisationId) => this.consents.findAuthorisation(id, authorisationId, world, purpose),
    };
  }
}

@ApiTags('Consents')
@Xs2aController('consents', 'PSP_AI')
export class ConsentAuthorisationController extends ConsentAuthorisationRoutes {
  protected readonly purpose = 'ais';
}
