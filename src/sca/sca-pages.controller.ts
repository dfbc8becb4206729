import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ConsentService } from '../consent/consent.service';
import { PaymentInitiationService } from '../payment-initiation/payment-initiation.service';
import { formValue } from '../common/html';
import { APPROVE_OR_DENY, Flow, Form, ScaPageRenderer } from './sca-page-renderer';
import { consentRows, paymentRows } from './sca-pages';
import { ScaService } from './sca.service';
import { Access } from '../http/route-access';
import { World } from '../world/world';
import { refusal } from '../common/error-catalogue';
import { WorldTickets } from './world-tickets.service';

/** The pages at the scaRedirect addresses of consents and payments (docs/sca-flows.md). */
@ApiExcludeController()
@Controller('sca')
@Access({ role: null, audience: 'holder' })
export class ScaPagesController {
  private readonly flows: Record<'consent' | 'payment' | 'cancellation' | 'revocation', Flow>;

  constructor(
    sca: ScaService,
    consents: ConsentService,
    payments: PaymentInitiationService,
    private readonly pages: ScaPageRenderer,
    private readonly tickets: WorldTickets,
  ) {
    this.flows = {
      consent: {
        title: 'Authorise access to your accounts',
        intro: 'A third-party provider asks to read the following on your behalf.',
        action: '/sca/consents',
        buttons: APPROVE_OR_DENY,
        rows: async (id, start) => {
          const consent = start ? await consents.markStarted(id) : await consents.findWaiting(id);
          return consentRows(consent, await sca.accountNames(consent));
        },
        decide: async (id, decision, login) => {
          const { status, redirectUri } = await sca.decide(
            { kind: 'consent', resourceId: id },
            decision,
            login,
            World.of(await consents.findForHolder(id)),
            'page',
          );
          return { outcome: `Consent ${decision === 'approve' ? 'approved' : 'denied'}: its status is now ${status}.`, redirectUri };
        },
      },
      payment: {
        title: 'Authorise a payment',
        intro: 'A third-party provider asks you to authorise this payment.',
        action: '/sca/payments',
        buttons: APPROVE_OR_DENY,
        rows: async (id, start) =>
          paymentRows(start ? await payments.markStarted(id, 'payment') : await payments.findWaiting(id, 'payment')),
        decide: async (id, decision, login) => {
          const { status, redirectUri } = await sca.decide(
            { kind: 'payment', resourceId: id },
            decision,
            login,
            World.of(await payments.findWaiting(id, 'payment')),
            'page',
          );
          return { outcome: `Payment ${decision === 'approve' ? 'authorised' : 'refused'}: its status is now ${status}.`, redirectUri };
        },
      },
      cancellation: {
        title: 'Authorise the cancellation of a payment',
        intro: 'A third-party provider asks you to cancel this pending payment.',
        action: '/sca/payments/cancellation',
        buttons: APPROVE_OR_DENY,
        rows: async (id, start) =>
          paymentRows(start ? await payments.markStarted(id, 'cancellation') : await payments.findWaiting(id, 'cancellation')),
        decide: async (id, decision, login) => {
          const { status, redirectUri } = await sca.decide(
            { kind: 'cancellation', resourceId: id },
            decision,
            login,
            World.of(await payments.findWaiting(id, 'cancellation')),
            'page',
          );
          return {
            outcome: `Cancellation ${decision === 'approve' ? 'authorised' : 'refused'}: the payment's status is now ${status}.`,
            redirectUri,
          };
        },
      },
      revocation: {
        title: 'Revoke access to your accounts',
        intro: 'A third-party provider may read the following on your behalf. Revoking ends its access at once.',
        action: '/sca/consents/revocation',
        buttons: { approve: 'Revoke access' },
        // Only in the world of the client whose link it was: a fixture PSU's password is public (WorldTickets).
        rows: async (id, _start, ticket) => {
          const consent = await consents.findRevocable(id, this.worldOf(ticket));
          return consentRows(consent, await sca.accountNames(consent));
        },
        decide: async (id, _decision, login, ticket) => {
          const consent = await sca.changeConsent('revoke', id, login, this.worldOf(ticket), 'page');
          return { outcome: `Access revoked: the consent's status is now ${consent.status}.`, redirectUri: null };
        },
      },
    };
  }

  private worldOf(ticket: string): World {
    const world = this.tickets.worldOf(ticket);
    if (!world)
      throw refusal(
        'ticketMissing',
        'open this page from the link your third-party provider asked the sandbox for: it is missing or has expired',
      );
    return world;
  }

  @Get('consents/revocation')
  showRevocation(@Query('consent_id') id: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.show(this.flows.revocation, formValue(id), request, response);
  }

  @Post('consents/revocation')
  decideRevocation(@Body() form: Form, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.decide(this.flows.revocation, form, request, response);
  }

  @Get('consents')
  showConsent(@Query('consent_id') id: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.show(this.flows.consent, formValue(id), request, response);
  }

  @Post('consents')
  decideConsent(@Body() form: Form, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.decide(this.flows.consent, form, request, response);
  }

  @Get('payments')
  showPayment(@Query('payment_id') id: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.show(this.flows.payment, formValue(id), request, response);
  }

  @Post('payments')
  decidePayment(@Body() form: Form, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.decide(this.flows.payment, form, request, response);
  }

  @Get('payments/cancellation')
  showCancellation(@Query('payment_id') id: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.show(this.flows.cancellation, formValue(id), request, response);
  }

  @Post('payments/cancellation')
  decideCancellation(@Body() form: Form, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.decide(this.flows.cancellation, form, request, response);
  }
}
