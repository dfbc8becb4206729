import { Body, Param, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  AuthorisationListResponse,
  ScaStatusResponse,
  ScaStepResponse,
  StartAuthorisationResponse,
} from '../authorisation/authorisation-response.dto';
import {
  AuthorisationRoutes,
  ListAuthorisationsRoute,
  ScaStatusRoute,
  StartAuthorisationRoute,
  UpdatePsuDataRoute,
} from '../authorisation/authorisation-routes.decorator';
import { TppErrorResponse } from '../http/error-response.dto';
import { Xs2aController } from '../http/controller.decorator';
import { ScaHeaders, ScaRequestHeaders } from '../http/sca-headers.decorator';
import { RequestWorld, World } from '../world/world';
import { AuthorisationFlow, AuthorisedResource } from '../sca/authorisation-flow.service';
import { UpdatePsuDataDto } from '../sca/update-psu-data.dto';
import { SigningBasketService } from './signing-basket.service';
import { basketPath } from './signing-basket.dto';

const BASKET_UNKNOWN = {
  status: 404,
  type: TppErrorResponse,
  description: 'RESOURCE_UNKNOWN: no such signing basket, or no such authorisation of it',
} as const;

const ROUTES: AuthorisationRoutes = {
  paths: (suffix) => `:basketId/authorisations${suffix}`,
  summaries: {
    start: 'Start a further authorisation of an open signing basket; embedded: may carry the password',
    list: 'List the authorisations of a signing basket',
    scaStatus: 'Read the SCA status of an authorisation of a signing basket (decoupled: poll it until finalised or failed)',
    update: 'Update PSU data on an authorisation of a signing basket (embedded: password, method, TAN; decoupled: the PSU-ID)',
  },
  unknown: [BASKET_UNKNOWN],
  startRefused: [{ status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: the basket is no longer open' }],
  authorisationUnknown: [BASKET_UNKNOWN],
};

/** The authorisation sub-resources of a signing basket (docs/signing-baskets.md), served where the profile offers baskets. */
@ApiTags('Signing baskets')
@Xs2aController('signing-baskets', 'PSP_PI')
export class BasketAuthorisationController {
  constructor(
    private readonly flow: AuthorisationFlow,
    private readonly baskets: SigningBasketService,
  ) {}

  @StartAuthorisationRoute(ROUTES)
  start(
    @Param('basketId') id: string,
    @Body() body: UpdatePsuDataDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<StartAuthorisationResponse> {
    return this.flow.start(this.basket(id, world), body, headers, response, world);
  }

  @ListAuthorisationsRoute(ROUTES)
  list(@Param('basketId') id: string, @RequestWorld() world: World): Promise<AuthorisationListResponse> {
    return this.flow.list(this.basket(id, world));
  }

  @ScaStatusRoute(ROUTES)
  scaStatus(
    @Param('basketId') id: string,
    @Param('authorisationId') authorisationId: string,
    @RequestWorld() world: World,
  ): Promise<ScaStatusResponse> {
    return this.flow.scaStatus(this.basket(id, world), authorisationId, world);
  }

  @UpdatePsuDataRoute(ROUTES)
  update(
    @Param('basketId') id: string,
    @Param('authorisationId') authorisationId: string,
    @Body() body: UpdatePsuDataDto,
    @ScaRequestHeaders() headers: ScaHeaders,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<ScaStepResponse> {
    return this.flow.update(this.basket(id, world), authorisationId, body, headers, response, world);
  }

  private basket(id: string, world: World): AuthorisedResource {
    return {
      target: { kind: 'basket', resourceId: id },
      path: `${basketPath(id)}/authorisations`,
      page: { name: 'signing-baskets', query: { basket_id: id } },
      open: (request) => this.baskets.startAuthorisation(id, request, world),
      ids: () => this.baskets.authorisationIds(id, world),
      find: (authorisationId) => this.baskets.findAuthorisation(id, authorisationId, world),
    };
  }
}
