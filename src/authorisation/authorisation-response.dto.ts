import { ApiProperty } from '@nestjs/swagger';
import { DomainError } from '../common/error-catalogue';
import { href, Href } from '../common/links';
import type { Authorisation } from './authorisation.entity';
import type { ScaStatus } from './authorisation.machine';

const SCA_STATUSES = ['received', 'started', 'finalised', 'failed'];

export class StartAuthorisationLinks {
  @ApiProperty({ type: Href, example: { href: 'http://localhost:3000/sca/consents?consent_id=0b9e7a8c-31f4-4d2a-9f55-0c1e6e7d2a10' } })
  scaRedirect: Href;

  @ApiProperty({ type: Href, example: { href: '/v1/consents/0b9e7a8c-31f4-4d2a-9f55-0c1e6e7d2a10/authorisations/5c3c1c1a-7d1e-4c52-9d4b-1c0a1f1e2d3c' } })
  scaStatus: Href;
}

export class StartAuthorisationResponse {
  @ApiProperty({ enum: SCA_STATUSES, example: 'received' })
  scaStatus: ScaStatus;

  @ApiProperty({ format: 'uuid', example: '5c3c1c1a-7d1e-4c52-9d4b-1c0a1f1e2d3c' })
  authorisationId: string;

  @ApiProperty({ type: StartAuthorisationLinks })
  _links: StartAuthorisationLinks;
}

export class AuthorisationListResponse {
  @ApiProperty({ type: [String], example: ['5c3c1c1a-7d1e-4c52-9d4b-1c0a1f1e2d3c'] })
  authorisationIds: string[];
}

export class ScaStatusResponse {
  @ApiProperty({ enum: SCA_STATUSES, example: 'finalised' })
  scaStatus: ScaStatus;
}

/** `resourcePath` is the consent or payment path the authorisation hangs under, `/authorisations` included. */
export function toStartAuthorisationResponse(authorisation: Authorisation, scaRedirect: Href, resourcePath: string): StartAuthorisationResponse {
  return {
    scaStatus: authorisation.status,
    authorisationId: authorisation.id,
    _links: { scaRedirect, scaStatus: href(`${resourcePath}/${authorisation.id}`) },
  };
}

/**
 * PUT on an authorisation (update PSU data) belongs to the embedded and decoupled approaches; the
 * sandbox offers redirect, so Berlin Group's 405 SERVICE_INVALID answers it rather than "no route".
 * Its routes stay out of the OpenAPI document, as an operation the sandbox does not offer.
 */
export const updatePsuDataNotOffered = (): DomainError =>
  new DomainError({ messageId: 'XS2A031E', description: 'PUT on an authorisation is not offered: the sandbox uses the redirect approach, follow scaRedirect' });
