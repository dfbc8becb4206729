import { Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { TppErrorResponse } from '../http/error-response.dto';
import { SandboxController } from '../http/controller.decorator';
import { type World, RequestWorld } from '../world/world';
import { href } from '../common/links';
import { WorldTickets } from '../sca/world-tickets.service';
import { DashboardLinkResponse, PermissionListResponse, PermissionResponse } from './permissions.dto';
import { PermissionsService } from './permissions.service';

const PSU_INVALID = {
  status: 401,
  type: TppErrorResponse,
  description:
    "PSU_CREDENTIALS_INVALID: unknown PSU (in AUTH_MODE=strict, another client's scenario PSU too), or one who does not hold every account of the consent",
} as const;
const PSU_BLOCKED = {
  status: 403,
  type: TppErrorResponse,
  description: 'SERVICE_BLOCKED: the PSU is blocked; CONSENT_UNKNOWN: no such consent (in AUTH_MODE=strict, none of this client)',
} as const;

/**
 * The permission dashboard without a browser, for suites (docs/permission-dashboard.md): what the
 * holder sees on /dashboard, and their withdrawal and re-establishment. In AUTH_MODE=strict a
 * client sees and changes only its own consents.
 */
const PSU = ApiParam({
  name: 'psuId',
  description: "a fixture PSU, or a scenario's (in AUTH_MODE=strict only the client's own scenarios')",
  example: 'georg.mustermann',
});

@ApiTags('Sandbox control')
@SandboxController('sandbox/psus/:psuId/permissions')
@PSU
export class PermissionsController {
  constructor(private readonly permissions: PermissionsService) {}

  @Get()
  @ApiOperation({
    summary:
      "A PSU's permission dashboard as JSON: every consent naming their accounts or cards, newest first, and the record of ended ones",
  })
  @ApiOkResponse({ type: PermissionListResponse })
  @ApiResponse(PSU_INVALID)
  @ApiResponse({ status: 403, type: TppErrorResponse, description: 'SERVICE_BLOCKED: the PSU is blocked' })
  list(@Param('psuId') psuId: string, @RequestWorld() world: World): Promise<PermissionListResponse> {
    return this.permissions.list({ psuId }, world);
  }

  @Post(':consentId/withdrawal')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Withdraw a valid consent as its holder on the dashboard: revokedByPsu, its TPP reads nothing any more and is notified',
  })
  @ApiOkResponse({ type: PermissionResponse })
  @ApiResponse(PSU_INVALID)
  @ApiResponse(PSU_BLOCKED)
  @ApiResponse({
    status: 409,
    type: TppErrorResponse,
    description: 'STATUS_INVALID: not valid (already withdrawn, deleted by the TPP, expired, not yet authorised)',
  })
  withdraw(
    @Param('psuId') psuId: string,
    @Param('consentId') consentId: string,
    @RequestWorld() world: World,
  ): Promise<PermissionResponse> {
    return this.permissions.change('revoke', consentId, { psuId }, world, 'dashboard');
  }
}

/** Served where the profile lets the holder re-establish a withdrawn consent (permissionDashboard.reestablish). */
@ApiTags('Sandbox control')
@SandboxController('sandbox/psus/:psuId/permissions')
@PSU
export class ReestablishmentController {
  constructor(private readonly permissions: PermissionsService) {}

  @Post(':consentId/reestablishment')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Re-establish a consent its holder withdrew, while it has not expired: valid again with the same access and limits (not a Berlin Group transition)',
  })
  @ApiOkResponse({ type: PermissionResponse })
  @ApiResponse(PSU_INVALID)
  @ApiResponse(PSU_BLOCKED)
  @ApiResponse({ status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: not withdrawn by its holder, or past its validUntil' })
  reestablish(
    @Param('psuId') psuId: string,
    @Param('consentId') consentId: string,
    @RequestWorld() world: World,
  ): Promise<PermissionResponse> {
    return this.permissions.change('reestablish', consentId, { psuId }, world, 'dashboard');
  }
}

/**
 * The link a client hands its test's browser to open the dashboard in its own world (docs/security.md,
 * "Worlds"): in AUTH_MODE=strict a fixture PSU's public password opens only the world of the client
 * whose link it was. In open mode the plain /dashboard does as well.
 */
@ApiTags('Sandbox control')
@SandboxController('sandbox/dashboard-links')
export class DashboardLinksController {
  constructor(private readonly tickets: WorldTickets) {}

  @Post()
  @ApiOperation({ summary: "A link to the permission dashboard's sign-in for the calling client's world, good for an hour" })
  @ApiCreatedResponse({ type: DashboardLinkResponse })
  link(@RequestWorld() world: World): DashboardLinkResponse {
    return { _links: { dashboard: href(this.tickets.link('/dashboard', world)) } };
  }
}
