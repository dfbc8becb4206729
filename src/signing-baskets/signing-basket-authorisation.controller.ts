import { ConfigService } from '@nestjs/config';
import { ApiTags } from '@nestjs/swagger';
import { AuthorisationService } from '../authorisation/authorisation.service';
import { Environment } from '../config/environment';
import { TppErrorResponse } from '../http/error-response.dto';
import { Xs2aController } from '../http/request.guard';
import { ScaService } from '../sca/sca.service';
import { SigningBasketService } from './signing-basket.service';
import { basketPath } from './signing-basket.dto';
import { AuthorisationRoutes, AuthorisationRoutesOf } from '../authorisation/authorisation-routes.decorator';

const BASKET_UNKNOWN = {
  status: 404,
  type: TppErrorResponse,
  description: 'RESOURCE_UNKNOWN: no such signing basket, or no such authorisation of it',
} as const;

/** The authorisation sub-resources of a signing basket (docs/signing-baskets.md), served where the profile offers baskets. */
@ApiTags('Signing baskets')
@Xs2aController('signing-baskets', 'PSP_PI')
export class BasketAuthorisationController extends AuthorisationRoutesOf({
  param: 'basketId',
  name: 'a signing basket',
  startSummary: 'Start a further authorisation of an open signing basket; embedded: may carry the password',
  updateSummary: 'Update PSU data on an authorisation of a signing basket (embedded: password, method, TAN; decoupled: the PSU-ID)',
  unknown: BASKET_UNKNOWN,
  noAuthorisation: BASKET_UNKNOWN,
  notWaiting: 'STATUS_INVALID: the basket is no longer open',
}) {
  protected readonly of: AuthorisationRoutes;

  constructor(
    sca: ScaService,
    baskets: SigningBasketService,
    authorisations: AuthorisationService,
    config: ConfigService<Environment, true>,
  ) {
    super();
    this.of = new AuthorisationRoutes(sca, authorisations, config.get('PUBLIC_BASE_URL', { infer: true }), {
      kind: 'basket',
      path: basketPath,
      page: { name: 'signing-baskets', parameter: 'basket_id' },
      open: (id, request, world) => baskets.startAuthorisation(id, request, world),
      ids: (id, world) => baskets.authorisationIds(id, world),
      find: (id, authorisationId, world) => baskets.findAuthorisation(id, authorisationId, world),
    });
  }
}
