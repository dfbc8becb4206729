import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { CREATED } from './support/profile';
import { sepaPayment } from './support/fixtures';
import { issueToken, tppError, tppHeaders, useSandbox } from './support/sandbox';

const SEPA = '/v1/payments/sepa-credit-transfers';
const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);
const AT = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/** One event as GET /sandbox/events answers it, whole; `fields` are what the test knows. */
const event = (fields: Record<string, unknown>) => ({
  id: UUID,
  parentId: null,
  psuId: null,
  channel: null,
  sandboxDate: '2026-03-15',
  at: AT,
  ...fields,
});

describe('the event history (SCA_MODE=redirect)', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });
  const events = async (query = '') => (await request(sandbox.http).get(`/sandbox/events${query}`).expect(200)).body;

  it('records a payment from its creation to its execution: each status change, its authorisation, the PSU and channel of the decision, each cause', async () => {
    const initiation = randomUUID();
    const { paymentId } = (
      await request(sandbox.http)
        .post(SEPA)
        .set({ ...tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }), 'X-Request-ID': initiation })
        .send(sepaPayment('5.00'))
        .expect(CREATED)
    ).body;
    const [authorisationId] = (await request(sandbox.http).get(`${SEPA}/${paymentId}/authorisations`).set(tppHeaders()).expect(200)).body
      .authorisationIds;
    const decision = await request(sandbox.http)
      .post(`/sandbox/sca/payments/${paymentId}`)
      .send({ psuId: 'georg.mustermann', decision: 'approve' })
      .expect(200);
    const decidedBy = decision.headers['x-request-id'];

    const history = await events(`?resourceId=${paymentId}`);
    expect(history).toEqual({
      events: [
        event({
          kind: 'authorisation',
          resourceId: authorisationId,
          parentId: paymentId,
          from: 'received',
          to: 'finalised',
          event: 'FINALISE',
          cause: decidedBy,
          psuId: 'georg.mustermann',
          channel: 'control',
        }),
        event({
          kind: 'payment',
          resourceId: paymentId,
          from: 'RCVD',
          to: 'ACSP',
          event: 'SCA_COMPLETED',
          cause: decidedBy,
          psuId: 'georg.mustermann',
          channel: 'control',
        }),
        event({
          kind: 'authorisation',
          resourceId: authorisationId,
          parentId: paymentId,
          from: null,
          to: 'received',
          event: 'CREATED',
          cause: initiation,
        }),
        event({ kind: 'payment', resourceId: paymentId, from: null, to: 'RCVD', event: 'CREATED', cause: initiation }),
      ],
      page: 1,
      pageSize: 50,
      total: 4,
    });
  });

  it('records what the clock does as the clock, the move itself as the request that made it; bookings and instalments of a scenario', async () => {
    const scenario = (
      await request(sandbox.http)
        .post('/sandbox/scenarios')
        .send({
          accounts: [
            { name: 'Payer', balances: { interimAvailable: '100.00', forwardAvailable: '100.00' } },
            { name: 'Payee', balances: { interimAvailable: '0.00', forwardAvailable: '0.00' } },
          ],
        })
        .expect(201)
    ).body;
    const [payer, payee] = scenario.accounts.map(({ iban }: { iban: string }) => iban);
    const body = {
      ...sepaPayment('10.00', { debtorAccount: { iban: payer }, creditorAccount: { iban: payee } }),
      startDate: '2026-03-16',
      frequency: 'Daily',
      endDate: '2026-03-17',
    };
    const { paymentId } = (
      await request(sandbox.http)
        .post('/v1/periodic-payments/sepa-credit-transfers')
        .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
        .send(body)
        .expect(CREATED)
    ).body;
    await request(sandbox.http).post(`/sandbox/sca/payments/${paymentId}`).send({ psuId: scenario.psuId, decision: 'approve' }).expect(200);
    const move = await request(sandbox.http).post('/sandbox/clock/advance').send({ days: 2 }).expect(200);

    const clock = await events('?kind=clock');
    expect(clock.events[0]).toEqual(
      event({
        kind: 'clock',
        resourceId: 'clock',
        from: '2026-03-15',
        to: '2026-03-17',
        event: 'MOVED',
        cause: move.headers['x-request-id'],
        sandboxDate: '2026-03-17',
      }),
    );
    const instalments = await events(`?resourceId=${paymentId}&kind=instalment`);
    expect(instalments.events).toEqual([
      event({
        kind: 'instalment',
        resourceId: `${paymentId}/2`,
        parentId: paymentId,
        from: null,
        to: 'executed',
        event: 'INSTALMENT',
        cause: 'clock',
        sandboxDate: '2026-03-17',
      }),
      event({
        kind: 'instalment',
        resourceId: `${paymentId}/1`,
        parentId: paymentId,
        from: null,
        to: 'executed',
        event: 'INSTALMENT',
        cause: 'clock',
        sandboxDate: '2026-03-16',
      }),
    ]);
    const bookings = (await events(`?resourceId=${paymentId}&kind=booking`)).events.map(
      ({ from, to, cause, sandboxDate }: Record<string, string>) => ({ from, to, cause, sandboxDate }),
    );
    // The standing order (information) when the order became active, then a debit and a credit per instalment, newest first.
    expect(bookings).toEqual([
      { from: payee, to: 'booked', cause: 'clock', sandboxDate: '2026-03-17' },
      { from: payer, to: 'booked', cause: 'clock', sandboxDate: '2026-03-17' },
      { from: payee, to: 'booked', cause: 'clock', sandboxDate: '2026-03-16' },
      { from: payer, to: 'booked', cause: 'clock', sandboxDate: '2026-03-16' },
      { from: payer, to: 'information', cause: expect.any(String), sandboxDate: '2026-03-15' },
    ]);
    await request(sandbox.http).put('/sandbox/clock').send({ today: '2026-03-15' }).expect(200);
  });

  it('filters by kind and time, pages newest first, and refuses a malformed filter', async () => {
    const before = new Date().toISOString();
    const created = [];
    for (let index = 0; index < 3; index++) {
      created.push(
        (
          await request(sandbox.http)
            .post(SEPA)
            .set(tppHeaders({ 'PSU-IP-Address': '192.0.2.10' }))
            .send(sepaPayment('1.00'))
            .expect(CREATED)
        ).body.paymentId,
      );
    }
    const recent = await events(`?kind=payment&from=${before}`);
    expect(recent.events.map(({ resourceId }: { resourceId: string }) => resourceId)).toEqual(created.reverse());
    expect(recent.total).toBe(3);
    const second = await events(`?kind=payment&from=${before}&page=2&pageSize=2`);
    expect(second).toEqual({
      events: [event({ kind: 'payment', resourceId: created[2], from: null, to: 'RCVD', event: 'CREATED', cause: expect.any(String) })],
      page: 2,
      pageSize: 2,
      total: 3,
    });
    expect((await events(`?kind=payment&to=${before}&from=${before}`)).events).toEqual([]);
    for (const query of ['kind=letter', 'pageSize=501', 'page=0', 'from=yesterday']) {
      const refused = await request(sandbox.http).get(`/sandbox/events?${query}`).expect(400);
      expect(refused.body.tppMessages[0].code).toBe('FORMAT_ERROR');
    }
    // A page whose offset no engine takes is refused before any query (it was a 500 on both).
    expect((await events('?page=1000000')).events).toEqual([]);
    for (const page of ['1000001', '1000000000000000000']) {
      const refused = await request(sandbox.http).get(`/sandbox/events?page=${page}`).expect(400);
      expect(refused.body).toEqualBody(tppError('FORMAT_ERROR', '{sensitive} XS2A001E: page must not be greater than 1000000', 'page'));
    }
  });
});

describe("the event history in AUTH_MODE=strict: a client sees its own world's events, its resources' and its clock's", () => {
  const sandbox = useSandbox({ AUTH_MODE: 'strict', SCA_MODE: 'redirect' });

  it("keeps each client to its own resources' events", async () => {
    const [first, second] = [await issueToken(sandbox.http), await issueToken(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2')];
    const pay = async (token: string) =>
      (
        await request(sandbox.http)
          .post(SEPA)
          .set(tppHeaders({ Authorization: `Bearer ${token}`, 'PSU-IP-Address': '192.0.2.10' }))
          .send(sepaPayment('1.00'))
          .expect(CREATED)
      ).body.paymentId;
    const mine = await pay(first);
    const theirs = await pay(second);
    await request(sandbox.http).post('/sandbox/clock/advance').set('Authorization', `Bearer ${first}`).send({ days: 1 }).expect(200);
    const seen = async (token: string) =>
      (await request(sandbox.http).get('/sandbox/events').set('Authorization', `Bearer ${token}`).expect(200)).body.events.map(
        ({ kind, resourceId, parentId }: Record<string, string>) => parentId ?? (kind === 'clock' ? 'clock' : resourceId),
      );
    expect(await seen(first)).toEqual(['clock', mine, mine]);
    // The first client's clock is not the second's (docs/security.md, "Worlds").
    expect(await seen(second)).toEqual([theirs, theirs]);
    expect(
      (await request(sandbox.http).get(`/sandbox/events?resourceId=${theirs}`).set('Authorization', `Bearer ${first}`).expect(200)).body
        .total,
    ).toBe(0);
  });
});
