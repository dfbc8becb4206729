import { Body, Controller, Get, NotFoundException, OnModuleInit, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ConfigService } from '@nestjs/config';
import { ApiExcludeController } from '@nestjs/swagger';
import type { CookieOptions, Request, Response } from 'express';
import type { AnyStateMachine } from 'xstate';
import { authorisationMachine } from '../authorisation/authorisation.machine';
import { ClockService } from '../clock/clock.service';
import { addMonths } from '../common/dates';
import { DomainError, FormatError } from '../common/error-catalogue';
import { button, escapeHtml as escape, form, formValue, input, section, table } from '../common/html';
import { Environment } from '../config/environment';
import type { CockpitSection } from '../core/cockpit-section';
import { EventHistory } from '../events/event-history.service';
import type { SandboxEvent } from '../events/sandbox-event.entity';
import { Access } from '../http/route-access';
import { pageCookie } from '../http/page-headers';
import { World } from '../world/world';
import { AS_NEW, SNAPSHOT_NAME_LENGTH } from '../database/world-snapshot.entity';
import { EndedSessions } from '../oauth/sign-ins';
import { TOKEN_LIFETIME, TokenService } from '../oauth/token.service';
import { BankProfile } from '../profile/bank-profile';
import { RequestLog } from '../http/request-log';
import { layout, requestTable, timeline } from './cockpit-pages';
import { ConsentsCockpit } from './consents-cockpit';
import { drawMachine } from './machine-diagram';
import { PaymentsCockpit } from './payments-cockpit';
import { SandboxControlService } from './sandbox-control.service';
import { ScenariosCockpit } from './scenarios-cockpit';

/** The cookie that holds a client's token in AUTH_MODE=strict. */
export const COCKPIT_COOKIE = 'psd2-cockpit-token';

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
  private readonly cookie: CookieOptions;
  private sections: CockpitSection[] = [];

  constructor(
    private readonly clock: ClockService,
    private readonly control: SandboxControlService,
    private readonly history: EventHistory,
    private readonly requests: RequestLog,
    private readonly tokens: TokenService,
    private readonly ended: EndedSessions,
    config: ConfigService<Environment, true>,
    private readonly profile: BankProfile,
    private readonly modules: ModuleRef,
    private readonly payments: PaymentsCockpit,
    private readonly consents: ConsentsCockpit,
    private readonly scenarios: ScenariosCockpit,
  ) {
    this.strict = config.get('AUTH_MODE', { infer: true }) === 'strict';
    // The cookie holds a client's token: sent over https only where the sandbox is served so (docs/cockpit.md).
    this.cookie = pageCookie('/cockpit', config.get('PUBLIC_BASE_URL', { infer: true }));
  }

  /** The core's sections and the offered services' (SandboxService.cockpit), in the overview's order. */
  onModuleInit(): void {
    const services = this.profile.services.flatMap(({ cockpit }) => (cockpit ? [this.modules.get(cockpit, { strict: false })] : []));
    this.sections = [this.payments, this.consents, ...services, this.scenarios];
  }

  @Get()
  async overview(@Req() request: Request, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    await this.page(request, response, async (world) => {
      const parts = await Promise.all(this.sections.map((part) => part.overview(world, query)));
      const today = this.clock.today(world);
      return [
        'Overview',
        section(
          'Sandbox clock',
          `<p>Today in the sandbox: <strong id="today">${escape(today)}</strong></p>` +
            form('/cockpit/clock', `${input('today', 'Date', today, 'date')} ${button('Set')}`) +
            form('/cockpit/clock/advance', `${button('Advance a day', 'by', 'day')} ${button('Advance a month', 'by', 'month')}`),
          'clock',
        ),
        ...(this.strict
          ? [
              section(
                'Signed in',
                `<p>As client <strong>${escape(world.key)}</strong>.</p>` + form('/cockpit/sign-out', button('Sign out')),
                'session',
              ),
            ]
          : []),
        // The profile in force (docs/profiles.md), as the served document's introduction says it.
        section(
          `The bank: ${this.profile.name}`,
          this.profile
            .summary()
            .split('\n')
            .map((line) => `<p>${escape(line)}</p>`)
            .join(''),
          'profile',
        ),
        ...parts,
        section(
          'Last requests',
          requestTable(this.requests.list(world).slice(0, 20)) + '<p><a href="/cockpit/requests">all kept requests</a></p>',
          'requests',
        ),
      ];
    });
  }

  @Get('requests')
  async requestLog(@Req() request: Request, @Res() response: Response): Promise<void> {
    await this.page(request, response, async (world) => [
      'Last requests',
      section('Newest first (the last 200 this instance answered)', requestTable(this.requests.list(world))),
    ]);
  }

  /** The world's life (docs/cockpit.md, "Your world"): its snapshots with Restore and Delete, a new one, and Reset. */
  @Get('world')
  async worldPage(@Req() request: Request, @Res() response: Response): Promise<void> {
    await this.page(request, response, async (world) => {
      const snapshots = await this.control.listSnapshots(world);
      return [
        'Your world',
        section(
          'Snapshots',
          table(
            ['name', 'taken', 'sandbox date', 'resources', ''],
            snapshots.map(({ snapshotId, name, createdAt, sandboxDate, resources }) => [
              name,
              createdAt,
              sandboxDate,
              String(resources),
              {
                html:
                  form(`/cockpit/world/snapshots/${snapshotId}/restore`, button('Restore')) +
                  (snapshotId === AS_NEW.snapshotId ? '' : form(`/cockpit/world/snapshots/${snapshotId}/delete`, button('Delete'))),
              },
            ]),
          ) + form('/cockpit/world/snapshots', `${input('name', 'Name')} ${button('Take a snapshot')}`),
          'snapshots',
        ),
        section(
          'Reset',
          '<p>Forget everything this world created and put its clock back; its client and tokens stay.</p>' +
            form('/cockpit/world/reset', button('Reset')),
          'reset',
        ),
      ];
    });
  }

  @Post('world/snapshots')
  async takeSnapshot(@Req() request: Request, @Res() response: Response, @Body() body: Form): Promise<void> {
    await this.act(request, response, '/cockpit/world', async (world) => {
      const name = formValue(body.name);
      // The control route's DTO says the same; a form passes no pipe.
      if (name === '' || name.length > SNAPSHOT_NAME_LENGTH)
        throw new FormatError('name', `a snapshot is named by 1 to ${SNAPSHOT_NAME_LENGTH} characters`);
      return `Snapshot ${(await this.control.takeSnapshot(world, name)).name} taken.`;
    });
  }

  @Post('world/snapshots/:snapshotId/restore')
  async restoreSnapshot(@Req() request: Request, @Res() response: Response, @Param('snapshotId') snapshotId: string): Promise<void> {
    await this.act(request, response, '/cockpit/world', async (world) => {
      const { name, today } = await this.control.restoreSnapshot(world, snapshotId);
      return `Restored to ${name}; today is ${today}.`;
    });
  }

  @Post('world/snapshots/:snapshotId/delete')
  async deleteSnapshot(@Req() request: Request, @Res() response: Response, @Param('snapshotId') snapshotId: string): Promise<void> {
    await this.act(request, response, '/cockpit/world', async (world) => {
      await this.control.deleteSnapshot(world, snapshotId);
      return 'Snapshot deleted.';
    });
  }

  @Post('world/reset')
  async resetWorld(@Req() request: Request, @Res() response: Response): Promise<void> {
    await this.act(request, response, '/cockpit/world', async (world) => {
      const { today, forgotten } = await this.control.resetWorld(world);
      return `Reset: ${forgotten} rows forgotten; today is ${today}.`;
    });
  }

  @Post('clock')
  async setClock(@Req() request: Request, @Res() response: Response, @Body() body: Form): Promise<void> {
    await this.act(
      request,
      response,
      '/cockpit',
      async (world) => `Today is ${(await this.control.setClock(world, formValue(body.today))).today}.`,
    );
  }

  @Post('clock/advance')
  async advanceClock(@Req() request: Request, @Res() response: Response, @Body() body: Form): Promise<void> {
    const move = (world: World) =>
      body.by === 'month' ? this.control.setClock(world, addMonths(this.clock.today(world), 1)) : this.control.advanceClock(world, 1);
    await this.act(request, response, '/cockpit', async (world) => `Today is ${(await move(world)).today}.`);
  }

  @Post('sign-in')
  async signIn(@Req() request: Request, @Res() response: Response, @Body() body: Form): Promise<void> {
    if (!fromTheCockpit(request, response)) return;
    try {
      const form = { grant_type: 'client_credentials', client_id: formValue(body.clientId), client_secret: formValue(body.clientSecret) };
      const { token, expiresIn } = await this.tokens.issue(undefined, form, request.ip ?? '');
      response.cookie(COCKPIT_COOKIE, token, { ...this.cookie, maxAge: expiresIn * 1000 });
      response.redirect(303, '/cockpit');
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // 401 for wrong credentials, 429 with Retry-After once they were wrong too often (docs/security.md, "Guessing is bounded").
      response
        .status(error.status() === 429 ? 429 : 401)
        .set(error.headers)
        .type('html')
        .send(signInPage(error.message));
    }
  }

  /** Ends the signed-in client's cockpit session on every instance (docs/security.md, "Sessions end"). */
  @Post('sign-out')
  async signOut(@Req() request: Request, @Res() response: Response): Promise<void> {
    if (!fromTheCockpit(request, response)) return;
    // Only a session that is one ends: a cookie of anything else writes nothing (issue 73, finding 9).
    if (this.strict && (await this.sessionWorld(request)) !== null)
      await this.ended.end(sessionToken(request), new Date(Date.now() + TOKEN_LIFETIME * 1000));
    response.clearCookie(COCKPIT_COOKIE, this.cookie);
    response.redirect(303, '/cockpit');
  }

  /** A section's page of one of its resources (docs/cockpit.md); declared after the fixed paths, so that theirs match first. */
  @Get(':section/:id')
  async resourcePage(
    @Req() request: Request,
    @Res() response: Response,
    @Param('section') path: string,
    @Param('id') id: string,
  ): Promise<void> {
    const part = this.sectionAt(path);
    if (!part.page) throw new NotFoundException();
    await this.page(request, response, async (world) => {
      const { title, sections, resource } = await part.page!(id, world);
      return [
        title,
        ...(resource ? await this.resource(id, world, resource.machine, resource.status, sections, resource.actions) : sections),
      ];
    });
  }

  @Post(':section/:id/:action')
  async resourceAction(
    @Req() request: Request,
    @Res() response: Response,
    @Param('section') path: string,
    @Param('id') id: string,
    @Param('action') action: string,
    @Body() body: Form,
  ): Promise<void> {
    const part = this.sectionAt(path);
    if (!part.act) throw new NotFoundException();
    await this.act(request, response, `/cockpit/${path}/${id}`, async (world) => {
      const message = await part.act!(id, action, body, world);
      if (message === undefined) throw new NotFoundException();
      return message;
    });
  }

  /** The section at this path; else no such page. */
  private sectionAt(path: string): CockpitSection {
    const part = this.sections.find((candidate) => candidate.path === path);
    if (!part) throw new NotFoundException();
    return part;
  }

  /** The machine drawn with the path the resource took, the actions, its sections, its authorisations' machines and the timeline. */
  private async resource(
    id: string,
    world: World,
    machine: AnyStateMachine,
    current: string,
    sections: string[],
    actions: string,
  ): Promise<string[]> {
    const { events } = await this.history.list({ resourceId: id, page: 1, pageSize: 500 }, world);
    const oldestFirst = [...events].reverse();
    const pathOf = (resourceId: string) =>
      oldestFirst.filter((event) => event.resourceId === resourceId && event.kind !== 'notification').map((event) => event.toStatus);
    const authorisations = [...new Set(oldestFirst.filter((event) => event.kind === 'authorisation').map((event) => event.resourceId))];
    return [
      section('State machine', drawMachine(machine, { current, path: pathOf(id) }), 'machine'),
      section('Actions', actions),
      ...sections,
      ...authorisations.map((authorisation) => {
        const path = pathOf(authorisation);
        return section(`Authorisation ${authorisation}`, drawMachine(authorisationMachine, { current: path[path.length - 1], path }));
      }),
      section('Timeline (newest first)', timeline(events as SandboxEvent[]), 'timeline'),
    ];
  }

  /** Renders a page for the signed-in client (strict) or anyone (open); a refusal (unknown ID) is shown on the page. */
  private async page(request: Request, response: Response, render: (world: World) => Promise<[string, ...string[]]>): Promise<void> {
    const world = await this.worldOf(request);
    if (world === null) {
      response.type('html').send(signInPage());
      return;
    }
    try {
      const [title, ...sections] = await render(world);
      response.type('html').send(layout(title, sections.join('\n'), formValue(request.query.message) || undefined));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      response
        .status(error.status())
        .type('html')
        .send(layout('Not found', section('', `<p>${escape(error.message)}</p>`)));
    }
  }

  /**
   * Runs an action and goes back to `back` with what came of it (post/redirect/get). A form from
   * another site, even another port of the same host, is refused. In AUTH_MODE=strict every action,
   * the clock's too, needs a signed-in client and acts in its world, as the control API needs its
   * token (docs/security.md, "Worlds").
   */
  private async act(request: Request, response: Response, back: string, action: (world: World) => Promise<string>): Promise<void> {
    if (!fromTheCockpit(request, response)) return;
    const world = await this.worldOf(request);
    if (world === null) {
      response.redirect(303, '/cockpit');
      return;
    }
    let message: string;
    try {
      message = await action(world);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      message = `Refused: ${error
        .toBody()
        .tppMessages.map((tpp) => `${tpp.code} ${tpp.text}`)
        .join('; ')}`;
    }
    response.redirect(303, `${back}?message=${encodeURIComponent(message)}`);
  }

  /** The world a page or action acts in (sessionWorld), entered (its clock: ClockService.enter). */
  private async worldOf(request: Request): Promise<World | null> {
    const world = await this.sessionWorld(request);
    if (world) await this.clock.enter(world);
    return world;
  }

  /** Open: the open world. Strict: the client of the cookie's token, or null when none is signed in. */
  private async sessionWorld(request: Request): Promise<World | null> {
    const token = sessionToken(request);
    const signedIn = this.strict && token !== '' && !(await this.ended.isEnded(token));
    return !this.strict ? World.open : signedIn ? await this.tokens.worldOf(`Bearer ${token}`, 'required').catch(() => null) : null;
  }
}

/** The token the cockpit's cookie holds; empty without one. */
const sessionToken = (request: Request): string => formValue((request.cookies as Record<string, unknown> | undefined)?.[COCKPIT_COOKIE]);

/**
 * Whether a form came from the cockpit itself, else a 403 (the sign-in's too: a cross-site form
 * would sign the browser in as another client). Fetch Metadata: a browser says where a form came
 * from (Origin is "null" under the pages' no-referrer policy).
 */
function fromTheCockpit(request: Request, response: Response): boolean {
  const site = request.get('sec-fetch-site');
  if (site === undefined || site === 'same-origin' || site === 'none') return true;
  response.status(403).type('text').send('A cockpit form posts from the cockpit only.');
  return false;
}

function signInPage(message?: string): string {
  return layout(
    'Sign in',
    section(
      'AUTH_MODE=strict: the cockpit shows what your client owns',
      form(
        '/cockpit/sign-in',
        `${input('clientId', 'Client ID')} ${input('clientSecret', 'Client secret', '', 'password')} ${button('Sign in')}`,
      ),
    ),
    message,
  );
}
