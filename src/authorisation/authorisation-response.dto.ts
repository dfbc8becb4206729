import { VopStatus } from '../verification-of-payee/vop-status.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { href, Href } from '../common/links';
import type { Authorisation } from './authorisation.entity';
import { OPEN_SCA_STATUSES, ScaStatus } from './authorisation.machine';

const SCA_STATUSES = [...OPEN_SCA_STATUSES, 'finalised', 'failed'];
const AUTHORISATION_PATH =
  '/v1/payments/sepa-credit-transfers/3d9a81b3-a47d-4130-8765-a9c0ff861b99/authorisations/5c3c1c1a-7d1e-4c52-9d4b-1c0a1f1e2d3c';

/** The links of an authorisation's answers: the redirect page, or the next step of embedded or decoupled SCA (docs/sca-approaches.md). */
export class ScaLinks {
  @ApiPropertyOptional({
    type: Href,
    description: 'redirect: the SCA page',
    example: { href: 'http://localhost:3000/sca/consents?consent_id=0b9e7a8c-31f4-4d2a-9f55-0c1e6e7d2a10' },
  })
  scaRedirect?: Href;

  @ApiPropertyOptional({ type: Href, description: 'embedded: PUT the password here', example: { href: AUTHORISATION_PATH } })
  updatePsuAuthentication?: Href;

  @ApiPropertyOptional({ type: Href, description: 'decoupled: PUT {} here with the PSU-ID header', example: { href: AUTHORISATION_PATH } })
  updatePsuIdentification?: Href;

  @ApiPropertyOptional({
    type: Href,
    description: 'embedded, several SCA methods: PUT the authenticationMethodId here',
    example: { href: AUTHORISATION_PATH },
  })
  selectAuthenticationMethod?: Href;

  @ApiPropertyOptional({
    type: Href,
    description: 'embedded: PUT the TAN (scaAuthenticationData) here',
    example: { href: AUTHORISATION_PATH },
  })
  authoriseTransaction?: Href;

  @ApiPropertyOptional({
    type: Href,
    description: 'the SCA status to read (and, decoupled, to poll)',
    example: { href: AUTHORISATION_PATH },
  })
  scaStatus?: Href;
}

export class ScaMethodResponse {
  @ApiProperty({ enum: ['SMS_OTP', 'CHIP_OTP', 'PHOTO_OTP', 'PUSH_OTP', 'SMTP_OTP'], example: 'SMS_OTP' })
  authenticationType: string;

  @ApiProperty({ example: 'sms' })
  authenticationMethodId: string;

  @ApiProperty({ example: 'SMS OTP on phone +43 660 xxxxx 76' })
  name: string;
}

export class ChallengeDataResponse {
  @ApiProperty({ example: 6 })
  otpMaxLength: number;

  @ApiProperty({ enum: ['characters', 'integer'], example: 'integer' })
  otpFormat: string;

  @ApiProperty({ example: 'Sandbox: the TAN is 123456.' })
  additionalInformation: string;
}

/** Berlin Group's answers to update PSU data (and to a start that carried some), one shape per step. */
export class ScaStepResponse {
  @ApiProperty({ enum: SCA_STATUSES, example: 'scaMethodSelected' })
  scaStatus: ScaStatus;

  @ApiPropertyOptional({ type: [ScaMethodResponse], description: 'psuAuthenticated: the methods to choose from' })
  scaMethods?: ScaMethodResponse[];

  @ApiPropertyOptional({ type: ScaMethodResponse, description: 'scaMethodSelected: the method the TAN comes by' })
  chosenScaMethod?: ScaMethodResponse;

  @ApiPropertyOptional({ type: ChallengeDataResponse, description: 'scaMethodSelected' })
  challengeData?: ChallengeDataResponse;

  @ApiPropertyOptional({
    example: 'Please confirm in your SandboxBank app.',
    description: 'decoupled, started: what the TPP shows the holder',
  })
  psuMessage?: string;

  @ApiProperty({ type: ScaLinks })
  _links: ScaLinks;

  @ApiPropertyOptional({
    type: VopStatus,
    description: "a payment's authorisation, its one creditor checked: the result, one object as the 1.3.16 yaml types it here",
  })
  originalTransactionInformationAndVopStatus?: VopStatus;
}

export class StartAuthorisationResponse extends ScaStepResponse {
  @ApiProperty({ format: 'uuid', example: '5c3c1c1a-7d1e-4c52-9d4b-1c0a1f1e2d3c' })
  authorisationId: string;
}

export class AuthorisationListResponse {
  @ApiProperty({ type: [String], example: ['5c3c1c1a-7d1e-4c52-9d4b-1c0a1f1e2d3c'] })
  authorisationIds: string[];
}

export class ScaStatusResponse {
  @ApiProperty({ enum: SCA_STATUSES, example: 'finalised' })
  scaStatus: ScaStatus;

  @ApiPropertyOptional({
    example: 'Please confirm in your SandboxBank app.',
    description: 'decoupled, started: the holder has not confirmed yet',
  })
  psuMessage?: string;
}

/** What the decoupled answers tell the holder (psuMessage). */
export const DECOUPLED_MESSAGE = 'Please confirm in your SandboxBank app.';

/** The link that names the next step of an embedded or decoupled authorisation at `path` (its own address), by its status. */
export function nextStepLinks(authorisation: Authorisation, path: string): Record<string, Href> {
  const next: Partial<Record<Authorisation['status'], string>> =
    authorisation.approach === 'DECOUPLED'
      ? { received: 'updatePsuIdentification' }
      : { received: 'updatePsuAuthentication', psuAuthenticated: 'selectAuthenticationMethod', scaMethodSelected: 'authoriseTransaction' };
  const name = next[authorisation.status];
  return { ...(name ? { [name]: href(path) } : {}), scaStatus: href(path) };
}

/** What a decoupled authorisation tells the holder while the app asks them. */
export const psuMessageOf = ({ approach, status }: Authorisation): { psuMessage?: string } =>
  approach === 'DECOUPLED' && status === 'started' ? { psuMessage: DECOUPLED_MESSAGE } : {};

/**
 * The bank's answer to a redirect start: the SCA page and the status. `resourcePath` is the consent
 * or payment path the authorisation hangs under, `/authorisations` included. An authorisation that
 * is over already (SCA_MODE=auto decides at once) links no page: there is nothing left to do there.
 */
export function toStartAuthorisationResponse(
  authorisation: Authorisation,
  scaRedirect: Href,
  resourcePath: string,
): StartAuthorisationResponse {
  return {
    scaStatus: authorisation.status,
    authorisationId: authorisation.id,
    _links: {
      ...(OPEN_SCA_STATUSES.includes(authorisation.status) ? { scaRedirect } : {}),
      scaStatus: href(`${resourcePath}/${authorisation.id}`),
    },
  };
}
