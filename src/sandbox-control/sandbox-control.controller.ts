import { StoresResource } from '../http/request-checks';
import { FormatError } from '../common/error-catalogue';
import type { ConsentStatus } from '../consent/consent.machine';
import type { PaymentStatus } from '../payment-initiation/payment.machine';
import { BankProfile } from '../profile/bank-profile';
import { Body, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AS_NEW } from '../database/world-snapshot.entity';
import { World, RequestWorld } from '../world/world';
import { ClockService } from '../clock/clock.service';
import { TppErrorResponse } from '../http/error-response.dto';
import { SandboxController } from '../http/controller.decorator';
import { ConsentStatusResponse } from '../consent/dto/consent-response.dto';
import { PaymentStatusResponse } from '../payment-initiation/dto/payment-response.dto';
import { ScaService } from '../sca/sca.service';
import { WorldTickets } from '../sca/world-tickets.service';
import { ConsentService } from '../consent/consent.service';
import { href } from '../common/links';
import { PaymentInitiationService } from '../payment-initiation/payment-initiation.service';
import {
  AdvanceClockDto,
  BankConditionsDto,
  ClockDto,
  InstalmentsResponse,
  RestoredSnapshotResponse,
  RevocationDto,
  RevocationLinkResponse,
  SnapshotListResponse,
  SnapshotResponse,
  TakeSnapshotDto,
  WorldResetResponse,
} from './sandbox-control.dto';
import { ScaDecisionDto } from '../sca/sca-decision.dto';
import { BankConditionsService } from '../conditions/bank-conditions.service';
import { EventHistory } from '../events/event-history.service';
import { EventPageResponse, EventQueryDto, eventKinds, toEventResponse } from '../events/events.dto';
import { SandboxControlService } from './sandbox-control.service';
import { CreateScenarioDto, ScenarioResponse } from './scenario.dto';
import { ScenarioService } from './scenario.service';

const PSU_INVALID = {
  status: 401,
  type: TppErrorResponse,
  description: 'PSU_CREDENTIALS_INVALID: unknown PSU, or one who does not hold the accounts concerned',
} as const;
const PSU_BLOCKED = { status: 403, type: TppErrorResponse, description: 'SERVICE_BLOCKED: the PSU is blocked' } as const;
const NOT_WAITING = { status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: not waiting for a decision' } as const;

/**
 * Headless SCA, scenarios and the clock, for integration suites that cannot click (docs/sca-flows.md).
 * No bearer token in AUTH_MODE=open; in strict mode a client decides on and deletes only its own.
 */
@ApiTags('Sandbox control')
@SandboxController('sandbox')
export class SandboxControlController {
  constructor(
    private readonly sca: ScaService,
    private readonly control: SandboxControlService,
    private readonly clock: ClockService,
    private readonly scenarios: ScenarioService,
    private readonly payments: PaymentInitiationService,
    private readonly conditions: BankConditionsService,
    private readonly history: EventHistory,
    private readonly profile: BankProfile,
    private readonly consents: ConsentService,
    private readonly tickets: WorldTickets,
  ) {}

  @Post('scenarios')
  @StoresResource()
  @ApiOperation({
    summary: "Create a test suite's own PSU, accounts, balances, transactions and standing orders, with a valid consent over them",
  })
  @ApiCreatedResponse({ type: ScenarioResponse })
  createScenario(@Body() body: CreateScenarioDto, @RequestWorld() world: World): Promise<ScenarioResponse> {
    return this.scenarios.create(body, world);
  }

  @Delete('scenarios/:scenarioId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a scenario: its PSU, accounts and their data, and its consent' })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiResponse({ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no such scenario' })
  deleteScenario(@Param('scenarioId') scenarioId: string, @RequestWorld() world: World): Promise<void> {
    return this.scenarios.delete(scenarioId, world);
  }

  @Post('sca/consents/:consentId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve or deny a consent as a test PSU, as the SCA page would' })
  @ApiOkResponse({ type: ConsentStatusResponse })
  @ApiResponse(PSU_INVALID)
  @ApiResponse({ status: 403, type: TppErrorResponse, description: 'CONSENT_UNKNOWN; SERVICE_BLOCKED: the PSU is blocked' })
  @ApiResponse(NOT_WAITING)
  async decideConsent(
    @Param('consentId') consentId: string,
    @Body() { psuId, decision }: ScaDecisionDto,
    @RequestWorld() world: World,
  ): Promise<ConsentStatusResponse> {
    return {
      consentStatus: (
        await this.sca.decide<ConsentStatus>({ kind: 'consent', resourceId: consentId }, decision, { psuId }, world, 'control')
      ).status,
    };
  }

  @Post('sca/payments/:paymentId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve or deny a payment as a test PSU: approval applies the funds and date rules' })
  @ApiOkResponse({ type: PaymentStatusResponse })
  @ApiResponse(PSU_INVALID)
  @ApiResponse(PSU_BLOCKED)
  @ApiResponse({ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN' })
  @ApiResponse(NOT_WAITING)
  async decidePayment(
    @Param('paymentId') paymentId: string,
    @Body() { psuId, decision }: ScaDecisionDto,
    @RequestWorld() world: World,
  ): Promise<PaymentStatusResponse> {
    return {
      transactionStatus: (
        await this.sca.decide<PaymentStatus>({ kind: 'payment', resourceId: paymentId }, decision, { psuId }, world, 'control')
      ).status,
    };
  }

  @Post('sca/payments/:paymentId/cancellation')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve or deny the cancellation of a PDNG payment: approval makes it CANC' })
  @ApiOkResponse({ type: PaymentStatusResponse })
  @ApiResponse(PSU_INVALID)
  @ApiResponse(PSU_BLOCKED)
  @ApiResponse({ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN' })
  @ApiResponse(NOT_WAITING)
  async decideCancellation(
    @Param('paymentId') paymentId: string,
    @Body() { psuId, decision }: ScaDecisionDto,
    @RequestWorld() world: World,
  ): Promise<PaymentStatusResponse> {
    return {
      transactionStatus: (
        await this.sca.decide<PaymentStatus>({ kind: 'cancellation', resourceId: paymentId }, decision, { psuId }, world, 'control')
      ).status,
    };
  }

  @Post('consents/:consentId/revocation')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Revoke a valid consent as the PSU who holds its accounts, as at the bank: revokedByPsu, and it reads nothing any more',
  })
  @ApiOkResponse({ type: ConsentStatusResponse })
  @ApiResponse(PSU_INVALID)
  @ApiResponse({ status: 403, type: TppErrorResponse, description: 'CONSENT_UNKNOWN; SERVICE_BLOCKED: the PSU is blocked' })
  @ApiResponse({ status: 409, type: TppErrorResponse, description: "STATUS_INVALID: not valid, or one of the bank's fixtures" })
  async revokeConsent(
    @Param('consentId') consentId: string,
    @Body() { psuId }: RevocationDto,
    @RequestWorld() world: World,
  ): Promise<ConsentStatusResponse> {
    return { consentStatus: (await this.sca.changeConsent('revoke', consentId, { psuId }, world, 'control')).status };
  }

  @Post('consents/:consentId/revocation-links')
  @ApiOperation({
    summary: "A link to the holder's revocation page of a valid consent, for the calling client's world, good for an hour",
  })
  @ApiCreatedResponse({ type: RevocationLinkResponse })
  @ApiResponse({ status: 403, type: TppErrorResponse, description: 'CONSENT_UNKNOWN' })
  @ApiResponse({ status: 409, type: TppErrorResponse, description: "STATUS_INVALID: not valid, or one of the bank's fixtures" })
  async revocationLink(@Param('consentId') consentId: string, @RequestWorld() world: World): Promise<RevocationLinkResponse> {
    await this.consents.findRevocable(consentId, world);
    return { _links: { revocation: href(this.tickets.link('/sca/consents/revocation', world, { consent_id: consentId })) } };
  }

  @Get('events')
  @ApiOperation({
    summary: 'The event history, newest first: status changes, bookings, instalments, clock moves, with their cause (docs/events.md)',
  })
  @ApiOkResponse({ type: EventPageResponse })
  async events(@Query() query: EventQueryDto, @RequestWorld() world: World): Promise<EventPageResponse> {
    // Refused as the validation pipe refuses any kind the bank's document does not list.
    const kinds = eventKinds(this.profile);
    if (query.kind && !kinds.includes(query.kind))
      throw new FormatError('kind', `kind must be one of the following values: ${kinds.join(', ')}`);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 50;
    const { events, total } = await this.history.list({ ...query, page, pageSize }, world);
    return { events: events.map(toEventResponse), page, pageSize, total };
  }

  @Get('conditions')
  @ApiOperation({ summary: "Read the bank's conditions: maintenance and delay" })
  @ApiOkResponse({ type: BankConditionsDto })
  readConditions(@RequestWorld() world: World): BankConditionsDto {
    return this.conditions.get(world);
  }

  @Put('conditions')
  @ApiOperation({
    summary: "Set the bank's conditions: maintenance (every /v1 request answers 503) and a delay of every /v1 answer, until set back",
  })
  @ApiOkResponse({ type: BankConditionsDto })
  setConditions(@Body() conditions: BankConditionsDto, @RequestWorld() world: World): Promise<BankConditionsDto> {
    return this.conditions.set(world, { maintenance: conditions.maintenance, delayMs: conditions.delayMs });
  }

  @Get('payments/:paymentId/instalments')
  @ApiOperation({
    summary:
      "A periodic payment's progress: instalments run, the next execution date, and the instalments that failed with their ISO 20022 reason",
  })
  @ApiOkResponse({ type: InstalmentsResponse })
  @ApiResponse({ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no such periodic payment' })
  async instalments(@Param('paymentId') paymentId: string, @RequestWorld() world: World): Promise<InstalmentsResponse> {
    const { instalmentsRun, nextExecutionDate, failed } = await this.payments.instalments(paymentId, world);
    return {
      instalmentsRun,
      nextExecutionDate,
      failed: failed.map(({ number, dueDate, executionDate, reasonCode }) => ({ number, dueDate, executionDate, reasonCode })),
    };
  }

  @Post('world/reset')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Forget everything this world created (consents, payments, baskets, scenarios, checks, events, notifications, certificates, conditions) and put its clock back; other worlds are untouched',
  })
  @ApiOkResponse({ type: WorldResetResponse })
  resetWorld(@RequestWorld() world: World): Promise<WorldResetResponse> {
    return this.control.resetWorld(world);
  }

  @Post('world/snapshots')
  @ApiOperation({
    summary:
      "Take a snapshot of this world's state (consents, payments, baskets, scenarios, checks, events, notifications, conditions, clock) to restore later; its client and certificates are not state",
  })
  @ApiCreatedResponse({ type: SnapshotResponse })
  @ApiResponse({
    status: 429,
    type: TppErrorResponse,
    description: 'ACCESS_EXCEEDED: the world keeps 10 snapshots already, or its state is too large for one',
  })
  takeSnapshot(@Body() { name }: TakeSnapshotDto, @RequestWorld() world: World): Promise<SnapshotResponse> {
    return this.control.takeSnapshot(world, name);
  }

  @Get('world/snapshots')
  @ApiOperation({ summary: "This world's snapshots: `as new`, which every world has, then those it took, oldest first" })
  @ApiOkResponse({ type: SnapshotListResponse })
  async listSnapshots(@RequestWorld() world: World): Promise<SnapshotListResponse> {
    return { snapshots: await this.control.listSnapshots(world) };
  }

  @Post('world/snapshots/:snapshotId/restore')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Bring this world back to the snapshot: what was made after is unknown again, what was changed or deleted after is as it was, its clock and conditions too',
  })
  @ApiParam({ name: 'snapshotId', example: AS_NEW.snapshotId })
  @ApiOkResponse({ type: RestoredSnapshotResponse })
  @ApiResponse({ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no such snapshot of this world' })
  restoreSnapshot(@Param('snapshotId') snapshotId: string, @RequestWorld() world: World): Promise<RestoredSnapshotResponse> {
    return this.control.restoreSnapshot(world, snapshotId);
  }

  @Delete('world/snapshots/:snapshotId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a snapshot this world took' })
  @ApiParam({ name: 'snapshotId', example: AS_NEW.snapshotId })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiResponse({ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no such snapshot of this world' })
  @ApiResponse({ status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: `as new`, which every world has, stays' })
  deleteSnapshot(@Param('snapshotId') snapshotId: string, @RequestWorld() world: World): Promise<void> {
    return this.control.deleteSnapshot(world, snapshotId);
  }

  @Get('clock')
  @ApiOperation({ summary: 'Read the sandbox date' })
  @ApiOkResponse({ type: ClockDto })
  readClock(@RequestWorld() world: World): ClockDto {
    return { today: this.clock.today(world) };
  }

  @Put('clock')
  @ApiOperation({ summary: 'Set the sandbox date: consents past validUntil expire, pending payments whose date has come execute' })
  @ApiOkResponse({ type: ClockDto })
  async setClock(@Body() { today }: ClockDto, @RequestWorld() world: World): Promise<ClockDto> {
    return this.control.setClock(world, today);
  }

  @Post('clock/advance')
  @HttpCode(200)
  @ApiOperation({ summary: 'Move the sandbox date forward by some days, with the same effects' })
  @ApiOkResponse({ type: ClockDto })
  async advanceClock(@Body() { days }: AdvanceClockDto, @RequestWorld() world: World): Promise<ClockDto> {
    return this.control.advanceClock(world, days);
  }
}
