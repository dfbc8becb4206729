import { applyDecorators, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiParamOptions, ApiResponse, ApiResponseOptions } from '@nestjs/swagger';
import { AuthorisationListResponse, ScaStatusResponse, ScaStepResponse, StartAuthorisationResponse } from './authorisation-response.dto';
import { CreatesInBerlinGroup } from '../http/berlin-group-answers';
import { TppErrorResponse } from '../http/error-response.dto';
import { ApiScaRequestHeaders, SCA_APPROACH_HEADER } from '../http/sca-headers.decorator';
import { UpdatePsuDataDto } from '../sca/update-psu-data.dto';

const AUTHORISATION_ID = {
  name: 'authorisationId',
  description: 'an authorisation ID, or authorization_not_yet_available for the first one',
};
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

/** How a resource's authorisation sub-resources are served and documented (consents, payments, signing baskets). */
export interface AuthorisationRoutes {
  /** The routes' paths: of the sub-resources (`suffix` ''), and of one authorisation ('/:authorisationId'). */
  paths(suffix: string): string | string[];
  /** The path parameters besides the handlers' own that the document names. */
  params?: ApiParamOptions[];
  summaries: { start: string; list: string; scaStatus: string; update: string };
  /** The refusals of every route (an unknown resource), of a start, and of a route naming one authorisation. */
  unknown: ApiResponseOptions[];
  startRefused: ApiResponseOptions[];
  authorisationUnknown: ApiResponseOptions[];
}

/** A method's decorators listed as they would be written on it (TypeScript applies the last first; applyDecorators in its order). */
const written = (...decorators: (MethodDecorator | ClassDecorator)[]) => applyDecorators(...decorators.reverse());
const params = (routes: AuthorisationRoutes) => (routes.params ?? []).map((param) => ApiParam(param));
const responses = (list: readonly ApiResponseOptions[]) => list.map((response) => ApiResponse(response));

/** POST …/authorisations: a further authorisation (docs/sca-approaches.md). */
export const StartAuthorisationRoute = (routes: AuthorisationRoutes) =>
  written(
    Post(routes.paths('')),
    HttpCode(201),
    ApiOperation({ summary: routes.summaries.start }),
    ...params(routes),
    ApiScaRequestHeaders(),
    ApiBody({ type: UpdatePsuDataDto, required: false }),
    ApiResponse({ status: 201, type: StartAuthorisationResponse, headers: SCA_APPROACH_HEADER }),
    ...responses(routes.unknown),
    ...responses(routes.startRefused),
    CreatesInBerlinGroup(),
  );

/** GET …/authorisations: their IDs. */
export const ListAuthorisationsRoute = (routes: AuthorisationRoutes) =>
  written(
    Get(routes.paths('')),
    ApiOperation({ summary: routes.summaries.list }),
    ...params(routes),
    ApiOkResponse({ type: AuthorisationListResponse }),
    ...responses(routes.unknown),
  );

/** GET …/authorisations/{authorisationId}: its SCA status (decoupled: polled). */
export const ScaStatusRoute = (routes: AuthorisationRoutes) =>
  written(
    Get(routes.paths('/:authorisationId')),
    ApiOperation({ summary: routes.summaries.scaStatus }),
    ...params(routes),
    ApiParam(AUTHORISATION_ID),
    ApiOkResponse({ type: ScaStatusResponse }),
    ...responses(routes.unknown),
    ...responses(routes.authorisationUnknown),
  );

/** PUT …/authorisations/{authorisationId}: update PSU data (embedded, decoupled). */
export const UpdatePsuDataRoute = (routes: AuthorisationRoutes) =>
  written(
    Put(routes.paths('/:authorisationId')),
    ApiOperation({ summary: routes.summaries.update }),
    ...params(routes),
    ApiParam(AUTHORISATION_ID),
    ApiScaRequestHeaders(),
    ApiBody({ type: UpdatePsuDataDto }),
    ApiOkResponse({ type: ScaStepResponse, headers: SCA_APPROACH_HEADER }),
    ...responses(routes.unknown),
    ...responses(routes.authorisationUnknown),
    // In their order, as one decorator: a status shared with the route's own (403) says theirs first.
    applyDecorators(...responses(STEP_ERRORS)),
  );
