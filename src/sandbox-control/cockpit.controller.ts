import { Body, Controller, Get, NotFoundException, OnModuleInit, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ConfigService } from '@nestjs/config';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AnyStateMachine } from 'xstate';
import { In, IsNull, Not } from 'typeorm';
import { authorisationMachine } from '../authorisation/authorisation.machine';
import { Account, Psu } from '../bank/account.entity';
import { ClockService } from '../clock/clock.service';
import { addMonths } from '../common/dates';
import { DomainError } from '../common/error-catalogue';
import { button, escapeHtml as escape, form, input, link, section, status, table } from '../common/html';
import { Environment } from '../config/environment';
import { BankProfile } from '../profile/bank-profile';
import type { CockpitSection } from '../core/cockpit-section';
import { Consent } from '../consent/consent.entity';
import { consentMachine } from '../consent/consent.machine';
import { ConsentService } from '../consent/consent.service';
import { Store } from '../database/store';
import { EventHistory } from '../events/event-history.service';
import type { SandboxEvent } from '../events/sandbox-event.entity';
import { RequestLog } from '../http/request-log';
import { ownedBy, Owner } from '../oauth/owner';
import { TokenService } from '../oauth/token.service';
import { Payment } from '../payment-initiation/payment.entity';
import { isAwaitingCreditorConfirmation, paymentMachine } from '../payment-initiation/payment.machine';
import { vopBlockOf } from '../verification-of-payee/vop-status.dto';
import { PaymentInitiationService } from '../payment-initiation/payment-initiation.service';
import { ScaService } from '../sca/sca.service';
import { filter, layout, requestTable, timeline } from './cockpit-pages';
import { drawMachine } from './machine-diagram';
import { SandboxControlService } from './sandbox-control.service';
import { Access } from '../http/route-access';

/** The cookie that holds a client's token in AUTH_MODE=strict. */
export const COCKPIT_COOKIE = 'psd2-cockpit-token';
const LISTED = 50;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

type Form = Record<string, unknown>;

/**
 * The cockpit (docs/cockpit.md): server-rendered pages over the same services as the API and the
 * control endpoints, forms that work without JavaScript, exists only with SANDBOX_CONTROL=true.
 * In AUTH_MODE=strict a client signs in with its credentials and sees what it owns.
 */
@ApiExcludeController()
@Controller('cockpit')
@Access({ role: null, audience: 'control' })
export class CockpitController implements OnModuleInit {
  private readonly strict: boolean;
  /** The offered services' sections (SandboxService.cockpit), in the registry's order. */
  private sections: CockpitSection[] = [];

  constructor(
    private readonly store: Store,
    private readonly clock: ClockService,
    private readonly control: SandboxControlService,
    private readonly consents: ConsentService,
    private readonly payments: PaymentInitiationService,
    private readonly sca: ScaService,
    private readonly history: EventHistory,
    private readonly requests: RequestLog,
    private readonly tokens: TokenService,
    config: ConfigService<Environment, true>,
    private readonly profile: BankProfile,
    private readonly modules: ModuleRef,
  ) {
    this.strict = config.get('AUTH_MODE', { infer: true }) === 'strict';
  }

  onModuleInit(): void {
    this.sections = this.profile.services.flatMap(({ cockpit }) => (cockpit ? [this.modules.get(cockpit, { strict: false })] : []));
  }

  @Get()
  async overview(@Req() request: Request, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    await this.page(request, response, async (owner) => {
      const [consentStatus, paymentStatus, service] = [text(query.consentStatus), text(query.paymentStatus), text(query.service)];
      const consents = await this.store.read(Consent).find({ where: { fixture: false, scenarioId: IsNull(), ...ownedBy(owner), ...(consentStatus ? { status: consentStatus as Consent['status'] } : {}) }, order: { id: 'DESC' }, take: LISTED });
      const payments = await this.store.read(Payment).find({
        where: { ...ownedBy(owner), ...(paymentStatus ? { status: paymentStatus as Payment['status'] } : {}), ...(service ? { service: service as Payment['service'] } : {}) },
        order: { id: 'DESC' },
        take: LISTED,
      });
      const scenarioConsents = await this.store.read(Consent).find({ where: { scenarioId: Not(IsNull()), ...ownedBy(owner) }, order: { id: 'DESC' }, take: LISTED });
      const scenarioIds = scenarioConsents.map(({ scenarioId }) => scenarioId!);
      const psus = await this.store.read(Psu).findBy({ scenarioId: In(scenarioIds) });
      const accounts = await this.store.read(Account).findBy({ scenarioId: In(scenarioIds) });
      const services = await Promise.all(this.sections.map((part) => part.overview(owner, scenarioIds)));
      const today = this.clock.today();
      return [
        'Overview',
        section(
          'Sandbox clock',
          `<p>Today in the sandbox: <strong id="today">${escape(today)}</strong></p>` +
            form('/cockpit/clock', `${input('today', 'Date', today, 'date')} ${button('Set')}`) +
            form('/cockpit/clock/advance', `${button('Advance a day', 'by', 'day')} ${button('Advance a month', 'by', 'month')}`),
          'clock',
        ),
        // The profile in force (docs/profiles.md), as the served document's introduction says it.
        section(`The bank: ${this.profile.name}`, this.profile.summary().split('\n').map((line) => `<p>${escape(line)}</p>`).join(''), 'profile'),
        section(
          'Payments',
          filter('/cockpit', [
            { name: 'paymentStatus', label: 'Status', options: Object.keys(paymentMachine.root.states), value: paymentStatus },
            { name: 'service', label: 'Service', options: ['payments', 'bulk-payments', 'periodic-payments'], value: service },
          ]) +
            table(
              ['payment', 'service / product', 'amount', 'debtor', 'execution date', 'status'],
              payments.map((payment) => [link(`/cockpit/payments/${payment.id}`, payment.id), `${payment.service} / ${payment.product}`, `${payment.amount} ${payment.currency}`, payment.debtorIban, payment.executionDate ?? '', status(payment.status)]),
            ),
          'payments',
        ),
        section(
          'Consents',
          filter('/cockpit', [{ name: 'consentStatus', label: 'Status', options: Object.keys(consentMachine.root.states), value: consentStatus }]) +
            table(
              ['consent', 'valid until', 'frequency per day', 'status'],
              consents.map((consent) => [link(`/cockpit/consents/${consent.id}`, consent.card ? `${consent.id} (confirmation of funds)` : consent.id), consent.validUntil, String(consent.frequencyPerDay), status(consent.status)]),
            ),
          'consents',
        ),
        ...services,
        section(
          'Scenarios',
          table(
            ['scenario', 'PSU', 'accounts', 'consent'],
            scenarioConsents.map((consent) => [
              consent.scenarioId!,
              psus.find((psu) => psu.scenarioId === consent.scenarioId)?.psuId ?? '',
              accounts
                .filter((account) => account.scenarioId === consent.scenarioId)
                .map((account) => account.iban)
                .join(', '),
              link(`/cockpit/consents/${consent.id}`, `${consent.id} (${consent.status})`),
            ]),
          ),
          'scenarios',
        ),
        section('Last requests', requestTable(this.requests.list(owner).slice(0, 20)) + '<p><a href="/cockpit/requests">all kept requests</a></p>', 'requests'),
      ];
    });
  }

  @Get('requests')
  async requestLog(@Req() request: Request, @Res() response: Response): Promise<void> {
    await this.page(request, response, async (owner) => ['Last requests', section('Newest first (the last 200 this instance answered)', requestTable(this.requests.list(owner)))]);
  }

  @Get('consents/:id')
  async consent(@Req() request: Request, @Res() response: Response, @Param('id') id: string): Promise<void> {
    await this.page(request, response, async (owner) => {
      const consent = await this.consents.findCurrent(id, owner);
      const actions =
        form(`/cockpit/consents/${id}/decision`, `${input('psuId', 'PSU ID', 'georg.mustermann')} ${button('Approve', 'decision', 'approve')} ${button('Deny', 'decision', 'deny')}`) +
        form(`/cockpit/consents/${id}/delete`, button('Delete (as the TPP)'));
      const data = table(['field', 'value'], [['consentId', consent.id], ['status', status(consent.status)], ['validUntil', consent.validUntil], ['recurringIndicator', String(consent.recurringIndicator)], ['frequencyPerDay', String(consent.frequencyPerDay)], ['access', { html: `<pre>${escape(JSON.stringify(consent.access, null, 2))}</pre>` }], ...cardRows(consent)]);
      return [`Consent ${id}`, ...(await this.resource(id, owner, consentMachine, consent.status, data, actions))];
    });
  }

  @Get('payments/:id')
  async payment(@Req() request: Request, @Res() response: Response, @Param('id') id: string): Promise<void> {
    await this.page(request, response, async (owner) => {
      const payment = await this.payments.findAnyProduct(id, owner);
      const decide = (kind: string, label: string) =>
        form(`/cockpit/payments/${id}/decision`, `<input type="hidden" name="kind" value="${kind}">${input('psuId', 'PSU ID', 'georg.mustermann')} ${button(`Approve ${label}`, 'decision', 'approve')} ${button(`Deny ${label}`, 'decision', 'deny')}`);
      const confirm = isAwaitingCreditorConfirmation(payment.status) ? form(`/cockpit/payments/${id}/creditor-confirmation`, button('Pay anyway (confirm the payee, as the TPP)')) : '';
      const actions = confirm + decide('payment', 'payment') + form(`/cockpit/payments/${id}/cancel`, button('Cancel (as the TPP)')) + decide('cancellation', 'cancellation');
      const data = table(['field', 'value'], [
        ['paymentId', payment.id],
        ['service / product', `${payment.service} / ${payment.product}`],
        ['status', status(payment.status)],
        ['payee check', payeeCheckOf(payment)],
        ['body', { html: `<pre>${escape(JSON.stringify(payment.body, null, 2))}</pre>` }],
      ]);
      return [`Payment ${id}`, ...(await this.resource(id, owner, paymentMachine, payment.status, data, actions))];
    });
  }

  @Post('consents/:id/decision')
  async decideConsent(@Req() request: Request, @Res() response: Response, @Param('id') id: string, @Body() body: Form): Promise<void> {
    await this.act(request, response, `/cockpit/consents/${id}`, async (owner) => {
      const { status } = await this.sca.decide({ kind: 'consent', resourceId: id }, decisionOf(body), { psuId: text(body.psuId) }, owner, 'cockpit');
      return `The consent is ${status}.`;
    });
  }

  @Post('consents/:id/delete')
  async deleteConsent(@Req() request: Request, @Res() response: Response, @Param('id') id: string): Promise<void> {
    await this.act(request, response, `/cockpit/consents/${id}`, async (owner) => {
      await this.consents.delete(id, owner);
      return 'The consent is deleted.';
    });
  }

  @Post('payments/:id/decision')
  async decidePayment(@Req() request: Request, @Res() response: Response, @Param('id') id: string, @Body() body: Form): Promise<void> {
    await this.act(request, response, `/cockpit/payments/${id}`, async (owner) => {
      const kind = body.kind === 'cancellation' ? 'cancellation' : 'payment';
      const { status } = await this.sca.decide({ kind, resourceId: id }, decisionOf(body), { psuId: text(body.psuId) }, owner, 'cockpit');
      return `The payment is ${status}.`;
    });
  }

  @Post('payments/:id/creditor-confirmation')
  async confirmCreditor(@Req() request: Request, @Res() response: Response, @Param('id') id: string): Promise<void> {
    await this.act(request, response, `/cockpit/payments/${id}`, async (owner) => {
      const { payment } = await this.payments.confirmCreditor(await this.payments.findById(id, owner), id, owner);
      return `The payee is confirmed: the payment is ${payment.status} and waits for the account holder.`;
    });
  }

  @Post('payments/:id/cancel')
  async cancelPayment(@Req() request: Request, @Res() response: Response, @Param('id') id: string): Promise<void> {
    await this.act(request, response, `/cockpit/payments/${id}`, async (owner) => {
      const outcome = await this.payments.cancel(await this.payments.findById(id, owner), id, owner);
      return outcome.cancelled ? 'The payment is cancelled.' : 'The cancellation needs the account holder: approve it below.';
    });
  }

  @Post('clock')
  async setClock(@Req() request: Request, @Res() response: Response, @Body() body: Form): Promise<void> {
    await this.act(request, response, '/cockpit', async () => `Today is ${(await this.control.setClock(text(body.today))).today}.`);
  }

  @Post('clock/advance')
  async advanceClock(@Req() request: Request, @Res() response: Response, @Body() body: Form): Promise<void> {
    const move = () => (body.by === 'month' ? this.control.setClock(addMonths(this.clock.today(), 1)) : this.control.advanceClock(1));
    await this.act(request, response, '/cockpit', async () => `Today is ${(await move()).today}.`);
  }

  @Post('sign-in')
  async signIn(@Req() request: Request, @Res() response: Response, @Body() body: Form): Promise<void> {
    try {
      const { token, expiresIn } = await this.tokens.issue(undefined, { grant_type: 'client_credentials', client_id: text(body.clientId), client_secret: text(body.clientSecret) });
      response.cookie(COCKPIT_COOKIE, token, { path: '/cockpit', httpOnly: true, sameSite: 'strict', maxAge: expiresIn * 1000 });
      response.redirect(303, '/cockpit');
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      response.status(401).type('html').send(signInPage(error.message));
    }
  }

  /** A service's page of one of its resources (docs/cockpit.md); declared after the core's pages, so that theirs match first. */
  @Get(':section/:id')
  async servicePage(@Req() request: Request, @Res() response: Response, @Param('section') path: string, @Param('id') id: string): Promise<void> {
    const part = this.sectionAt(path);
    await this.page(request, response, async (owner) => {
      const { title, sections, resource } = await part.page(id, owner);
      return [title, ...(resource ? await this.resource(id, owner, resource.machine, resource.status, sections.join(''), resource.actions) : sections)];
    });
  }

  @Post(':section/:id/:action')
  async serviceAction(@Req() request: Request, @Res() response: Response, @Param('section') path: string, @Param('id') id: string, @Param('action') action: string, @Body() body: Form): Promise<void> {
    const part = this.sectionAt(path);
    if (!part.act) throw new NotFoundException();
    await this.act(request, response, `/cockpit/${path}/${id}`, async (owner) => {
      const message = await part.act!(id, action, body, owner);
      if (message === undefined) throw new NotFoundException();
      return message;
    });
  }

  /** The section of an offered service at this path; else no such page. */
  private sectionAt(path: string): CockpitSection {
    const part = this.sections.find((candidate) => candidate.path === path);
    if (!part) throw new NotFoundException();
    return part;
  }

  /** The machine drawn with the path the resource took, the actions, the data, its authorisations' machines and the timeline. */
  private async resource(id: string, owner: Owner, machine: AnyStateMachine, current: string, data: string, actions: string): Promise<string[]> {
    const { events } = await this.history.list({ resourceId: id, page: 1, pageSize: 500 }, owner);
    const oldestFirst = [...events].reverse();
    const pathOf = (resourceId: string) => oldestFirst.filter((event) => event.resourceId === resourceId && event.kind !== 'notification').map((event) => event.toStatus);
    const authorisations = [...new Set(oldestFirst.filter((event) => event.kind === 'authorisation').map((event) => event.resourceId))];
    return [
      section('State machine', drawMachine(machine, { current, path: pathOf(id) }), 'machine'),
      section('Actions', actions),
      section('Data', data),
      ...authorisations.map((authorisation) => {
        const path = pathOf(authorisation);
        return section(`Authorisation ${authorisation}`, drawMachine(authorisationMachine, { current: path[path.length - 1], path }));
      }),
      section('Timeline (newest first)', timeline(events as SandboxEvent[]), 'timeline'),
    ];
  }

  /** Renders a page for the signed-in client (strict) or anyone (open); a refusal (unknown ID) is shown on the page. */
  private async page(request: Request, response: Response, render: (owner: Owner) => Promise<[string, ...string[]]>): Promise<void> {
    const owner = await this.ownerOf(request);
    if (owner === null) {
      response.type('html').send(signInPage());
      return;
    }
    try {
      const [title, ...sections] = await render(owner);
      response.type('html').send(layout(title, sections.join('\n'), text(request.query.message) || undefined));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      response.status(error.status()).type('html').send(layout('Not found', section('', `<p>${escape(error.message)}</p>`)));
    }
  }

  /**
   * Runs an action and goes back to `back` with what came of it (post/redirect/get). A form from
   * another site, even another port of the same host, is refused. In AUTH_MODE=strict every action,
   * the sandbox-wide ones (the clock) too, needs a signed-in client, as the control API needs its
   * token (docs/security.md, "The one clock").
   */
  private async act(request: Request, response: Response, back: string, action: (owner: Owner) => Promise<string>): Promise<void> {
    // Fetch Metadata: a browser says where a form came from (Origin is "null" under the pages' no-referrer policy).
    const site = request.get('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      response.status(403).type('text').send('A cockpit form posts from the cockpit only.');
      return;
    }
    const owner = await this.ownerOf(request);
    if (owner === null) {
      response.redirect(303, '/cockpit');
      return;
    }
    let message: string;
    try {
      message = await action(owner);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      message = `Refused: ${error.toBody().tppMessages.map((tpp) => `${tpp.code} ${tpp.text}`).join('; ')}`;
    }
    response.redirect(303, `${back}?message=${encodeURIComponent(message)}`);
  }

  /** Open: everyone's (undefined). Strict: the client of the cookie's token, or null when none is signed in. */
  private async ownerOf(request: Request): Promise<Owner | null> {
    if (!this.strict) return undefined;
    const token = text((request.cookies as Record<string, unknown> | undefined)?.[COCKPIT_COOKIE]);
    if (!token) return null;
    return this.tokens.ownerOf(`Bearer ${token}`, true).catch(() => null);
  }
}

const decisionOf = (body: Form) => (body.decision === 'deny' ? 'deny' : 'approve');

function signInPage(message?: string): string {
  return layout(
    'Sign in',
    section(
      'AUTH_MODE=strict: the cockpit shows what your client owns',
      form('/cockpit/sign-in', `${input('clientId', 'Client ID')} ${input('clientSecret', 'Client secret', '', 'password')} ${button('Sign in')}`),
    ),
    message,
  );
}

/** A payment's Verification of Payee result, a line per creditor (docs/verification-of-payee.md). */
function payeeCheckOf(payment: Payment): string {
  const { originalTransactionInformationAndVopStatus: results } = vopBlockOf(payment);
  if (results === undefined) return 'not checked';
  return results.map(({ transactionStatus, creditorNameMatch, matchedCreditorName }) => `${creditorNameMatch} (${transactionStatus})${matchedCreditorName ? `: registered as ${matchedCreditorName}` : ''}`).join('; ');
}

/** A consent for the confirmation of funds shows its card (docs/funds-confirmation.md). */
const cardRows = ({ card }: Consent): [string, { html: string }][] => (card ? [['card', { html: `<pre>${escape(JSON.stringify(card, null, 2))}</pre>` }]] : []);
