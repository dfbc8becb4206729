import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { BasketStatus } from './signing-basket.machine';
import { ApiExcludeController, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { TppErrorResponse } from '../http/error-response.dto';
import { SandboxController } from '../http/controller.decorator';
import { World, RequestWorld } from '../world/world';
import { ScaDecisionDto } from '../sca/sca-decision.dto';
import { formValue } from '../common/html';
import { APPROVE_OR_DENY, Flow, Form, ScaPageRenderer } from '../sca/sca-page-renderer';
import type { Row } from '../sca/sca-pages';
import { type Consent, fundsAccountOf } from '../consent/consent.entity';
import { consentedKeys } from '../consent/coverage';
import type { Payment } from '../payment-initiation/payment.entity';
import { ScaService } from '../sca/sca.service';
import { BasketStatusResponse } from './signing-basket.dto';
import { SigningBasketService } from './signing-basket.service';
import { Access } from '../http/route-access';

/** The SCA page of a signing basket (docs/signing-baskets.md): the holder sees every member still waiting and decides once. */
@ApiExcludeController()
@Controller('sca/signing-baskets')
@Access({ role: null, audience: 'holder' })
export class SigningBasketPageController {
  private readonly flow: Flow;

  constructor(
    sca: ScaService,
    baskets: SigningBasketService,
    private readonly pages: ScaPageRenderer,
  ) {
    this.flow = {
      title: 'Authorise a signing basket',
      intro: 'A third-party provider asks you to authorise all of the following at once.',
      action: '/sca/signing-baskets',
      buttons: APPROVE_OR_DENY,
      rows: async (id, start) => {
        const { waiting } = start ? await baskets.markStarted(id) : await baskets.findWaiting(id);
        return basketRows(waiting.payments, waiting.consents);
      },
      decide: async (id, decision, login) => {
        const { status, redirectUri } = await sca.decide(
          { kind: 'basket', resourceId: id },
          decision,
          login,
          World.of((await baskets.findWaiting(id)).basket),
          'page',
        );
        return {
          outcome: `Signing basket ${decision === 'approve' ? 'authorised' : 'refused'}: its status is now ${status}.`,
          redirectUri,
        };
      },
    };
  }

  @Get()
  show(@Query('basket_id') id: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.show(this.flow, formValue(id), request, response);
  }

  @Post()
  decide(@Body() form: Form, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.decide(this.flow, form, request, response);
  }
}

/** Headless SCA of a signing basket, for suites that cannot click (docs/sca-flows.md): served with the rest of the control API. */
@ApiTags('Sandbox control')
@SandboxController('sandbox')
export class SigningBasketControlController {
  constructor(private readonly sca: ScaService) {}

  @Post('sca/signing-baskets/:basketId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve or deny a signing basket as a test PSU: approval authorises each member still waiting' })
  @ApiOkResponse({ type: BasketStatusResponse })
  @ApiResponse({
    status: 401,
    type: TppErrorResponse,
    description: 'PSU_CREDENTIALS_INVALID: unknown PSU, or one who does not hold the accounts of every member',
  })
  @ApiResponse({ status: 403, type: TppErrorResponse, description: 'SERVICE_BLOCKED: the PSU is blocked' })
  @ApiResponse({ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no such signing basket' })
  @ApiResponse({ status: 409, type: TppErrorResponse, description: 'STATUS_INVALID: the basket is no longer open' })
  async decide(
    @Param('basketId') basketId: string,
    @Body() { psuId, decision }: ScaDecisionDto,
    @RequestWorld() world: World,
  ): Promise<BasketStatusResponse> {
    return {
      transactionStatus: (
        await this.sca.decide<BasketStatus>({ kind: 'basket', resourceId: basketId }, decision, { psuId }, world, 'control')
      ).status,
    };
  }
}

/** What one SCA of a signing basket authorises: each member still waiting, a payment or a consent in a line. */
function basketRows(payments: Payment[], consents: Consent[]): Row[] {
  return [
    ...payments.map((payment): Row => [
      `Payment ${payment.id}`,
      `${payment.amount} ${payment.currency} from ${payment.debtorIban}${payment.executionDate ? ` on ${payment.executionDate}` : ''}`,
    ]),
    ...consents.map(({ id, access, card }): Row => [
      `Consent ${id}`,
      card
        ? `confirmation of funds on ${fundsAccountOf({ access }).iban}`
        : `access to ${access.availableAccounts === 'allAccounts' ? 'all your accounts' : consentedKeys(access).join(', ')}`,
    ]),
  ];
}
