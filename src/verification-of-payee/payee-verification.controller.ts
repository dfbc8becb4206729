import { StoresResource } from '../http/request-checks';
import { Body, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { href } from '../common/links';
import { TppErrorResponse } from '../http/error-response.dto';
import { RequestId } from '../http/request-id.middleware';
import { Xs2aController } from '../http/controller.decorator';
import { booleanHeader } from '../http/sca-headers.decorator';
import { World, RequestWorld } from '../world/world';
import { CheckedParty } from './payee-check.entity';
import {
  BulkPayeeVerificationDto,
  BulkPayeeVerificationResponse,
  BulkPayeeVerificationResultResponse,
  PayeeVerificationDto,
  PayeeVerificationResponse,
  toBulkEntries,
  toVerificationResponse,
  VopBulkStatusResponse,
} from './payee-verification.dto';
import { VerificationOfPayeeService } from './verification-of-payee.service';

const VOP_OFF = { status: 405, type: TppErrorResponse, description: 'SERVICE_INVALID: the profile turns Verification of Payee off' };
// Its example names the fixture bulk check (fixture-checks.ts).
const BULK_ID = { name: 'vopBulkId' };
const BULK_UNKNOWN = { status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no bulk check with this ID (of this client)' };

/** Dedicated Verification of Payee checks (docs/verification-of-payee.md), one or a bulk, each stored for a payment to name. */
@ApiTags('Verification of Payee')
@Xs2aController('', 'VOP_RS')
export class PayeeVerificationController {
  constructor(private readonly vop: VerificationOfPayeeService) {}

  @Post('payee-verifications')
  @StoresResource()
  @HttpCode(200)
  @ApiOperation({ summary: "Check a payee's name and/or organisation ID against those registered for the account" })
  @ApiOkResponse({ type: PayeeVerificationResponse })
  @ApiResponse(VOP_OFF)
  async verify(
    @Body() body: PayeeVerificationDto,
    @RequestId() requestId: string,
    @RequestWorld() world: World,
  ): Promise<PayeeVerificationResponse> {
    const [check] = await this.vop.check([body as CheckedParty], requestId, world, false);
    return toVerificationResponse(check);
  }

  @Post('bulk-payee-verifications')
  @StoresResource()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Check up to 100 payees at once: every answer at once, or (Client-Asynchronous-Process-Preferred: true) 202 and read them later',
  })
  @ApiHeader({
    name: 'Client-Asynchronous-Process-Preferred',
    required: false,
    schema: { type: 'boolean' },
    description: 'true: 202 with vopBulkId; the answers are read at the status link',
  })
  @ApiOkResponse({ type: BulkPayeeVerificationResponse, description: 'completed: every entry answered, in the order sent' })
  @ApiAcceptedResponse({ type: BulkPayeeVerificationResponse, description: 'recieved: read GET .../{vopBulkId}' })
  @ApiResponse(VOP_OFF)
  async verifyBulk(
    @Body() body: BulkPayeeVerificationDto,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) response: Response,
    @RequestWorld() world: World,
  ): Promise<BulkPayeeVerificationResponse> {
    const asynchronous = booleanHeader(response.req, 'Client-Asynchronous-Process-Preferred') === true;
    const checks = await this.vop.check(body.partyVerificationRequests as CheckedParty[], requestId, world, true);
    if (!asynchronous) return { vopBulkStatus: 'completed', partyVerificationResponses: toBulkEntries(checks) };
    response.status(202);
    const vopBulkId = checks[0].bulkId!;
    const self = `/v1/bulk-payee-verifications/${vopBulkId}`;
    return { vopBulkId, vopBulkStatus: 'recieved', _links: { self: href(self), status: href(`${self}/status`) } };
  }

  @Get('bulk-payee-verifications/:vopBulkId')
  @ApiOperation({ summary: "A bulk check's answers (the sandbox completes it by the first read)" })
  @ApiParam(BULK_ID)
  @ApiOkResponse({ type: BulkPayeeVerificationResultResponse })
  @ApiResponse(BULK_UNKNOWN)
  async bulk(@Param('vopBulkId') vopBulkId: string, @RequestWorld() world: World): Promise<BulkPayeeVerificationResultResponse> {
    return {
      vopBulkId,
      vopBulkStatus: 'completed',
      partyVerificationRequestsAndResults: toBulkEntries(await this.vop.bulk(vopBulkId, world)),
    };
  }

  @Get('bulk-payee-verifications/:vopBulkId/status')
  @ApiOperation({ summary: "A bulk check's status" })
  @ApiParam(BULK_ID)
  @ApiOkResponse({ type: VopBulkStatusResponse })
  @ApiResponse(BULK_UNKNOWN)
  async bulkStatus(@Param('vopBulkId') vopBulkId: string, @RequestWorld() world: World): Promise<VopBulkStatusResponse> {
    await this.vop.bulk(vopBulkId, world);
    return { vopBulkId, vopBulkStatus: 'completed' };
  }
}
