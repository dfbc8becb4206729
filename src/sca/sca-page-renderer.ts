import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, isRefusal } from '../common/error-catalogue';
import type { ScaDecision } from '../authorisation/authorisation.machine';
import { BankProfile } from '../profile/bank-profile';
import { formValue } from '../common/html';
import { CSRF_FIELD, PageCsrf } from './page-security';
import { Buttons, decisionPage, messagePage, Row } from './sca-pages';
import { attemptsOf, type PsuLogin, WrongCredentials } from './sca.service';

/** One thing the account holder can be asked to authorise, and how its page reads. */
export interface Flow {
  title: string;
  intro: string;
  action: string;
  buttons: Buttons;
  /**
   * What the page shows; throws when there is nothing to decide. `start`: the holder has just
   * opened the page, so its open authorisations are marked started. `ticket`: the client's ticket
   * the page was opened with, "" for none (WorldTickets), for a flow that needs one.
   */
  rows(id: string, start: boolean, ticket: string): Promise<Row[]>;
  decide(id: string, decision: ScaDecision, login: PsuLogin, ticket: string): Promise<{ outcome: string; redirectUri: string | null }>;
}

export const APPROVE_OR_DENY: Buttons = { approve: 'Approve', deny: 'Deny' };

export type Form = Partial<Record<'id' | 'psuId' | 'password' | 'decision' | 'ticket', unknown>>;

/**
 * How every SCA page goes (docs/sca-flows.md): the page with its form, the decision, and a clear
 * page where there is nothing to decide. After a decision the browser goes back to the
 * TPP-Redirect-URI stored with the authorisation, never to an address from the query.
 */
@Injectable()
export class ScaPageRenderer {
  constructor(
    private readonly csrf: PageCsrf,
    private readonly profile: BankProfile,
  ) {}

  /** The page with its form; after a refused decision (`refusal`) again, with the reason, changing nothing. */
  async show(flow: Flow, id: string, request: Request, response: Response, refusal?: { status: number; message: string }): Promise<void> {
    if (!id)
      return html(
        response,
        400,
        messagePage(this.profile.name, flow.title, 'This link is incomplete: it names nothing to authorise. Nothing has been changed.'),
      );
    // The ticket rides on the form, as the id does: from the link's query, then from the form posted.
    const ticket = formValue(request.query.ticket) || formValue((request.body as Form | undefined)?.ticket);
    try {
      const rows = await flow.rows(id, !refusal, ticket);
      const hidden = { id, [CSRF_FIELD]: this.csrf.token(request, response), ...(ticket ? { ticket } : {}) };
      html(
        response,
        refusal?.status ?? 200,
        decisionPage(this.profile.name, flow.title, flow.intro, rows, flow.action, hidden, flow.buttons, refusal?.message),
      );
    } catch (error) {
      this.cannotGoOn(flow, error, response);
    }
  }

  async decide(flow: Flow, form: Form | undefined, request: Request, response: Response): Promise<void> {
    // No form at all when the body was not sent form-encoded.
    form ??= {};
    const [id, psuId, password, decision] = [formValue(form.id), formValue(form.psuId), formValue(form.password), formValue(form.decision)];
    // A form not sent from this very page (another site's, or a stale one) decides nothing.
    if (!this.csrf.isValid(request)) {
      return this.show(flow, id, request, response, {
        status: 403,
        message: 'This form has expired or was not sent from this page. Nothing has been changed: please decide again.',
      });
    }
    if (!psuId || !password || !(decision === 'approve' || decision === 'deny') || !flow.buttons[decision]) {
      return this.show(flow, id, request, response, {
        status: 400,
        message: `Enter your PSU ID and password, then choose ${Object.values(flow.buttons).join(' or ')}.`,
      });
    }
    try {
      const { outcome, redirectUri } = await flow.decide(id, decision, { psuId, password }, formValue(form.ticket));
      if (redirectUri) return response.redirect(303, redirectUri);
      html(response, 200, messagePage(this.profile.name, flow.title, outcome));
    } catch (error) {
      // Wrong credentials: the holder may try again on the same page, up to the bound the embedded
      // approach has; the last allowed attempt fails the authorisation (docs/sca-flows.md).
      if (error instanceof WrongCredentials && error.failure) {
        return html(
          response,
          error.status(),
          messagePage(this.profile.name, flow.title, `The PSU ID or password was wrong ${error.attempt} times: ${error.failure}.`),
        );
      }
      if (isRefusal(error, 'psuCredentialsInvalid')) {
        return this.show(flow, id, request, response, {
          status: error.status(),
          message: `The PSU ID or password is wrong, or this PSU does not hold the accounts concerned${error instanceof WrongCredentials ? ` (${attemptsOf(error.attempt)})` : ''}.`,
        });
      }
      this.cannotGoOn(flow, error, response);
    }
  }

  /** Unknown or already decided: a clear page instead of the form. */
  private cannotGoOn(flow: Flow, error: unknown, response: Response): void {
    const { status, text } = refusalOf(error);
    html(response, status, messagePage(this.profile.name, flow.title, text));
  }
}

/** A refusal as the holder's pages tell it: its status and why, nothing changed. Anything but a DomainError is a bug for the error filter. */
export function refusalOf(error: unknown): { status: number; text: string } {
  if (!(error instanceof DomainError)) throw error;
  return { status: error.status(), text: `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}. Nothing has been changed.` };
}

/** The pages show account data: never stored by a browser or proxy. */
export function html(response: Response, status: number, body: string): void {
  response.status(status).type('html').set('Cache-Control', 'no-store').send(body);
}
