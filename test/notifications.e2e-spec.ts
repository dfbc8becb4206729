import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { App } from 'supertest/types';
import { CREATED } from './support/profile';
import { SUSANNE, sepaPayment } from './support/fixtures';
import { NotificationReceiver } from './support/notification-receiver';
import { issueToken, tppError, tppHeaders, useSandbox } from './support/sandbox';

const SEPA = '/v1/payments/sepa-credit-transfers';
const BASE = 'http://localhost:3000';
const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);
const AT = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const PSU_IP = { 'PSU-IP-Address': '192.0.2.10' };
const consentRequest = (access: object) => ({
  access,
  recurringIndicator: true,
  combinedServiceIndicator: false,
  validUntil: '2026-06-30',
  frequencyPerDay: 4,
});

/** One notification attempt as GET /sandbox/events answers it. */
const attempt = (fields: Record<string, unknown>) => ({
  id: UUID,
  kind: 'notification',
  psuId: null,
  channel: null,
  sandboxDate: '2026-03-15',
  at: AT,
  ...fields,
});

const receiver = new NotificationReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.close());

/** The notification attempts of a resource, oldest first, once `count` are recorded (each is recorded once its answer came). */
async function attempts(http: App, resourceId: string, count: number) {
  for (let tries = 0; ; tries++) {
    const { body } = await request(http).get(`/sandbox/events?resourceId=${resourceId}&kind=notification`).expect(200);
    if (body.events.length >= count || tries === 200) return body.events.reverse();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('status notifications (SCA_MODE=redirect)', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });
  const initiate = (path: string, headers: Record<string, string>, body: object = sepaPayment('5.00')) =>
    request(sandbox.http)
      .post(SEPA)
      .set(tppHeaders({ ...PSU_IP, 'TPP-Notification-URI': receiver.url(path), ...headers }))
      .send(body);
  const approve = (paymentId: string) =>
    request(sandbox.http).post(`/sandbox/sca/payments/${paymentId}`).send({ psuId: 'georg.mustermann', decision: 'approve' }).expect(200);

  it('announces what it will notify and, by default (PROCESS), POSTs each change of the status, with its ID, the new status and the status link; the attempt is in the history', async () => {
    const created = await initiate('/process', {}).expect(CREATED);
    expect(created.headers['aspsp-notification-support']).toBe('true');
    expect(created.headers['aspsp-notification-content']).toBe('status=PROCESS');
    const { paymentId } = created.body;
    const decision = await approve(paymentId);

    const [notification] = await receiver.waitFor('/process', 1);
    expect(notification.body).toEqual({
      paymentId,
      transactionStatus: 'ACSP',
      _links: { status: { href: `${BASE}${SEPA}/${paymentId}/status` } },
    });
    expect(notification.headers).toMatchObject({ 'content-type': 'application/json', 'x-request-id': UUID });
    expect(await attempts(sandbox.http, paymentId, 1)).toEqual([
      attempt({
        resourceId: notification.headers['x-request-id'],
        parentId: paymentId,
        from: 'ACSP',
        to: 'delivered',
        event: 'ATTEMPT 1: HTTP 204',
        cause: decision.headers['x-request-id'],
      }),
    ]);
  });

  it('announces the payee check (RVCM), the confirmation (RCVC) and the execution, each a change of the status', async () => {
    const created = await initiate(
      '/vop',
      { 'Client-VOP-Requested': 'true' },
      sepaPayment('5.00', { creditorName: 'Goerg Mustermann' }),
    ).expect(CREATED);
    const { paymentId } = created.body;
    expect(created.body.transactionStatus).toBe('RVCM');
    await request(sandbox.http).put(`${SEPA}/${paymentId}/creditor-confirmation`).set(tppHeaders()).expect(200);
    await approve(paymentId);
    const notifications = await receiver.waitFor('/vop', 3);
    expect(notifications.map(({ body }) => (body as { transactionStatus: string }).transactionStatus)).toEqual(['RVCM', 'RCVC', 'ACSP']);
  });

  it('with status=SCA, PROCESS: each step of the authorisation and each change of the consent, in the order they happened', async () => {
    const path = `/v1/consents`;
    const created = await request(sandbox.http)
      .post(path)
      .set(
        tppHeaders({
          'TPP-Redirect-Preferred': 'false',
          'PSU-ID': 'susanne.mustermann',
          'TPP-Notification-URI': receiver.url('/sca'),
          'TPP-Notification-Content-Preferred': 'status=SCA, PROCESS',
        }),
      )
      .send(consentRequest({ balances: [{ iban: SUSANNE }] }))
      .expect(CREATED);
    expect(created.headers['aspsp-notification-content']).toBe('status=SCA, PROCESS');
    const { consentId } = created.body;
    const [authorisationId] = (await request(sandbox.http).get(`${path}/${consentId}/authorisations`).set(tppHeaders()).expect(200)).body
      .authorisationIds;
    const authorisation = `${path}/${consentId}/authorisations/${authorisationId}`;
    await request(sandbox.http)
      .put(authorisation)
      .set(tppHeaders())
      .send({ psuData: { password: 'sandbox' } })
      .expect(200);
    await request(sandbox.http).put(authorisation).set(tppHeaders()).send({ scaAuthenticationData: '123456' }).expect(200);
    await request(sandbox.http).delete(`${path}/${consentId}`).set(tppHeaders()).expect(204);

    const status = { status: { href: `${BASE}/v1/consents/${consentId}/status` } };
    expect((await receiver.waitFor('/sca', 4)).map(({ body }) => body)).toEqual([
      { consentId, authorisationId, scaStatus: 'scaMethodSelected', _links: status },
      { consentId, consentStatus: 'valid', _links: status },
      { consentId, authorisationId, scaStatus: 'finalised', _links: status },
      { consentId, consentStatus: 'terminatedByTpp', _links: status },
    ]);
    expect((await attempts(sandbox.http, consentId, 4)).map(({ from, to }: Record<string, string>) => `${from} ${to}`)).toEqual([
      'scaMethodSelected delivered',
      'valid delivered',
      'finalised delivered',
      'terminatedByTpp delivered',
    ]);
  });

  it('with status=LAST: only the status after which nothing more is to come, here after the clock executed a future-dated payment', async () => {
    const created = await initiate(
      '/last',
      { 'TPP-Notification-Content-Preferred': 'status=LAST' },
      sepaPayment('5.00', { requestedExecutionDate: '2026-03-20' }),
    ).expect(CREATED);
    expect(created.headers['aspsp-notification-content']).toBe('status=LAST');
    const { paymentId } = created.body;
    await approve(paymentId);
    expect((await request(sandbox.http).get(`${SEPA}/${paymentId}/status`).set(tppHeaders()).expect(200)).body.transactionStatus).toBe(
      'PDNG',
    );
    await request(sandbox.http).post('/sandbox/clock/advance').send({ days: 5 }).expect(200);
    expect((await request(sandbox.http).get(`${SEPA}/${paymentId}/status`).set(tppHeaders()).expect(200)).body.transactionStatus).toBe(
      'ACSP',
    );

    expect((await receiver.waitFor('/last', 1)).map(({ body }) => body)).toEqual([
      { paymentId, transactionStatus: 'ACSP', _links: { status: { href: `${BASE}${SEPA}/${paymentId}/status` } } },
    ]);
    const [executed] = await attempts(sandbox.http, paymentId, 1);
    expect(executed).toEqual(
      attempt({
        resourceId: expect.any(String),
        parentId: paymentId,
        from: 'ACSP',
        to: 'delivered',
        event: 'ATTEMPT 1: HTTP 204',
        cause: 'clock',
        sandboxDate: '2026-03-20',
      }),
    );
    await request(sandbox.http).put('/sandbox/clock').send({ today: '2026-03-15' }).expect(200);
  });

  it('retries a delivery the receiver failed, with the same X-Request-ID, and holds back the next notification of the resource until then', async () => {
    receiver.answers = [503];
    const created = await initiate('/retry', { 'TPP-Notification-Content-Preferred': 'status=SCA,PROCESS' }).expect(CREATED);
    const { paymentId } = created.body;
    await approve(paymentId);

    const arrived = await receiver.waitFor('/retry', 3);
    // ACSP was recorded first (docs/events.md), failed once, and came again before the authorisation's finalised.
    expect(
      arrived.map(({ body }) => (body as Record<string, string>).transactionStatus ?? (body as Record<string, string>).scaStatus),
    ).toEqual(['ACSP', 'ACSP', 'finalised']);
    expect(arrived[1].headers['x-request-id']).toBe(arrived[0].headers['x-request-id']);
    expect(
      (await attempts(sandbox.http, paymentId, 3)).map(({ from, to, event }: Record<string, string>) => `${from} ${to} ${event}`),
    ).toEqual(['ACSP retrying ATTEMPT 1: HTTP 503', 'ACSP delivered ATTEMPT 2: HTTP 204', 'finalised delivered ATTEMPT 1: HTTP 204']);
  });

  it('gives up after the fourth failed attempt (1 s, 2 s and 4 s apart), and records each', async () => {
    receiver.answers = [500, 500, 500, 500];
    const { paymentId } = (await initiate('/down', {}).expect(CREATED)).body;
    await approve(paymentId);
    await receiver.waitFor('/down', 4, 20_000);
    expect((await attempts(sandbox.http, paymentId, 4)).map(({ to, event }: Record<string, string>) => `${to} ${event}`)).toEqual([
      'retrying ATTEMPT 1: HTTP 500',
      'retrying ATTEMPT 2: HTTP 500',
      'retrying ATTEMPT 3: HTTP 500',
      'failed ATTEMPT 4: HTTP 500',
    ]);
  }, 30_000);

  it('refuses a URI on a private, link-local or reserved network (unless allowed), a malformed URI and a malformed preference with 400, and creates nothing', async () => {
    const before = (await request(sandbox.http).get('/sandbox/events?kind=payment').expect(200)).body.total;
    for (const [uri, address] of [
      ['http://10.1.2.3/hook', '10.1.2.3'],
      ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
      ['https://[fd00::1]:8443/hook', 'fd00::1'],
      ['http://0.0.0.0:3000/hook', '0.0.0.0'],
      // Loopback carried in an IPv6 address (issue 73, finding 10).
      ['https://[::127.0.0.1]/hook', '::7f00:1'],
    ]) {
      const refused = await request(sandbox.http)
        .post(SEPA)
        .set(tppHeaders({ ...PSU_IP, 'TPP-Notification-URI': uri }))
        .send(sepaPayment('5.00'))
        .expect(400);
      expect(refused.body).toEqualBody(
        tppError(
          'FORMAT_ERROR',
          `{sensitive} XS2A038E: TPP-Notification-URI names a host on a private, loopback or reserved network (${address}), which this sandbox does not notify unless NOTIFICATION_ALLOWED_HOSTS names it`,
          'TPP-Notification-URI',
        ),
      );
    }
    const malformed = await request(sandbox.http)
      .post(SEPA)
      .set(tppHeaders({ ...PSU_IP, 'TPP-Notification-URI': 'hooks.example.com/notify' }))
      .send(sepaPayment('5.00'))
      .expect(400);
    expect(malformed.body).toEqualBody(
      tppError('FORMAT_ERROR', '{sensitive} XS2A001E: TPP-Notification-URI must be an absolute http or https URL', 'TPP-Notification-URI'),
    );
    for (const preference of ['SCA', 'status=SCA, SCA', 'status=PUSH', 'status=']) {
      const refused = await initiate('/never', { 'TPP-Notification-Content-Preferred': preference }).expect(400);
      expect(refused.body).toEqualBody(
        tppError(
          'FORMAT_ERROR',
          '{sensitive} XS2A001E: TPP-Notification-Content-Preferred must be "status=" followed by SCA, PROCESS or LAST, separated by commas, each at most once',
          'TPP-Notification-Content-Preferred',
        ),
      );
    }
    expect((await request(sandbox.http).get('/sandbox/events?kind=payment').expect(200)).body.total).toBe(before);
    // A public host is taken; a preference without a URI means nothing.
    const publicHost = await request(sandbox.http)
      .post(SEPA)
      .set(tppHeaders({ ...PSU_IP, 'TPP-Notification-URI': 'https://93.184.215.14/notify' }))
      .send(sepaPayment('5.00'))
      .expect(CREATED);
    expect(publicHost.headers['aspsp-notification-support']).toBe('true');
    const noUri = await request(sandbox.http)
      .post(SEPA)
      .set(tppHeaders({ ...PSU_IP, 'TPP-Notification-Content-Preferred': 'status=LAST' }))
      .send(sepaPayment('5.00'))
      .expect(CREATED);
    expect(noUri.headers['aspsp-notification-support']).toBeUndefined();
  });
});

describe('status notifications of a sandbox hosted for many TPPs (AUTH_MODE=strict)', () => {
  const sandbox = useSandbox({ AUTH_MODE: 'strict' });

  it('refuses loopback, by address and by a name that resolves to it', async () => {
    const token = await issueToken(sandbox.http);
    for (const [host, address] of [
      ['127.0.0.1', '127\\.0\\.0\\.1'],
      ['localhost', '(127\\.0\\.0\\.1|::1)'],
    ]) {
      const refused = await request(sandbox.http)
        .post(SEPA)
        .set({ ...tppHeaders({ ...PSU_IP, 'TPP-Notification-URI': receiver.url('/strict', host) }), Authorization: `Bearer ${token}` })
        .send(sepaPayment('5.00'))
        .expect(400);
      const text = expect.stringMatching(
        new RegExp(
          `^\\{sensitive\\} XS2A038E: TPP-Notification-URI names a host on a private, loopback or reserved network \\(${address}\\), `,
        ),
      );
      expect(refused.body).toEqualBody(tppError('FORMAT_ERROR', text, 'TPP-Notification-URI'));
    }
  });
});

describe('status notifications to a host the operator allowed (AUTH_MODE=strict, NOTIFICATION_ALLOWED_HOSTS=localhost)', () => {
  const sandbox = useSandbox({ AUTH_MODE: 'strict', NOTIFICATION_ALLOWED_HOSTS: 'localhost' });

  it('notifies it; a consent that is not stored (the bank fixture, SCA_MODE=auto) is announced as not notified', async () => {
    const headers = { Authorization: `Bearer ${await issueToken(sandbox.http)}` };
    const created = await request(sandbox.http)
      .post(SEPA)
      .set({ ...tppHeaders({ ...PSU_IP, 'TPP-Notification-URI': receiver.url('/allowed', 'localhost') }), ...headers })
      .send(sepaPayment('5.00'))
      .expect(CREATED);
    const { paymentId } = created.body;
    // In SCA_MODE=auto the first read completes SCA.
    await request(sandbox.http)
      .get(`${SEPA}/${paymentId}/status`)
      .set({ ...tppHeaders(), ...headers })
      .expect(200);
    expect((await receiver.waitFor('/allowed', 1)).map(({ body }) => body)).toEqual([
      { paymentId, transactionStatus: 'ACSP', _links: { status: { href: `${BASE}${SEPA}/${paymentId}/status` } } },
    ]);

    const fixture = await request(sandbox.http)
      .post('/v1/consents')
      .set({ ...tppHeaders({ 'TPP-Notification-URI': receiver.url('/fixture', 'localhost') }), ...headers, 'X-Request-ID': randomUUID() })
      .send(consentRequest({ balances: [{ iban: SUSANNE }] }))
      .expect(CREATED);
    expect(fixture.headers['aspsp-notification-support']).toBe('false');
    expect(fixture.headers['aspsp-notification-content']).toBeUndefined();
  });
});
