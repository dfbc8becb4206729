import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types';
import { balancesConsent, GEORG, SUSANNE } from './support/fixtures';
import { NotificationReceiver } from './support/notification-receiver';
import { inProfile } from './support/profile';
import { issueToken, TODAY, tppError, tppHeaders, useSandbox, TOKEN_MISSING } from './support/sandbox';
import { type Issued, issuedCertificate, signedHeaders } from './support/signing';

/**
 * The permission dashboard's headless routes (docs/permission-dashboard.md), AUTH_MODE=strict: two
 * TPPs' consents on one holder's accounts, each client seeing and changing only its own; the
 * holder's withdrawal as the TPP meets it (401, status, notification, history); re-establishment;
 * the race with the TPP's own deletion; the expired; the confirmation of funds alike.
 */

const BASE = 'http://localhost:3000';
const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);
const AT = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
const bg = <T>(body: T): T => inProfile('berlin-group', body);

const receiver = new NotificationReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.close());

const folder = mkdtempSync(join(tmpdir(), 'psd2-dashboard-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A profile folder of these lines, extending a built-in profile. */
function profileOf(name: string, lines: string[]): string {
  mkdirSync(join(folder, name));
  writeFileSync(join(folder, name, 'profile.yaml'), lines.join('\n'));
  return join(folder, name);
}

interface Tpp {
  name: string;
  clientId: string;
  send(method: 'get' | 'post' | 'delete' | 'put', path: string, headers?: Record<string, string>, body?: object): request.Test;
}

async function tpp(http: App, clientId: string, secret: string, name: string): Promise<Tpp> {
  const token = await issueToken(http, clientId, secret);
  return {
    name,
    clientId,
    send: (method, path, headers = {}, body) => {
      const call = request(http)
        [method](path)
        .set(tppHeaders({ Authorization: `Bearer ${token}`, ...headers }));
      return body ? call.send(body) : call;
    },
  };
}

/** A consent on georg.mustermann's account, approved by him (headless SCA), subscribed to notifications at `/<path>`; signed where a `signer` is given. */
async function georgsConsent(client: Tpp, path: string, terms: object = {}, signer?: Issued): Promise<string> {
  const body = {
    access: { balances: [{ iban: GEORG }], transactions: [{ iban: GEORG }] },
    recurringIndicator: true,
    combinedServiceIndicator: false,
    validUntil: '2026-06-30',
    frequencyPerDay: 4,
    ...terms,
  };
  const headers = {
    'X-Request-ID': randomUUID(),
    'TPP-Notification-URI': receiver.url(`/${path}`),
    'TPP-Redirect-URI': 'https://tpp.example/cb',
  };
  const { consentId } = (
    await client.send('post', '/v1/consents', signer ? signedHeaders(signer, JSON.stringify(body), headers) : headers, body).expect(201)
  ).body;
  await client.send('post', `/sandbox/sca/consents/${consentId}`, {}, { psuId: 'georg.mustermann', decision: 'approve' }).expect(200);
  return consentId;
}

/** A permission as the routes answer it (Berlin Group's answers leave nulls out), from what differs between the tests. */
const permission = (client: Tpp, consentId: string, fields: Record<string, unknown> = {}) =>
  bg({
    consentId,
    consentStatus: 'valid',
    lastActionDate: TODAY,
    service: 'accountInformation',
    tpp: { clientId: client.clientId, name: client.name, organisationName: null, organisationIdentifier: null },
    accounts: [{ iban: GEORG, currency: null, uses: ['accountDetails', 'balances', 'transactions'] }],
    grantedOn: TODAY,
    validUntil: '2026-06-30',
    recurringIndicator: true,
    frequencyPerDay: 4,
    usedToday: 0,
    lastAccessOn: null,
    canWithdraw: true,
    canReestablish: false,
    ...fields,
  } as Record<string, unknown>);

describe('the permission dashboard, headless (berlin-group, signatures optional, AUTH_MODE=strict, SCA_MODE=redirect)', () => {
  const signing = profileOf('signing', ['extends: berlin-group', 'tpp:', '  signatures: optional']);
  const sandbox = useSandbox({ PROFILE: signing, AUTH_MODE: 'strict', SCA_MODE: 'redirect', NOTIFICATION_ALLOWED_HOSTS: '127.0.0.1' });
  let a: Tpp;
  let b: Tpp;
  const permissions = (client: Tpp, psuId = 'georg.mustermann') => client.send('get', `/sandbox/psus/${psuId}/permissions`);
  const change = (client: Tpp, consentId: string, what: 'withdrawal' | 'reestablishment', psuId = 'georg.mustermann') =>
    client.send('post', `/sandbox/psus/${psuId}/permissions/${consentId}/${what}`);
  const readAccounts = (client: Tpp, consentId: string) =>
    client.send('get', `/v1/accounts/${GEORG}/balances`, { 'Consent-ID': consentId });

  beforeAll(async () => {
    a = await tpp(sandbox.http, 'sandbox-tpp', 'sandbox-secret', 'Sandbox TPP');
    b = await tpp(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2', 'Second sandbox TPP');
  });

  it("lists each client's own consents on the holder's accounts, newest first, with what they may do, their limits and their use, and the certificate a creation was signed with", async () => {
    const seal = await issuedCertificate(
      sandbox.http,
      folder,
      { type: 'QSEAL', organisationName: 'Example AISP GmbH', organisationIdentifier: 'PSDAT-FMA-12345', roles: ['PSP_AI'] },
      await issueToken(sandbox.http),
    );
    const first = await georgsConsent(a, 'a-first', {}, seal);
    const second = await georgsConsent(a, 'a-second', { recurringIndicator: false, frequencyPerDay: 1, validUntil: '2026-03-15' });
    const theirs = await georgsConsent(b, 'b-first');
    // An unattended read counts against the limit (docs/behaviour.md): used today and the last access show it.
    await readAccounts(a, first).expect(200);
    const listed = await permissions(a).expect(200);
    expect(listed.body).toEqual({
      psuId: 'georg.mustermann',
      permissions: [
        permission(a, second, { recurringIndicator: false, frequencyPerDay: 1, validUntil: '2026-03-15' }),
        permission(a, first, {
          usedToday: 1,
          lastAccessOn: TODAY,
          tpp: {
            clientId: 'sandbox-tpp',
            name: 'Sandbox TPP',
            organisationName: 'Example AISP GmbH',
            organisationIdentifier: 'PSDAT-FMA-12345',
          },
        }),
      ],
      record: [],
    });
    expect((await permissions(b).expect(200)).body).toEqual({
      psuId: 'georg.mustermann',
      permissions: [permission(b, theirs)],
      record: [],
    });
    // Another holder's dashboard shows none of georg's.
    expect((await permissions(a, 'susanne.mustermann').expect(200)).body).toEqual({
      psuId: 'susanne.mustermann',
      permissions: [],
      record: [],
    });
  });

  it("the holder withdraws A's consent: A's next read is 401 CONSENT_INVALID, its status revokedByPsu, it is notified, the history names the PSU and the dashboard; B's consent reads on", async () => {
    const consentId = await georgsConsent(a, 'withdrawn');
    const kept = await georgsConsent(b, 'kept');
    const withdrawn = await change(a, consentId, 'withdrawal').expect(200);
    expect(withdrawn.body).toEqual(permission(a, consentId, { consentStatus: 'revokedByPsu', canWithdraw: false, canReestablish: true }));

    const refused = await readAccounts(a, consentId).expect(401);
    expect(refused.body).toEqual(bg(tppError('CONSENT_INVALID', `{sensitive} XS2A008E: consent ${consentId} is revokedByPsu, not valid`)));
    expect((await a.send('get', `/v1/consents/${consentId}/status`).expect(200)).body).toEqual({ consentStatus: 'revokedByPsu' });
    const [notification] = await receiver.waitFor('/withdrawn', 2);
    expect(receiver.received.filter(({ path }) => path === '/withdrawn').map(({ body }) => body)).toEqual([
      { consentId, consentStatus: 'valid', _links: { status: { href: `${BASE}/v1/consents/${consentId}/status` } } },
      { consentId, consentStatus: 'revokedByPsu', _links: { status: { href: `${BASE}/v1/consents/${consentId}/status` } } },
    ]);
    expect(notification.headers['content-type']).toBe('application/json');
    const { events } = (await a.send('get', `/sandbox/events?resourceId=${consentId}&kind=consent`).expect(200)).body;
    expect(events[0]).toEqual(
      bg({
        id: UUID,
        kind: 'consent',
        resourceId: consentId,
        parentId: null,
        from: 'valid',
        to: 'revokedByPsu',
        event: 'REVOKE',
        cause: withdrawn.request.getHeader('X-Request-ID'),
        psuId: 'georg.mustermann',
        channel: 'dashboard',
        sandboxDate: TODAY,
        at: AT,
      }),
    );

    await readAccounts(b, kept).expect(200);
    // Withdrawn once: a second withdrawal changes nothing.
    const again = await change(a, consentId, 'withdrawal').expect(409);
    expect(again.body).toEqual(
      bg(
        tppError('STATUS_INVALID', `{sensitive} XS2A021E: consent ${consentId} is revokedByPsu, not a valid consent the holder can revoke`),
      ),
    );
  });

  it('re-establishment brings the same access and limits back, recorded and notified the same way', async () => {
    const consentId = await georgsConsent(a, 'reestablished');
    await readAccounts(a, consentId).expect(200);
    await change(a, consentId, 'withdrawal').expect(200);
    const back = await change(a, consentId, 'reestablishment').expect(200);
    expect(back.body).toEqual(permission(a, consentId, { usedToday: 1, lastAccessOn: TODAY }));
    await readAccounts(a, consentId).expect(200);
    expect((await a.send('get', `/v1/consents/${consentId}`).expect(200)).body).toMatchObject({
      consentStatus: 'valid',
      frequencyPerDay: 4,
      validUntil: '2026-06-30',
      access: { balances: [{ iban: GEORG }], transactions: [{ iban: GEORG }] },
    });
    await receiver.waitFor('/reestablished', 3);
    expect(
      receiver.received
        .filter(({ path }) => path === '/reestablished')
        .map(({ body }) => (body as { consentStatus: string }).consentStatus),
    ).toEqual(['valid', 'revokedByPsu', 'valid']);
    const { events } = (await a.send('get', `/sandbox/events?resourceId=${consentId}&kind=consent`).expect(200)).body;
    expect(events[0]).toMatchObject({
      from: 'revokedByPsu',
      to: 'valid',
      event: 'REESTABLISH',
      psuId: 'georg.mustermann',
      channel: 'dashboard',
    });
    // Valid again: re-establishing it once more is refused.
    const again = await change(a, consentId, 'reestablishment').expect(409);
    expect(again.body).toEqual(
      bg(
        tppError(
          'STATUS_INVALID',
          `{sensitive} XS2A021E: consent ${consentId} is valid, not a withdrawn consent the holder can re-establish`,
        ),
      ),
    );
  });

  it("strict isolation: B lists none of A's consents and changes none of them, answered as for a consent nobody has; A's stays as it was", async () => {
    const consentId = await georgsConsent(a, 'isolated');
    const unknown = '0190b9e0-0000-7000-8000-000000000000';
    for (const what of ['withdrawal', 'reestablishment'] as const) {
      const theirs = await change(b, consentId, what).expect(403);
      const nobodys = await change(b, unknown, what).expect(403);
      expect(theirs.body).toEqual(bg(tppError('CONSENT_UNKNOWN', `{sensitive} XS2A017E: consent ${consentId} unknown`)));
      expect(nobodys.body).toEqual(bg(tppError('CONSENT_UNKNOWN', `{sensitive} XS2A017E: consent ${unknown} unknown`)));
    }
    expect((await permissions(b).expect(200)).body.permissions.map(({ consentId: id }: { consentId: string }) => id)).not.toContain(
      consentId,
    );
    expect((await a.send('get', `/v1/consents/${consentId}/status`).expect(200)).body).toEqual({ consentStatus: 'valid' });
    // A's scenario PSU is B's unknown PSU.
    const scenario = (
      await a
        .send(
          'post',
          '/sandbox/scenarios',
          {},
          { accounts: [{ name: 'Scenario Holder', balances: { interimAvailable: '10.00', forwardAvailable: '10.00' } }] },
        )
        .expect(201)
    ).body;
    const foreign = await permissions(b, scenario.psuId).expect(401);
    const nobody = await permissions(b, 'scenario-nobody').expect(401);
    expect(foreign.body).toEqual(nobody.body);
    expect((await permissions(a, scenario.psuId).expect(200)).body).toEqual({
      psuId: scenario.psuId,
      permissions: [
        permission(a, scenario.consentId, {
          accounts: [{ iban: scenario.accounts[0].iban, currency: 'EUR', uses: ['accountDetails', 'balances', 'transactions'] }],
          grantedOn: null,
          validUntil: expect.any(String),
          frequencyPerDay: expect.any(Number),
        }),
      ],
      record: [],
    });
  });

  it("a withdrawal racing the TPP's own DELETE: one wins, the other is refused, and every answer agrees with the status left", async () => {
    for (let round = 0; round < 4; round++) {
      const consentId = await georgsConsent(a, `race-${round}`);
      const [withdrawal, deletion] = await Promise.all([change(a, consentId, 'withdrawal'), a.send('delete', `/v1/consents/${consentId}`)]);
      const status = (await a.send('get', `/v1/consents/${consentId}/status`).expect(200)).body.consentStatus;
      if (status === 'revokedByPsu') {
        expect([withdrawal.status, deletion.status]).toEqual([200, 409]);
        expect(deletion.body).toEqual(
          bg(tppError('STATUS_INVALID', `{sensitive} XS2A011E: consent ${consentId} is revokedByPsu and cannot be deleted`)),
        );
      } else {
        expect([status, withdrawal.status, deletion.status]).toEqual(['terminatedByTpp', 409, 204]);
        expect(withdrawal.body).toEqual(
          bg(
            tppError(
              'STATUS_INVALID',
              `{sensitive} XS2A021E: consent ${consentId} is terminatedByTpp, not a valid consent the holder can revoke`,
            ),
          ),
        );
      }
      const listed = (await permissions(a).expect(200)).body;
      const where = status === 'revokedByPsu' ? listed.permissions : listed.record;
      expect(where.find(({ consentId: id }: { consentId: string }) => id === consentId)).toEqual(
        permission(a, consentId, { consentStatus: status, canWithdraw: false, canReestablish: status === 'revokedByPsu' }),
      );
    }
  });

  it('funds-confirmation consents are listed and withdrawn alike: the next check is 401 CONSENT_INVALID', async () => {
    const { consentId } = (
      await a
        .send(
          'post',
          '/v2/consents/confirmation-of-funds',
          { 'TPP-Redirect-URI': 'https://tpp.example/cb' },
          { account: { iban: SUSANNE }, cardNumber: '1234567890123456' },
        )
        .expect(201)
    ).body;
    await a.send('post', `/sandbox/sca/consents/${consentId}`, {}, { psuId: 'susanne.mustermann', decision: 'approve' }).expect(200);
    const funds = permission(a, consentId, {
      service: 'fundsConfirmation',
      accounts: [{ iban: SUSANNE, currency: null, uses: ['fundsConfirmation'] }],
      validUntil: '9999-12-31',
      frequencyPerDay: 0,
    });
    expect((await permissions(a, 'susanne.mustermann').expect(200)).body).toEqual({
      psuId: 'susanne.mustermann',
      permissions: [funds],
      record: [],
    });
    expect((await change(a, consentId, 'withdrawal', 'susanne.mustermann').expect(200)).body).toEqual({
      ...funds,
      consentStatus: 'revokedByPsu',
      canWithdraw: false,
      canReestablish: true,
    });
    const check = await a
      .send(
        'post',
        '/v1/funds-confirmations',
        { 'Consent-ID': consentId },
        { account: { iban: SUSANNE }, instructedAmount: { currency: 'EUR', amount: '1.00' } },
      )
      .expect(401);
    expect(check.body).toEqual(bg(tppError('CONSENT_INVALID', `{sensitive} XS2A008E: consent ${consentId} is revokedByPsu, not valid`)));
    // Georg holds none of susanne's accounts: he cannot withdraw or re-establish it.
    await change(a, consentId, 'reestablishment', 'georg.mustermann').expect(401);
  });

  it("the cockpit shows a PSU's permissions to the signed-in client, withdraws and re-establishes as the holder, and draws the way back on the consent's machine", async () => {
    const consentId = await georgsConsent(a, 'cockpit');
    const theirs = await georgsConsent(b, 'cockpit-b');
    const cockpit = request.agent(sandbox.http);
    await cockpit.post('/cockpit/sign-in').type('form').send({ clientId: 'sandbox-tpp', clientSecret: 'sandbox-secret' }).expect(303);
    expect((await cockpit.get('/cockpit').expect(200)).text).toContain(
      '<a href="/cockpit/permissions/georg.mustermann">georg.mustermann</a>',
    );
    const page = (await cockpit.get('/cockpit/permissions/georg.mustermann').expect(200)).text;
    expect(page).toContain(`<a href="/cockpit/consents/${consentId}">${consentId}</a>`);
    expect(page).not.toContain(theirs);
    const act = (action: string) =>
      cockpit.post(`/cockpit/permissions/georg.mustermann/${action}`).type('form').send({ consentId }).expect(303);
    expect((await act('withdrawal')).headers.location).toBe(
      `/cockpit/permissions/georg.mustermann?message=${encodeURIComponent(`Consent ${consentId} is revokedByPsu.`)}`,
    );
    expect((await a.send('get', `/v1/consents/${consentId}/status`).expect(200)).body).toEqual({ consentStatus: 'revokedByPsu' });
    await act('reestablishment');
    expect((await a.send('get', `/v1/consents/${consentId}/status`).expect(200)).body).toEqual({ consentStatus: 'valid' });
    const { events } = (await a.send('get', `/sandbox/events?resourceId=${consentId}&kind=consent`).expect(200)).body;
    expect(events.slice(0, 2).map(({ event, channel }: { event: string; channel: string }) => [event, channel])).toEqual([
      ['REESTABLISH', 'cockpit'],
      ['REVOKE', 'cockpit'],
    ]);
    // B's consent is none of A's, in the cockpit as on the routes.
    const refused = await cockpit
      .post('/cockpit/permissions/georg.mustermann/withdrawal')
      .type('form')
      .send({ consentId: theirs })
      .expect(303);
    expect(decodeURIComponent(refused.headers.location)).toContain(`CONSENT_UNKNOWN`);
    expect((await b.send('get', `/v1/consents/${theirs}/status`).expect(200)).body).toEqual({ consentStatus: 'valid' });
    expect((await cockpit.get(`/cockpit/consents/${consentId}`).expect(200)).text).toContain('REESTABLISH');
  });

  it("the cockpit's sign-out ends its session on every request after; its sign-ins are bounded: 429 with Retry-After after 5 wrong", async () => {
    const cockpit = request.agent(sandbox.http);
    const signedIn = await cockpit
      .post('/cockpit/sign-in')
      .type('form')
      .send({ clientId: 'sandbox-tpp', clientSecret: 'sandbox-secret' })
      .expect(303);
    const cookie = /psd2-cockpit-token=([^;]+)/.exec(String(signedIn.headers['set-cookie']))![1];
    // Served over http here (PUBLIC_BASE_URL): no Secure, which an https one sets.
    expect(String(signedIn.headers['set-cookie'])).not.toContain('Secure');
    const withCookie = () => request(sandbox.http).get('/cockpit').set('Cookie', `psd2-cockpit-token=${cookie}`).expect(200);
    expect((await withCookie()).text).toContain('As client <strong>sandbox-tpp</strong>.');
    const ended = () => sandbox.dataSource.getRepository('ended_sessions').count();
    const before = await ended();
    // A sign-out of no session (any cookie, or none) writes nothing (issue 73, finding 9).
    for (const bogus of ['psd2-cockpit-token=made-up', ''])
      await request(sandbox.http).post('/cockpit/sign-out').set('Cookie', bogus).type('form').send('').expect(303);
    expect(await ended()).toBe(before);
    await cockpit.post('/cockpit/sign-out').type('form').send('').expect(303);
    expect(await ended()).toBe(before + 1);
    const after = (await withCookie()).text;
    expect(after).toContain('<form class="inline" method="post" action="/cockpit/sign-in">');
    expect(after).not.toContain('As client');
    const guess = (secret: string) =>
      request(sandbox.http).post('/cockpit/sign-in').type('form').send({ clientId: 'nobody', clientSecret: secret });
    for (let attempt = 1; attempt <= 5; attempt++) await guess(`guess-${attempt}`).expect(401);
    const refused = await guess('guess-6').expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(880);
    expect(refused.text).toContain('5 failed sign-ins from this address: try again in');
    await request(sandbox.http)
      .post('/cockpit/sign-in')
      .type('form')
      .send({ clientId: 'sandbox-tpp', clientSecret: 'sandbox-secret' })
      .expect(303);
  });

  it("the revocation page opens a consent only from its client's link (issue 73, finding 7): a fixture PSU's password is public", async () => {
    const consentId = await georgsConsent(a, 'revocation-page');
    const page = `/sca/consents/revocation?consent_id=${consentId}`;
    const bare = await request(sandbox.http).get(page).expect(403);
    expect(bare.text).toContain(
      'Open this page from the link your third-party provider asked the sandbox for: it is missing or has expired.',
    );
    const unknown = await b.send('post', `/sandbox/consents/${consentId}/revocation-links`).expect(403);
    expect(unknown.body).toEqual(bg(tppError('CONSENT_UNKNOWN', `{sensitive} XS2A017E: consent ${consentId} unknown`)));
    // B's ticket opens B's world, where A's consent is no consent.
    const other = new URL((await b.send('post', '/sandbox/dashboard-links').expect(201)).body._links.dashboard.href);
    await request(sandbox.http)
      .get(`${page}&${other.search.slice(1)}`)
      .expect(403);
    const link = (await a.send('post', `/sandbox/consents/${consentId}/revocation-links`).expect(201)).body;
    expect(link).toEqual({
      _links: {
        revocation: {
          href: expect.stringMatching(
            new RegExp(
              `^http://localhost:3000/sca/consents/revocation\\?consent_id=${consentId}&ticket=[\\w-]+\\.[\\w-]+\\.\\d+\\.[\\w-]+$`,
            ),
          ),
        },
      },
    });
    const url = new URL(link._links.revocation.href);
    const browser = request.agent(sandbox.http);
    const shown = await browser.get(`${url.pathname}${url.search}`).expect(200);
    const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(shown.text)![1];
    expect(hidden('ticket')).toBe(url.searchParams.get('ticket'));
    const revoked = await browser
      .post('/sca/consents/revocation')
      .type('form')
      .send({
        _csrf: hidden('_csrf'),
        id: consentId,
        ticket: hidden('ticket'),
        psuId: 'georg.mustermann',
        password: 'sandbox',
        decision: 'approve',
      })
      .expect(200);
    expect(revoked.text).toContain('Access revoked: the consent&#39;s status is now revokedByPsu.');
    expect((await a.send('get', `/v1/consents/${consentId}/status`).expect(200)).body).toEqual({ consentStatus: 'revokedByPsu' });
  });

  // Last: it moves the clock.
  it("gives a client a link to the dashboard's sign-in in its own world, signed; without a token none", async () => {
    const links = await Promise.all([a, b].map(async (client) => (await client.send('post', '/sandbox/dashboard-links').expect(201)).body));
    for (const link of links)
      expect(link).toEqual({
        _links: { dashboard: { href: expect.stringMatching(/^http:\/\/localhost:3000\/dashboard\?ticket=[\w-]+\.[\w-]+\.\d+\.[\w-]+$/) } },
      });
    expect(links[0]._links.dashboard.href).not.toBe(links[1]._links.dashboard.href);
    const refused = await request(sandbox.http).post('/sandbox/dashboard-links').expect(401);
    expect(refused.body).toEqual(bg(tppError('TOKEN_INVALID', TOKEN_MISSING.strict)));
  });

  it('a withdrawn consent past its validUntil cannot be re-established, and goes to the record', async () => {
    const consentId = await georgsConsent(a, 'expiring', { validUntil: '2026-03-16' });
    await change(a, consentId, 'withdrawal').expect(200);
    await request(sandbox.http)
      .put('/sandbox/clock')
      .set(tppHeaders({ Authorization: `Bearer ${await issueToken(sandbox.http)}` }))
      .send({ today: '2026-03-17' })
      .expect(200);
    const refused = await change(a, consentId, 'reestablishment').expect(409);
    expect(refused.body).toEqual(
      bg(
        tppError(
          'STATUS_INVALID',
          `{sensitive} XS2A021E: consent ${consentId} is revokedByPsu and past its validUntil, not a withdrawn consent the holder can re-establish`,
        ),
      ),
    );
    const { record } = (await permissions(a).expect(200)).body;
    expect(record.find(({ consentId: id }: { consentId: string }) => id === consentId)).toEqual(
      permission(a, consentId, { consentStatus: 'revokedByPsu', validUntil: '2026-03-16', canWithdraw: false }),
    );
    expect((await a.send('get', `/v1/consents/${consentId}/status`).expect(200)).body).toEqual({ consentStatus: 'revokedByPsu' });
  });
});

describe('a profile with permissionDashboard: { reestablish: false }', () => {
  const sandbox = useSandbox({
    PROFILE: profileOf('final', ['extends: bank', 'name: Final Bank', 'permissionDashboard:', '  reestablish: false']),
    SCA_MODE: 'redirect',
  });

  it('a withdrawal is final: no re-establishment route or page is served, and the withdrawn consent is in the record', async () => {
    const { consentId } = (await request(sandbox.http).post('/v1/consents').set(tppHeaders()).send(balancesConsent()).expect(200)).body;
    await request(sandbox.http)
      .post(`/sandbox/sca/consents/${consentId}`)
      .send({ psuId: 'georg.mustermann', decision: 'approve' })
      .expect(200);
    const withdrawn = await request(sandbox.http).post(`/sandbox/psus/georg.mustermann/permissions/${consentId}/withdrawal`).expect(200);
    expect(withdrawn.body).toMatchObject({ consentStatus: 'revokedByPsu', canWithdraw: false, canReestablish: false });
    await request(sandbox.http).post(`/sandbox/psus/georg.mustermann/permissions/${consentId}/reestablishment`).expect(404);
    await request(sandbox.http).get(`/dashboard/reestablishment?consent_id=${consentId}`).expect(404);
    const { permissions, record } = (await request(sandbox.http).get('/sandbox/psus/georg.mustermann/permissions').expect(200)).body;
    expect([permissions, record.map(({ consentId: id }: { consentId: string }) => id)]).toEqual([[], [consentId]]);
    const { paths: documented, info } = (await request(sandbox.http).get('/docs-json').expect(200)).body;
    expect(info.description).toContain(
      "Permission dashboard (PSR): the account holder sees every TPP's consent on their accounts at /dashboard, and withdraws it; a TPP's",
    );
    const paths = Object.keys(documented);
    expect(paths.filter((path) => path.startsWith('/sandbox/psus'))).toEqual([
      '/sandbox/psus/{psuId}/permissions',
      '/sandbox/psus/{psuId}/permissions/{consentId}/withdrawal',
    ]);
  });

  /** The dashboard's sign-in page and form, as a browser posts it (its CSRF cookie kept by the agent). */
  const signIn = async (psuId: string, password: string, status: number) => {
    const browser = request.agent(sandbox.http);
    const page = await browser.get('/dashboard').expect(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    const answer = await browser.post('/dashboard').type('form').send({ _csrf: csrf, psuId, password }).expect(status);
    return { browser, csrf, answer };
  };
  const SESSION = /psd2-sandbox-dashboard=([^;]+)/;

  it("signing out makes the session's cookie worthless at once: sent again, it opens the sign-in, not the holder's list", async () => {
    const { browser, csrf, answer } = await signIn('georg.mustermann', 'sandbox', 303);
    const cookie = SESSION.exec(String(answer.headers['set-cookie']))![1];
    const withCookie = () => request(sandbox.http).get('/dashboard').set('Cookie', `psd2-sandbox-dashboard=${cookie}`).expect(200);
    expect((await withCookie()).text).toContain('Signed in as georg.mustermann');
    await browser.post('/dashboard').type('form').send({ _csrf: csrf, decision: 'sign-out' }).expect(303);
    const after = (await withCookie()).text;
    expect(after).not.toContain('Signed in as');
    expect(after).toContain('name="password"');
  });

  it("guessing a holder's password is bounded: after 5 wrong ones from an address, 429 with Retry-After, the right one too; another PSU is untouched", async () => {
    for (let attempt = 1; attempt <= 5; attempt++)
      expect((await signIn('marianne.mustermann', `guess-${attempt}`, 401)).answer.text).toContain('The PSU ID or password is wrong.');
    const refused = (await signIn('marianne.mustermann', 'sandbox', 429)).answer;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(880);
    expect(refused.text).toContain(`5 failed sign-ins from this address: try again in ${refused.headers['retry-after']} s.`);
    expect(refused.headers['set-cookie'] ?? []).not.toContainEqual(expect.stringContaining('psd2-sandbox-dashboard='));
    await signIn('georg.mustermann', 'sandbox', 303);
  });

  it('links to the plain dashboard in open mode: there is one world', async () => {
    const link = await request(sandbox.http).post('/sandbox/dashboard-links').expect(201);
    expect(link.body).toEqual({ _links: { dashboard: { href: 'http://localhost:3000/dashboard' } } });
  });
});

describe('the cockpit served over https (PUBLIC_BASE_URL)', () => {
  const sandbox = useSandbox({ AUTH_MODE: 'strict', SANDBOX_CONTROL: 'true', PUBLIC_BASE_URL: 'https://sandbox.bank.example' });

  it('sends its cookie, which holds a token, over https only (Secure)', async () => {
    const signedIn = await request(sandbox.http)
      .post('/cockpit/sign-in')
      .type('form')
      .send({ clientId: 'sandbox-tpp', clientSecret: 'sandbox-secret' })
      .expect(303);
    expect(String(signedIn.headers['set-cookie'])).toMatch(
      /^psd2-cockpit-token=[^;]+; Max-Age=\d+; Path=\/cockpit; Expires=[^;]+; HttpOnly; Secure; SameSite=Strict$/,
    );
  });
});
