import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { In, IsNull, Not } from 'typeorm';
import { authorisationMachine } from '../authorisation/authorisation.machine';
import { Account, Psu } from '../bank/account.entity';
import { ClockService } from '../clock/clock.service';
import { addMonths } from '../common/dates';
import { DomainError, ResourceUnknownError } from '../common/error-catalogue';
import { escapeHtml as escape } from '../common/html';
import { Environment } from '../config/environment';
import { BankProfile, CARD_ACCOUNTS } from '../profile/bank-profile';
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
import { button, Cell, filter, form, input, layout, link, requestTable, section, table, timeline } from './cockpit-pages';
import { drawMachine } from './machine-diagram';
import { SigningBasket } from '../signing-baskets/signing-basket.entity';
import { basketMachine } from '../signing-baskets/signing-basket.machine';
import { SigningBasketService } from '../signing-baskets/signing-basket.service';
import { SandboxControlService } from './sandbox-control.service';
import { CardAccount } from '../card-accounts/card-account.entity';
import { CardAccountStore } from '../card-accounts/card-account-store';
import { Access } from '../http/route-access';

/** The machine each kind of resource page draws. */
const MACHINES = { consent: consentMachine, payment: paymentMachine, basket: basketMachine };

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
export class CockpitController {
  private readonly strict: boolean;

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
    private readonly baskets: SigningBasketService,
    private readonly cards: CardAccountStore,
  ) {
    this.strict = config.get('AUTH_MODE', { infer: true }) === 'strict';
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
      const baskets = this.profile.provides('signingBaskets') ? await this.store.read(SigningBasket).find({ where: ownedBy(owner), order: { id: 'DESC' }, take: LISTED }) : [];
      const scenarioIds = scenarioConsents.map(({ scenarioId }) => scenarioId!);
      const psus = await this.store.read(Psu).findBy({ scenarioId: In(scenarioIds) });
      const accounts = await this.store.read(Account).findBy({ scenarioId: In(scenarioIds) });
      // The bank's cards, and those of the scenarios listed (docs/card-accounts.md).
      const cards = this.profile.provides(CARD_ACCOUNTS) ? [...this.profile.fixturesOf(CardAccount), ...(await this.store.read(CardAccount).findBy({ scenarioId: In(scenarioIds) }))] : [];
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
        ...(this.profile.provides('signingBaskets')
          ? [
              section(
                'Signing baskets',
                table(
                  ['basket', 'payments', 'consents', 'status'],
                  baskets.map((basket) => [link(`/cockpit/signing-baskets/${basket.id}`, basket.id), String(basket.paymentIds.length), String(basket.consentIds.length), status(basket.status)]),
                ),
                'signing-baskets',
              ),
            ]
          : []),
        ...(this.profile.provides(CARD_ACCOUNTS)
          ? [
              section(
                'Card accounts',
                table(
                  ['card account', 'masked PAN', 'holder', 'product', 'balances'],
                  cards.map((card) => [link(`/cockpit/card-accounts/${card.resourceId}`, card.resourceId), card.maskedPan, card.psuId, card.product, balancesOf(card)]),
                ),
                'card-accounts',
              ),
            ]
          : []),
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
      return [`Consent ${id}`, ...(await this.resource(id, owner, 'consent', consent.status, data, actions))];
    });
  }

  @Get('signing-baskets/:id')
  async basket(@Req() request: Request, @Res() response: Response, @Param('id') id: string): Promise<void> {
    await this.page(request, response, async (owner) => {
      const basket = await this.baskets.find(id, owner);
      const actions =
        form(`/cockpit/signing-baskets/${id}/decision`, `${input('psuId', 'PSU ID', 'georg.mustermann')} ${button('Approve', 'decision', 'approve')} ${button('Deny', 'decision', 'deny')}`) +
        form(`/cockpit/signing-baskets/${id}/delete`, button('Delete (as the TPP)'));
      const members = [...basket.paymentIds.map((member) => ['payment', link(`/cockpit/payments/${member}`, member)]), ...basket.consentIds.map((member) => ['consent', link(`/cockpit/consents/${member}`, member)])];
      const data = table(['field', 'value'], [['basketId', basket.id], ['status', status(basket.status)], ...members]);
      return [`Signing basket ${id}`, ...(await this.resource(id, owner, 'basket', basket.status, data, actions))];
    });
  }

  @Get('card-accounts/:id')
  async cardAccount(@Req() request: Request, @Res() response: Response, @Param('id') id: string): Promise<void> {
    await this.page(request, response, async (owner) => {
      const card = await this.cards.find(id, owner);
      if (!card) throw new ResourceUnknownError(id);
      const rows = await this.cards.transactionsOf(id, { statuses: ['booked', 'pending'] });
      const data = table(['field', 'value'], [['resourceId', card.resourceId], ['maskedPan', card.maskedPan], ['holder', card.psuId], ['name', card.name], ['product', card.product], ['creditLimit', card.creditLimit ?? 'none'], ['balances', balancesOf(card)]]);
      const transactions = table(
        ['status', 'date', 'amount', 'details', 'card acceptor'],
        rows.map(({ bookingStatus, bookingDate, body }) => [status(bookingStatus), bookingDate ?? '', `${body.transactionAmount.amount} ${body.transactionAmount.currency}`, text(body.transactionDetails), text(body.cardAcceptorId)]),
      );
      return [`Card account ${id}`, section('Data', data), section('Card transactions (newest first)', transactions, 'card-transactions')];
    });
  }

  @Post('signing-baskets/:id/decision')
  async decideBasket(@Req() request: Request, @Res() response: Response, @Param('id') id: string, @Body() body: Form): Promise<void> {
    await this.act(request, response, `/cockpit/signing-baskets/${id}`, async (owner) => {
      const { status } = await this.sca.decide({ kind: 'basket', resourceId: id }, decisionOf(body), { psuId: text(body.psuId) }, owner, 'cockpit');
      return `The signing basket is ${status}.`;
    });
  }

  @Post('signing-baskets/:id/delete')
  async deleteBasket(@Req() request: Request, @Res() response: Response, @Param('id') id: string): Promise<void> {
    await this.act(request, response, `/cockpit/signing-baskets/${id}`, async (owner) => {
      await this.baskets.delete(id, owner);
      return 'The signing basket is deleted.';
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
      return [`Payment ${id}`, ...(await this.resource(id, owner, 'payment', payment.status, data, actions))];
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

  /** The machine drawn with the path the resource took, the actions, the data, its authorisations' machines and the timeline. */
  private async resource(id: string, owner: Owner, kind: keyof typeof MACHINES, current: string, data: string, actions: string): Promise<string[]> {
    const { events } = await this.history.list({ resourceId: id, page: 1, pageSize: 500 }, owner);
    const oldestFirst = [...events].reverse();
    const pathOf = (resourceId: string) => oldestFirst.filter((event) => event.resourceId === resourceId && event.kind !== 'notification').map((event) => event.toStatus);
    const authorisations = [...new Set(oldestFirst.filter((event) => event.kind === 'authorisation').map((event) => event.resourceId))];
    const machine = MACHINES[kind];
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

const balancesOf = ({ balances, currency }: CardAccount): string => balances.map(({ balanceType, amount }) => `${balanceType} ${amount} ${currency}`).join(', ');

const status = (value: string): Cell => ({ html: `<span class="status">${escape(value)}</span>` });

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
