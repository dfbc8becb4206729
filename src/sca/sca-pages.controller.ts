import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { consentedIbans } from '../consent/coverage';
import { DomainError } from '../common/error-catalogue';
import type { ScaDecision } from '../authorisation/authorisation.machine';
import { ConsentService } from '../consent/consent.service';
import { PaymentInitiationService } from '../payment-initiation/payment-initiation.service';
import { CSRF_FIELD, formValue, PageCsrf } from './page-security';
import { Buttons, consentRows, decisionPage, messagePage, paymentRows, Row } from './sca-pages';
import { PsuLogin, ScaService } from './sca.service';
import { BankProfile } from '../profile/bank-profile';

/** One thing the account holder can be asked to authorise, and how its page reads. */
interface Flow {
  title: string;
  intro: string;
  action: string;
  buttons: Buttons;
  /**
   * What the page shows; throws when there is nothing to decide. `start`: the holder has just
   * opened the page, so its open authorisations are marked started.
   */
  rows(id: string, start: boolean): Promise<Row[]>;
  decide(id: string, decision: ScaDecision, login: PsuLogin): Promise<{ outcome: string; redirectUri: string | null }>;
}

const APPROVE_OR_DENY: Buttons = { approve: 'Approve', deny: 'Deny' };

type Form = Partial<Record<'id' | 'psuId' | 'password' | 'decision', unknown>>;

/**
 * The pages at the scaRedirect addresses (docs/sca-flows.md). After a decision the browser goes back
 * to the TPP-Redirect-URI stored with the authorisation, never to an address from the query.
 */
@ApiExcludeController()
@Controller('sca')
export class ScaPagesController {
  private readonly flows: Record<'consent' | 'payment' | 'cancellation' | 'revocation', Flow>;

  constructor(
    sca: ScaService,
    consents: ConsentService,
    payments: PaymentInitiationService,
    private readonly csrf: PageCsrf,
    private readonly profile: BankProfile,
  ) {
    this.flows = {
      consent: {
        title: 'Authorise access to your accounts',
        intro: 'A third-party provider asks to read the following on your behalf.',
        action: '/sca/consents',
        buttons: APPROVE_OR_DENY,
        rows: async (id, start) => {
          const consent = start ? await consents.markStarted(id) : await consents.findWaiting(id);
          const named = await sca.accounts(consentedIbans(consent.access));
          return consentRows(consent, new Map(named.map((account) => [account.iban, account])));
        },
        decide: async (id, decision, login) => {
          const { consent, redirectUri } = await sca.decideConsent(id, decision, login, undefined, 'page');
          return { outcome: `Consent ${decision === 'approve' ? 'approved' : 'denied'}: its status is now ${consent.status}.`, redirectUri };
        },
      },
      payment: {
        title: 'Authorise a payment',
        intro: 'A third-party provider asks you to authorise this payment.',
        action: '/sca/payments',
        buttons: APPROVE_OR_DENY,
        rows: async (id, start) => paymentRows(start ? await payments.markStarted(id, 'payment') : await payments.findWaiting(id, 'payment')),
        decide: async (id, decision, login) => {
          const { payment, redirectUri } = await sca.decidePayment(id, 'payment', decision, login, undefined, 'page');
          return { outcome: `Payment ${decision === 'approve' ? 'authorised' : 'refused'}: its status is now ${payment.status}.`, redirectUri };
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
          const { payment, redirectUri } = await sca.decidePayment(id, 'cancellation', decision, login, undefined, 'page');
          return { outcome: `Cancellation ${decision === 'approve' ? 'authorised' : 'refused'}: the payment's status is now ${payment.status}.`, redirectUri };
        },
      },
      revocation: {
        title: 'Revoke access to your accounts',
        intro: 'A third-party provider may read the following on your behalf. Revoking ends its access at once.',
        action: '/sca/consents/revocation',
        buttons: { approve: 'Revoke access' },
        rows: async (id) => {
          const consent = await consents.findRevocable(id, undefined);
          const named = await sca.accounts(consentedIbans(consent.access));
          return consentRows(consent, new Map(named.map((account) => [account.iban, account])));
        },
        decide: async (id, _decision, login) => {
          const consent = await sca.revokeConsent(id, login, undefined, 'page');
          return { outcome: `Access revoked: the consent's status is now ${consent.status}.`, redirectUri: null };
        },
      },
    };
  }

  @Get('consents/revocation')
  showRevocation(@Query('consent_id') id: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.show(this.flows.revocation, formValue(id), request, response);
  }

  @Post('consents/revocation')
  decideRevocation(@Body() form: Form, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.decide(this.flows.revocation, form, request, response);
  }

  @Get('consents')
  showConsent(@Query('consent_id') id: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.show(this.flows.consent, formValue(id), request, response);
  }

  @Post('consents')
  decideConsent(@Body() form: Form, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.decide(this.flows.consent, form, request, response);
  }

  @Get('payments')
  showPayment(@Query('payment_id') id: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.show(this.flows.payment, formValue(id), request, response);
  }

  @Post('payments')
  decidePayment(@Body() form: Form, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.decide(this.flows.payment, form, request, response);
  }

  @Get('payments/cancellation')
  showCancellation(@Query('payment_id') id: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.show(this.flows.cancellation, formValue(id), request, response);
  }

  @Post('payments/cancellation')
  decideCancellation(@Body() form: Form, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.decide(this.flows.cancellation, form, request, response);
  }

  /** The page with its form; after a refused decision (`refusal`) again, with the reason, changing nothing. */
  private async show(flow: Flow, id: string, request: Request, response: Response, refusal?: { status: number; message: string }): Promise<void> {
    if (!id) return html(response, 400, messagePage(this.profile.name, flow.title, 'This link is incomplete: it names nothing to authorise. Nothing has been changed.'));
    try {
      const rows = await flow.rows(id, !refusal);
      const hidden = { id, [CSRF_FIELD]: this.csrf.token(request, response) };
      html(response, refusal?.status ?? 200, decisionPage(this.profile.name, flow.title, flow.intro, rows, flow.action, hidden, flow.buttons, refusal?.message));
    } catch (error) {
      this.cannotGoOn(flow, error, response);
    }
  }

  private async decide(flow: Flow, form: Form | undefined, request: Request, response: Response): Promise<void> {
    // No form at all when the body was not sent form-encoded.
    form ??= {};
    const [id, psuId, password, decision] = [formValue(form.id), formValue(form.psuId), formValue(form.password), formValue(form.decision)];
    // A form not sent from this very page (another site's, or a stale one) decides nothing.
    if (!this.csrf.isValid(request)) {
      return this.show(flow, id, request, response, { status: 403, message: 'This form has expired or was not sent from this page. Nothing has been changed: please decide again.' });
    }
    if (!psuId || !password || !(decision === 'approve' || decision === 'deny') || !flow.buttons[decision]) {
      return this.show(flow, id, request, response, { status: 400, message: `Enter your PSU ID and password, then choose ${Object.values(flow.buttons).join(' or ')}.` });
    }
    try {
      const { outcome, redirectUri } = await flow.decide(id, decision, { psuId, password });
      if (redirectUri) return response.redirect(303, redirectUri);
      html(response, 200, messagePage(this.profile.name, flow.title, outcome));
    } catch (error) {
      // Wrong credentials: the holder may try again on the same page; nothing has changed.
      if (error instanceof DomainError && error.details[0].messageId === 'XS2A022E') {
        return this.show(flow, id, request, response, {
          status: error.status(),
          message: 'The PSU ID or password is wrong, or this PSU does not hold the accounts concerned.',
        });
      }
      this.cannotGoOn(flow, error, response);
    }
  }

  /** Unknown or already decided: a clear page instead of the form. Anything else is a bug for the error filter. */
  private cannotGoOn(flow: Flow, error: unknown, response: Response): void {
    if (!(error instanceof DomainError)) throw error;
    const reason = error.message.charAt(0).toUpperCase() + error.message.slice(1);
    html(response, error.status(), messagePage(this.profile.name, flow.title, `${reason}. Nothing has been changed.`));
  }
}

/** The pages show account data: never stored by a browser or proxy. */
function html(response: Response, status: number, body: string): void {
  response.status(status).type('html').set('Cache-Control', 'no-store').send(body);
}
