import { Body, Controller, Get, Injectable, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { DomainError, isRefusal } from '../common/error-catalogue';
import { formValue } from '../common/html';
import { Access } from '../http/route-access';
import { BankProfile } from '../profile/bank-profile';
import { CSRF_FIELD, PageCsrf } from '../sca/page-security';
import { type Form, html, refusalOf } from '../sca/sca-page-renderer';
import { ScaService } from '../sca/sca.service';
import { WorldTickets } from '../sca/world-tickets.service';
import { confirmationPage, dashboardMessage, holderOf, listPage, signInPage } from './dashboard-pages';
import { type DashboardSession, DashboardSessions } from './dashboard-session';
import { ClockService } from '../clock/clock.service';
import { SignInThrottle } from '../oauth/sign-ins';
import type { Permission } from './permission';
import { type PermissionList, PermissionsService } from './permissions.service';

/** A change the holder makes on the dashboard, and how its confirmation reads. */
interface Change {
  change: 'revoke' | 'reestablish';
  action: string;
  title: string;
  intro: string;
  button: string;
  allowed(permission: Permission): boolean;
  /** The list's query parameter that names the consent once changed (the list says what came of it). */
  outcome: 'withdrawn' | 'reestablished';
  done(permission: Permission): string;
}

const WITHDRAWAL: Change = {
  change: 'revoke',
  action: '/dashboard/withdrawal',
  title: 'Withdraw access',
  intro: 'The provider loses this access at once: its next request is refused, and it is told.',
  button: 'Withdraw access',
  allowed: ({ canWithdraw }) => canWithdraw,
  outcome: 'withdrawn',
  done: (permission) => `You withdrew the access of ${holderOf(permission)}: its status is now ${permission.consentStatus}.`,
};

const REESTABLISHMENT: Change = {
  change: 'reestablish',
  action: '/dashboard/reestablishment',
  title: 'Re-establish access',
  intro: 'The provider gets back this access, with the same accounts and limits, until its last day.',
  button: 'Re-establish access',
  allowed: ({ canReestablish }) => canReestablish,
  outcome: 'reestablished',
  done: (permission) => `You re-established the access of ${holderOf(permission)}: its status is now ${permission.consentStatus}.`,
};

/** AUTH_MODE=strict: the sign-in names no client's world (docs/security.md, "Worlds"). */
const NO_TICKET =
  "Open the dashboard from the link your third-party provider's test asked the sandbox for (POST /sandbox/dashboard-links): it says whose consents you see. This one is missing or has expired.";

const FORGED = 'This form has expired or was not sent from this page. Nothing has been changed.';

/**
 * How the dashboard's pages go (docs/permission-dashboard.md): sign in, the list, and each change
 * after its confirmation. Every form carries the CSRF token of its page; a change needs the
 * signed-in holder's session, and the holder must hold the consent's accounts.
 */
@Injectable()
export class DashboardPages {
  constructor(
    private readonly permissions: PermissionsService,
    private readonly sca: ScaService,
    private readonly sessions: DashboardSessions,
    private readonly tickets: WorldTickets,
    private readonly throttle: SignInThrottle,
    private readonly csrf: PageCsrf,
    private readonly profile: BankProfile,
    private readonly clock: ClockService,
  ) {}

  /**
   * The signed-in holder's permissions, or the sign-in. After a change (`?withdrawn=<consentId>`)
   * the list says what came of it, from the permission itself.
   */
  async home(request: Request, response: Response, message?: string, status = 200): Promise<void> {
    const session = await this.session(request);
    const hidden = { [CSRF_FIELD]: this.csrf.token(request, response) };
    if (!session) {
      // The client's ticket rides on the form (AUTH_MODE=strict): the world the sign-in opens.
      const ticket = formValue(request.query.ticket);
      return html(response, status, signInPage(this.profile.name, ticket ? { ...hidden, ticket } : hidden, message));
    }
    const list = await this.permissions.list({ psuId: session.psuId }, session.world).catch((error: unknown) => {
      // The PSU is gone (a scenario deleted) or blocked since: the session ends with it.
      return this.sessions.close(request, response).then(() => this.ended(error, response));
    });
    if (!list) return;
    const changed = [WITHDRAWAL, REESTABLISHMENT].flatMap((change) => {
      const permission = findIn(list, formValue(request.query[change.outcome]));
      return permission ? [change.done(permission)] : [];
    });
    html(response, status, listPage(this.profile.name, list, hidden, message ?? changed[0]));
  }

  async signIn(form: Form | undefined, request: Request, response: Response): Promise<void> {
    form ??= {};
    if (!this.csrf.isValid(request)) return this.home(request, response, FORGED, 403);
    if (formValue(form.decision) === 'sign-out') {
      await this.sessions.close(request, response);
      return response.redirect(303, '/dashboard');
    }
    const [psuId, password] = [formValue(form.psuId), formValue(form.password)];
    const world = this.tickets.worldOf(formValue(form.ticket));
    if (!world) return this.home(request, response, NO_TICKET, 403);
    if (!psuId || !password) return this.home(request, response, 'Enter your PSU ID and password.', 400);
    try {
      // The holder's credentials, as the SCA pages check them, in the world the ticket opens;
      // guessing them is bounded (docs/security.md, "Guessing is bounded").
      await this.throttle.attempt(
        `dashboard:${world.key}:${psuId}@${request.ip}`,
        () => this.sca.heldBy({ psuId, password }, world),
        (error) => isRefusal(error, 'psuCredentialsInvalid'),
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      response.set(error.headers);
      const wrong = error.is('psuCredentialsInvalid');
      return this.home(request, response, wrong ? 'The PSU ID or password is wrong.' : `${error.message}.`, error.status());
    }
    this.sessions.open({ psuId, world }, response);
    response.redirect(303, '/dashboard');
  }

  /** The confirmation step: only for one of the holder's permissions that allows the change now. */
  async confirm(
    change: Change,
    id: string,
    request: Request,
    response: Response,
    refusal?: { status: number; message: string },
  ): Promise<void> {
    const session = await this.session(request);
    if (!session) return response.redirect(303, '/dashboard');
    const list = await this.permissions
      .list({ psuId: session.psuId }, session.world)
      .catch((error: unknown) => this.ended(error, response));
    if (!list) return;
    const permission = findIn(list, id);
    if (!permission || !change.allowed(permission)) {
      return html(
        response,
        404,
        dashboardMessage(
          this.profile.name,
          `${change.title}: this is none of your permissions that allows it now. Nothing has been changed.`,
        ),
      );
    }
    const hidden = { id, [CSRF_FIELD]: this.csrf.token(request, response) };
    html(
      response,
      refusal?.status ?? 200,
      confirmationPage(this.profile.name, change.title, change.intro, permission, change.action, hidden, change.button, refusal?.message),
    );
  }

  async act(change: Change, form: Form | undefined, request: Request, response: Response): Promise<void> {
    const id = formValue(form?.id);
    const session = await this.session(request);
    if (!session) return response.redirect(303, '/dashboard');
    if (!this.csrf.isValid(request)) return this.confirm(change, id, request, response, { status: 403, message: FORGED });
    try {
      await this.permissions.change(change.change, id, { psuId: session.psuId }, session.world, 'dashboard');
    } catch (error) {
      return void this.ended(error, response);
    }
    // Back to the list (a reload shows it again, it does not post again).
    response.redirect(303, `/dashboard?${change.outcome}=${encodeURIComponent(id)}`);
  }

  /** The signed-in holder's session, its world entered (its clock: ClockService.enter); null without one. */
  private async session(request: Request): Promise<DashboardSession | null> {
    const session = await this.sessions.sessionOf(request);
    if (session) await this.clock.enter(session.world);
    return session;
  }

  /** A refusal (not the holder's, no longer allowed, a PSU gone): a clear page saying nothing changed. */
  private ended(error: unknown, response: Response): undefined {
    const { status, text } = refusalOf(error);
    html(response, status, dashboardMessage(this.profile.name, text));
    return undefined;
  }
}

/** One of the holder's permissions, current or on the record, by its consent. */
const findIn = (list: PermissionList, consentId: string): Permission | undefined =>
  [...list.permissions, ...list.record].find((permission) => permission.consentId === consentId);

/** The permission dashboard in the bank's own channel (docs/permission-dashboard.md). */
@ApiExcludeController()
@Controller('dashboard')
@Access({ role: null, audience: 'holder' })
export class DashboardPagesController {
  constructor(private readonly pages: DashboardPages) {}

  @Get()
  home(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.home(request, response);
  }

  @Post()
  signIn(@Body() form: Form, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.signIn(form, request, response);
  }

  @Get('withdrawal')
  confirmWithdrawal(@Query('consent_id') id: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.confirm(WITHDRAWAL, formValue(id), request, response);
  }

  @Post('withdrawal')
  withdraw(@Body() form: Form, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.act(WITHDRAWAL, form, request, response);
  }
}

/** Served where the profile lets the holder re-establish a withdrawn consent (permissionDashboard.reestablish). */
@ApiExcludeController()
@Controller('dashboard/reestablishment')
@Access({ role: null, audience: 'holder' })
export class ReestablishmentPageController {
  constructor(private readonly pages: DashboardPages) {}

  @Get()
  confirm(@Query('consent_id') id: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.confirm(REESTABLISHMENT, formValue(id), request, response);
  }

  @Post()
  reestablish(@Body() form: Form, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.pages.act(REESTABLISHMENT, form, request, response);
  }
}
