import { EXAMPLE } from '../common/document-examples';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Href } from '../common/links';
import { CONSENT_STATUSES } from '../consent/dto/consent-response.dto';
import type { AccountUse, Permission, PermissionHolder, PermittedAccount } from './permission';

const USES: AccountUse[] = ['accountDetails', 'balances', 'transactions', 'trustedBeneficiaries', 'fundsConfirmation'];

export class PermissionHolderResponse implements PermissionHolder {
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'sandbox-tpp',
    description: 'the client that created the consent; null where the sandbox runs without client credentials (AUTH_MODE=open)',
  })
  clientId: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Sandbox TPP', description: "the client's name as the bank registered it" })
  name: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Example AISP GmbH',
    description:
      "the organisation of the certificate the consent's creation was signed or sent with (docs/tpp-identity.md); null: none the sandbox issued",
  })
  organisationName: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'PSDDE-BAFIN-123456', description: "that certificate's organisation identifier" })
  organisationIdentifier: string | null;
}

export class PermittedAccountResponse implements PermittedAccount {
  @ApiPropertyOptional({ example: 'DE89370400440532013000', description: 'a payment account' })
  iban?: string;

  @ApiPropertyOptional({ example: '525412******3241', description: 'a card account (docs/card-accounts.md)' })
  maskedPan?: string;

  @ApiProperty({ type: String, nullable: true, example: 'EUR' })
  currency: string | null;

  @ApiProperty({ enum: USES, isArray: true, description: 'what the TPP may do with the account' })
  uses: AccountUse[];
}

export class PermissionResponse implements Permission {
  @ApiProperty({ format: 'uuid' })
  consentId: string;

  @ApiProperty({ enum: CONSENT_STATUSES })
  consentStatus: Permission['consentStatus'];

  @ApiProperty({ format: 'date', description: 'the sandbox date of its last change: granted, withdrawn, re-established, ended' })
  lastActionDate: string;

  @ApiProperty({ enum: ['accountInformation', 'fundsConfirmation'] })
  service: Permission['service'];

  @ApiProperty({ type: PermissionHolderResponse })
  tpp: PermissionHolderResponse;

  @ApiProperty({ type: [PermittedAccountResponse], description: "the PSU's own accounts the consent names (none of another holder's)" })
  accounts: PermittedAccountResponse[];

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date',
    description: 'the sandbox date it became valid; null: not yet, or valid from its creation by a scenario',
  })
  grantedOn: string | null;

  @ApiProperty({ format: 'date', description: 'its last day' })
  validUntil: string;

  @ApiProperty({ description: 'true: recurring access; false: one-off' })
  recurringIndicator: boolean;

  @ApiProperty({ description: 'reads a day without the holder present; 0 for the confirmation of funds (not limited)' })
  frequencyPerDay: number;

  @ApiProperty({ description: 'the most of those reads any of its accounts had today' })
  usedToday: number;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date',
    description: 'the last sandbox day it read an account without the holder present; null: never',
  })
  lastAccessOn: string | null;

  @ApiProperty({ description: 'valid: the holder may withdraw it' })
  canWithdraw: boolean;

  @ApiProperty({
    description: 'withdrawn, not past its validUntil, and the bank lets the holder re-establish it (permissionDashboard.reestablish)',
  })
  canReestablish: boolean;
}

export class PermissionListResponse {
  @ApiProperty({ example: EXAMPLE.psuId })
  psuId: string;

  @ApiProperty({
    type: [PermissionResponse],
    description: 'valid, waiting for the holder, or withdrawn and re-establishable; newest first',
  })
  permissions: PermissionResponse[];

  @ApiProperty({
    type: [PermissionResponse],
    description:
      'for the record, two years after their last change: expired, rejected, terminated by the TPP, withdrawn for good; newest first',
  })
  record: PermissionResponse[];
}

export class DashboardLinks {
  @ApiProperty({
    type: Href,
    description: "the dashboard's sign-in, opening the calling client's world (AUTH_MODE=strict; the link works for an hour)",
  })
  dashboard: Href;
}

export class DashboardLinkResponse {
  @ApiProperty({ type: DashboardLinks })
  _links: DashboardLinks;
}
