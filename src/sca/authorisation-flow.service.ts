import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
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
import { AuthorisationRequest, AuthorisationService } from '../authorisation/authorisation.service';
import { refusal } from '../common/error-catalogue';
import { scaRedirectHref } from '../common/links';
import { Environment } from '../config/environment';
import { announceCreated } from '../http/created-resource';
import { announceApproach, ScaHeaders } from '../http/sca-headers.decorator';
import { World } from '../world/world';
import { UpdatePsuDataDto } from './update-psu-data.dto';
import { ScaService, ScaTarget } from './sca.service';

/**
 * A consent, a payment (either kind of authorisation) or a signing basket, as its controller finds
 * it for one request: what the authorisation sub-resources need of it (docs/sca-approaches.md).
 */
export interface AuthorisedResource {
  readonly target: ScaTarget;
  /** Its authorisations' path: `/v1/consents/<id>/authorisations`. */
  readonly path: string;
  /** Its SCA page (`consents`), and the query that names the resource there. */
  readonly page: { name: string; query: Record<string, string> };
  open(request: AuthorisationRequest): Promise<Authorisation>;
  ids(): Promise<string[]>;
  /** Its authorisation with this ID, or null where it has none such (an unknown resource is refused). */
  find(authorisationId: string): Promise<Authorisation | null>;
  /** What its start and update answers carry besides the step (a payment's payee result). */
  also?(): Promise<object>;
}

/** The four operations on a resource's authorisation sub-resources: start, list, read (poll), update PSU data. */
@Injectable()
export class AuthorisationFlow {
  private readonly baseUrl: string;

  constructor(
    private readonly sca: ScaService,
    private readonly authorisations: AuthorisationService,
    config: ConfigService<Environment, true>,
  ) {
    this.baseUrl = config.get('PUBLIC_BASE_URL', { infer: true });
  }

  async start(
    resource: AuthorisedResource,
    body: UpdatePsuDataDto,
    headers: ScaHeaders,
    response: Response,
    world: World,
  ): Promise<StartAuthorisationResponse> {
    const request = await this.authorisations.requestOf(headers, resource.target);
    const authorisation = await this.sca.start(resource.target, () => resource.open(request), body, request, world);
    const answer = this.startAnswer(resource, authorisation, headers.redirectUri);
    return announceCreated(response, authorisation.approach, { ...answer, ...(await resource.also?.()) });
  }

  /** Redirect: the bank's answer with the SCA page; embedded and decoupled: the next step. */
  private startAnswer(resource: AuthorisedResource, authorisation: Authorisation, redirectUri: string | null): StartAuthorisationResponse {
    if (authorisation.approach === 'REDIRECT') {
      const scaRedirect = scaRedirectHref(this.baseUrl, resource.page.name, resource.page.query, redirectUri ?? undefined);
      return toStartAuthorisationResponse(authorisation, scaRedirect, resource.path);
    }
    const { scaStatus, ...step } = this.sca.stepAnswer(authorisation, `${resource.path}/${authorisation.id}`);
    return { scaStatus, authorisationId: authorisation.id, ...step };
  }

  async list(resource: AuthorisedResource): Promise<AuthorisationListResponse> {
    return { authorisationIds: await resource.ids() };
  }

  async scaStatus(resource: AuthorisedResource, authorisationId: string, world: World): Promise<ScaStatusResponse> {
    const authorisation = await resource.find(authorisationId);
    if (!authorisation) throw refusal('authorisationUnknown', `authorisation ${authorisationId} unknown`);
    const polled = await this.sca.poll(resource.target, authorisation, world);
    return { scaStatus: polled.status, ...psuMessageOf(polled) };
  }

  /** An authorisation that is not there is none to update: ScaService.update answers as the bank does. */
  async update(
    resource: AuthorisedResource,
    authorisationId: string,
    body: UpdatePsuDataDto,
    headers: ScaHeaders,
    response: Response,
    world: World,
  ): Promise<ScaStepResponse> {
    const updated = await this.sca.update(resource.target, await resource.find(authorisationId), body, headers.psuId, world);
    announceApproach(response, headers, updated.approach);
    return { ...this.sca.stepAnswer(updated, `${resource.path}/${updated.id}`), ...(await resource.also?.()) };
  }
}
