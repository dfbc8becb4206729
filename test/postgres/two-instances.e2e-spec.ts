import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import request from 'supertest';
import { IsNull, In } from 'typeorm';
import { ChangeFeed } from '../../src/database/change-feed';
import { TppCertificate } from '../../src/tpp-identity/tpp-certificate.entity';
import { internalsOf } from '../support/feed-internals';
import { CREATED, PROFILE } from '../support/profile';
import { type Issued, issuedCertificate, signedHeaders } from '../support/signing';
import { sepaPayment, VALID_CONSENT } from '../support/fixtures';
import {
  registerClient,
  removeDatabase,
  Sandbox,
  startSandbox,
  temporaryDatabase,
  tppError,
  tppHeaders,
  useTwoInstances,
} from '../support/sandbox';

const SEPA = '/v1/payments/sepa-credit-transfers';
const paymentHeaders = () => tppHeaders({ 'PSU-IP-Address': '192.0.2.10' });
const consentRequest = {
  access: { availableAccounts: 'allAccounts' },
  recurringIndicator: true,
  combinedServiceIndicator: false,
  validUntil: '2026-06-30',
  frequencyPerDay: 4,
};

/**
 * Two instances of the app on one PostgreSQL database, as replicas behind a load balancer run:
 * each has its own process state (clock, token memo, pools), and they must behave as one sandbox.
 */
describe('two instances on one PostgreSQL database', () => {
  const instances = useTwoInstances({ SCA_MODE: 'redirect' });

  it('a consent made on one reads on the other, with the same body', async () => {
    const { consentId } = (await request(instances.one.http).post('/v1/consents').set(tppHeaders()).send(consentRequest).expect(CREATED))
      .body;
    const there = await request(instances.other.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
    const here = await request(instances.one.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200);
    expect(there.body).toEqual(here.body);
    expect(there.body.consentStatus).toBe('received');
  });

  it('a clock set on one holds on the other at once, and so do its effects', async () => {
    const { paymentId } = (
      await request(instances.one.http)
        .post(SEPA)
        .set(paymentHeaders())
        .send(sepaPayment('10.00', { requestedExecutionDate: '2026-03-20' }))
        .expect(CREATED)
    ).body;
    await request(instances.one.http)
      .post(`/sandbox/sca/payments/${paymentId}`)
      .send({ psuId: 'georg.mustermann', decision: 'approve' })
      .expect(200);
    await request(instances.one.http).put('/sandbox/clock').send({ today: '2026-03-20' }).expect(200);
    expect((await request(instances.other.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-03-20' });
    expect((await request(instances.other.http).get(`${SEPA}/${paymentId}/status`).set(tppHeaders()).expect(200)).body).toEqualBody({
      transactionStatus: 'ACSP',
    });
    // The other way round, and back to where the other tests start.
    await request(instances.other.http).put('/sandbox/clock').send({ today: '2026-03-15' }).expect(200);
    expect((await request(instances.one.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-03-15' });
  });

  it("the bank's conditions set on one hold on the other at once", async () => {
    const accounts = (sandbox: Sandbox) =>
      request(sandbox.http)
        .get('/v1/accounts')
        .set(tppHeaders({ 'Consent-ID': VALID_CONSENT }));
    await request(instances.one.http).put('/sandbox/conditions').send({ maintenance: true, delayMs: 0 }).expect(200);
    expect((await accounts(instances.other).expect(503)).body).toEqual(
      tppError('SERVICE_UNAVAILABLE', '{sensitive} XS2A037E: the bank is in maintenance, try again later'),
    );
    expect((await request(instances.other.http).get('/sandbox/conditions').expect(200)).body).toEqual({ maintenance: true, delayMs: 0 });
    await request(instances.other.http).put('/sandbox/conditions').send({ maintenance: false, delayMs: 0 }).expect(200);
    await accounts(instances.one).expect(200);
  });

  it('asks the database nothing for a request answered from memory, and a move on either is read on the other at the next request', async () => {
    expect(await statementsOfAccountList()).toBe(0);
    // Twenty moves, each read on the other instance straight after it is answered.
    for (let day = 1; day <= 20; day++) {
      const today = `2026-04-${String(day).padStart(2, '0')}`;
      const [mover, reader] = day % 2 ? [instances.one, instances.other] : [instances.other, instances.one];
      await request(mover.http).put('/sandbox/clock').send({ today }).expect(200);
      expect((await request(reader.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today });
    }
    await request(instances.one.http).put('/sandbox/clock').send({ today: '2026-03-15' }).expect(200);
  });

  it('a role that may only connect NOTIFYs every shape the feed knows and others: no instance changes a value, fails or writes a row', async () => {
    const { probe, drop } = await connectAsProbe();
    const tables = ['sandbox_clock', 'bank_conditions', 'events', 'consents', 'payments'];
    const stored = async () => Promise.all(tables.map((table) => instances.one.dataSource.query(`SELECT * FROM "${table}" ORDER BY 1`)));
    const seen = async () =>
      Promise.all(
        [instances.one, instances.other].flatMap((sandbox) =>
          [request(sandbox.http).get('/sandbox/clock').expect(200), request(sandbox.http).get('/sandbox/conditions').expect(200)].map(
            async (answer) => (await answer).body,
          ),
        ),
      );
    try {
      await expect(probe.query('SELECT * FROM sandbox_clock')).rejects.toThrow('permission denied');
      const [rowsBefore, valuesBefore] = [await stored(), await seen()];
      const id = () => randomUUID();
      const payloads = [
        // The shapes the sandbox sends: each names a key, which every instance then reads from its table.
        { id: id(), topic: 'clock', key: '' },
        { id: id(), topic: 'conditions', key: '' },
        { id: id(), topic: 'clock', key: 'sandbox-tpp' },
        { id: id(), topic: 'tpp_certificates', key: '*' },
        { id: id(), topic: 'tpp_certificates', key: '1f' },
        { ack: id() },
        // Values, as the feed carried them before, and other shapes: ignored.
        { id: id(), topic: 'clock', value: '9999-12-31' },
        { id: id(), topic: 'conditions', key: '', value: { maintenance: true, delayMs: 30_000 } },
        { topic: 'clock', key: '' },
        { id: 'not-a-uuid', topic: 'clock', key: '' },
        { id: id(), topic: 'unknown', key: '' },
        { id: id(), topic: 'clock', key: 'x'.repeat(65) },
        { ack: 'everyone' },
        [],
        null,
        'not JSON',
      ];
      for (let round = 0; round < 5; round++) {
        for (const payload of payloads)
          await probe.query('SELECT pg_notify($1, $2)', [
            'psd2_sandbox_changes',
            typeof payload === 'string' ? payload : JSON.stringify(payload),
          ]);
      }
      // Every instance is still answering, in service, at the date it stood at.
      for (const sandbox of [instances.one, instances.other])
        await request(sandbox.http)
          .get('/v1/accounts')
          .set(tppHeaders({ 'Consent-ID': VALID_CONSENT }))
          .expect(200);
      expect(await seen()).toEqual(valuesBefore);
      expect(await stored()).toEqual(rowsBefore);
      // And a real change is still heard at once.
      await request(instances.one.http).put('/sandbox/conditions').send({ maintenance: false, delayMs: 1 }).expect(200);
      expect((await request(instances.other.http).get('/sandbox/conditions').expect(200)).body).toEqual({ maintenance: false, delayMs: 1 });
      await request(instances.other.http).put('/sandbox/conditions').send({ maintenance: false, delayMs: 0 }).expect(200);
    } finally {
      await drop();
    }
  });

  it("a flood of 20,000 hints, and a connection that takes the listener's name: each instance gives its connection up and listens again, and a change waits for the listening sessions only, not for the name (issue 73, finding 12)", async () => {
    // It takes the listeners' name: a change waits only for the sessions that listen and wrote themselves in.
    const { probe: impostor, drop } = await connectAsProbe('psd2-sandbox listener');
    const named = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'psd2-sandbox listener'";
    const listenerPids = async (): Promise<number[]> =>
      (await instances.one.dataSource.query(`${named} AND usename = current_user ORDER BY pid`)).map(({ pid }: { pid: number }) => pid);
    const registered = async () =>
      (await instances.one.dataSource.query('SELECT pid FROM change_listeners ORDER BY pid')).map(({ pid }: { pid: number }) => pid);
    try {
      const before = await listenerPids();
      expect(before).toHaveLength(2);
      expect(await instances.one.dataSource.query(named)).toHaveLength(3);
      expect(await registered()).toEqual(before);
      // Hints of the shape the sandbox sends, each naming another key, in one burst.
      await impostor.query(
        "SELECT pg_notify('psd2_sandbox_changes', json_build_object('id', gen_random_uuid(), 'topic', 'clock', 'key', 'k' || n)::text) FROM generate_series(1, 20000) n",
      );
      // More than an instance queues: each gives its connection up and listens again, as a new session.
      await eventually(async () => {
        const now = await listenerPids();
        return now.length === 2 && now.every((pid) => !before.includes(pid));
      });
      await eventually(async () => (await statementsOfAccountList()) === 0);
      expect(await registered()).toEqual(await listenerPids());
      // Both still answer, and hear a real change at once.
      await request(instances.one.http).put('/sandbox/clock').send({ today: '2026-03-17' }).expect(200);
      expect((await request(instances.other.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-03-17' });
      await request(instances.other.http).put('/sandbox/clock').send({ today: '2026-03-15' }).expect(200);
      expect((await request(instances.one.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-03-15' });
      // One listening connection each, still: none given up came back beside the new one.
      await sleep(1_500);
      expect(await listenerPids()).toHaveLength(2);
    } finally {
      await drop();
    }
  });

  it('an instance that lost its listening connection reads on each request until it listens again', async () => {
    const listeners = "FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'psd2-sandbox listener'";
    expect(await instances.one.dataSource.query(`SELECT pg_terminate_backend(pid) ${listeners}`)).toHaveLength(2);
    // Each instance notices (until then it trusts its memory: the moves below wait for that), and
    // reads the clock and the conditions on every request meanwhile.
    const feeds = [instances.one, instances.other].map((sandbox) => sandbox.app.get(ChangeFeed));
    await eventually(async () => feeds.every(({ hearing }) => !hearing));
    expect(await statementsOfAccountList()).toBeGreaterThanOrEqual(4);
    await request(instances.one.http).put('/sandbox/clock').send({ today: '2026-03-16' }).expect(200);
    expect((await request(instances.other.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-03-16' });
    await request(instances.other.http).put('/sandbox/clock').send({ today: '2026-03-15' }).expect(200);
    expect((await request(instances.one.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-03-15' });
    // Both listen again within seconds, and read nothing a request any more.
    await eventually(async () => (await statementsOfAccountList()) === 0);
    expect(await instances.one.dataSource.query(`SELECT pid ${listeners}`)).toHaveLength(2);
  });

  it('an instance that lost its listening connection still tells the other of its changes, which holds them at once', async () => {
    try {
      await whileNotListening(instances.one, async () => {
        expect([internalsOf(instances.one.app.get(ChangeFeed)).hearing, instances.other.app.get(ChangeFeed).hearing]).toEqual([
          false,
          true,
        ]);
        await request(instances.one.http).put('/sandbox/clock').send({ today: '2026-03-17' }).expect(200);
        expect((await request(instances.other.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-03-17' });
        // The other's listening connection held still: no move is answered before the other has read it and said so,
        // and the moves waiting meanwhile hear the answers on one connection, not one each.
        await answeredOnlyOnceHeard(
          instances.other,
          [
            request(instances.one.http).put('/sandbox/conditions').send({ maintenance: true, delayMs: 0 }),
            ...['2026-03-18', '2026-03-19', '2026-03-20', '2026-03-21'].map((today) =>
              request(instances.one.http).put('/sandbox/clock').send({ today }),
            ),
          ],
          async () => {
            await eventually(async () => (await acknowledgementConnections()) > 0);
            await sleep(500);
            expect(await acknowledgementConnections()).toBe(1);
          },
        );
        expect((await request(instances.other.http).get('/sandbox/conditions').expect(200)).body).toEqual({
          maintenance: true,
          delayMs: 0,
        });
        await eventually(async () => (await acknowledgementConnections()) === 0);
      });
    } finally {
      await request(instances.one.http).put('/sandbox/conditions').send({ maintenance: false, delayMs: 0 }).expect(200);
      await request(instances.one.http).put('/sandbox/clock').send({ today: '2026-03-15' }).expect(200);
    }
  });

  it('the connection the moves hear their acknowledgements on, lost while a move waits on it: the next move opens another, and is answered once the other instance has read it', async () => {
    const socket = listeningSocketOf(instances.other);
    try {
      await whileNotListening(instances.one, async () => {
        socket.pause();
        const move = (today: string) => {
          const sent = { answered: false, done: Promise.resolve() };
          sent.done = request(instances.one.http)
            .put('/sandbox/clock')
            .send({ today })
            .expect(200)
            .then(() => void (sent.answered = true));
          return sent;
        };
        // The first waits on the connection, which is then cut: it waits out its timeout.
        const first = move('2026-03-18');
        await eventually(async () => (await acknowledgementConnections()) === 1);
        const ears = (await internalsOf(instances.one.app.get(ChangeFeed)).ears!.client)!;
        // Heard by the feed's own listeners first (registered before this one): the next move comes after.
        const ended = new Promise((resolve) => ears.once('end', resolve));
        await instances.one.dataSource.query(`SELECT pg_terminate_backend(pid) ${ACKNOWLEDGEMENTS}`);
        await ended;
        await eventually(async () => (await acknowledgementConnections()) === 0);
        const second = move('2026-03-19');
        await eventually(async () => (await acknowledgementConnections()) === 1);
        expect(second.answered).toBe(false);
        socket.resume();
        await Promise.all([first.done, second.done]);
        expect((await request(instances.other.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-03-19' });
      });
    } finally {
      socket.resume();
      await request(instances.one.http).put('/sandbox/clock').send({ today: '2026-03-15' }).expect(200);
    }
  });

  it("an acknowledgement sent by another session than an instance's listening one answers no move: a role that may only connect hears a change's id and acknowledges it at once", async () => {
    const { probe, drop } = await connectAsProbe();
    const acknowledged: string[] = [];
    // One statement after the other, as pg wants them on one connection.
    let sending = Promise.resolve();
    probe.on('notification', ({ payload }) => {
      const { id } = JSON.parse(payload ?? '{}') as { id?: string };
      if (!id) return;
      acknowledged.push(id);
      for (let copy = 0; copy < 3; copy++)
        sending = sending
          .then(() => probe.query('SELECT pg_notify($1, $2)', ['psd2_sandbox_changes', JSON.stringify({ ack: id })]))
          .then(
            () => undefined,
            () => undefined,
          );
    });
    await probe.query('LISTEN psd2_sandbox_changes');
    try {
      // Until the probe has heard the move and its answers have had time to arrive.
      await answeredOnlyOnceHeard(
        instances.other,
        [request(instances.one.http).put('/sandbox/conditions').send({ maintenance: true, delayMs: 0 })],
        async () => {
          await eventually(async () => acknowledged.length > 0);
          await sleep(500);
        },
      );
      expect(acknowledged).toHaveLength(1);
      expect((await request(instances.other.http).get('/sandbox/conditions').expect(200)).body).toEqual({ maintenance: true, delayMs: 0 });
    } finally {
      await request(instances.one.http).put('/sandbox/conditions').send({ maintenance: false, delayMs: 0 }).expect(200);
      await drop();
    }
  });

  const ACKNOWLEDGEMENTS =
    "FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'psd2-sandbox acknowledgements'";

  /** The connections open to hear acknowledgements (an instance's while its listening one is down). */
  async function acknowledgementConnections(): Promise<number> {
    return Number((await instances.one.dataSource.query(`SELECT count(*) AS n ${ACKNOWLEDGEMENTS}`))[0].n);
  }

  /** `body` runs while `sandbox`'s listening connection is lost and its reconnection held back; then it listens again. */
  async function whileNotListening(sandbox: Sandbox, body: () => Promise<void>): Promise<void> {
    const feed = internalsOf(sandbox.app.get(ChangeFeed));
    feed.lost(feed.client!);
    clearTimeout(feed.retry!);
    feed.retry = null;
    try {
      await body();
    } finally {
      await feed.open();
    }
    expect(feed.hearing).toBe(true);
  }

  /** The socket of `sandbox`'s listening connection (pg's own), to hold it still. */
  const listeningSocketOf = (sandbox: Sandbox) =>
    (internalsOf(sandbox.app.get(ChangeFeed)).client as unknown as { connection: { stream: Socket } }).connection.stream;

  /** Sends `moves` while `hearer`'s listening connection is held still: none is answered before it has read them and said so (`meanwhile` passing). */
  async function answeredOnlyOnceHeard(hearer: Sandbox, moves: request.Test[], meanwhile: () => Promise<void>): Promise<void> {
    const socket = listeningSocketOf(hearer);
    socket.pause();
    let answered = 0;
    const sent = moves.map((move) => move.expect(200).then(() => (answered += 1)));
    try {
      await meanwhile();
      expect(answered).toBe(0);
    } finally {
      socket.resume();
      await Promise.all(sent);
    }
  }

  /**
   * A connection as a role of its own, which may only connect: PostgreSQL grants CONNECT on a
   * database to every role, so it can read no table and may still speak on the channel.
   */
  async function connectAsProbe(applicationName?: string): Promise<{ probe: Client; drop: () => Promise<void> }> {
    const role = `probe_${randomBytes(6).toString('hex')}`;
    await instances.one.dataSource.query(`CREATE ROLE ${role} LOGIN`);
    const url = new URL(instances.database);
    url.username = role;
    url.password = '';
    const probe = new Client({ connectionString: url.toString(), application_name: applicationName });
    await probe.connect();
    const drop = async () => {
      await probe.end();
      await instances.one.dataSource.query(`DROP ROLE ${role}`);
    };
    return { probe, drop };
  }

  /** The statements both instances send for an account list on each: every one goes through a `pg` client's query. */
  async function statementsOfAccountList(): Promise<number> {
    const sent = jest.spyOn(Client.prototype, 'query');
    try {
      for (const sandbox of [instances.one, instances.other])
        await request(sandbox.http)
          .get('/v1/accounts?withBalance=true')
          .set(tppHeaders({ 'Consent-ID': VALID_CONSENT }))
          .expect(200);
      return sent.mock.calls.length;
    } finally {
      sent.mockRestore();
    }
  }

  it('of 20 cancellations of one payment spread over both, exactly one wins', async () => {
    const { paymentId } = (await request(instances.one.http).post(SEPA).set(paymentHeaders()).send(sepaPayment('10.00')).expect(CREATED))
      .body;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request((i % 2 ? instances.other : instances.one).http)
          .delete(`${SEPA}/${paymentId}`)
          .set(tppHeaders()),
      ),
    );
    const statuses = answers.map(({ status }) => status).sort();
    // The winner cancels (204); the others find the payment CANC, which cannot be cancelled (405).
    expect(statuses).toEqual([204, ...Array(19).fill(405)]);
    for (const sandbox of [instances.one, instances.other]) {
      expect((await request(sandbox.http).get(`${SEPA}/${paymentId}/status`).set(tppHeaders()).expect(200)).body).toEqualBody({
        transactionStatus: 'CANC',
      });
    }
  });

  it("AUTH_MODE=strict: a token issued by one is honoured by the other, so is a client registered on one; A's clock moved on one is A's on the other at once, and B's stays on both", async () => {
    const strictDatabase = temporaryDatabase();
    const first = await startSandbox({ AUTH_MODE: 'strict' }, strictDatabase);
    const second = await startSandbox({ AUTH_MODE: 'strict' }, strictDatabase);
    try {
      const tokenOf = async (clientId: string, secret: string) =>
        (
          await request(first.http)
            .post('/oauth2/token')
            .auth(clientId, secret)
            .type('form')
            .send('grant_type=client_credentials')
            .expect(200)
        ).body.access_token as string;
      const [a, b] = [await tokenOf('sandbox-tpp', 'sandbox-secret'), await tokenOf('sandbox-tpp-2', 'sandbox-secret-2')];
      const { consentId } = (
        await request(first.http)
          .post('/v1/consents')
          .set(tppHeaders({ Authorization: `Bearer ${a}` }))
          .send(consentRequest)
          .expect(CREATED)
      ).body;
      await request(second.http)
        .get(`/v1/consents/${consentId}/status`)
        .set(tppHeaders({ Authorization: `Bearer ${a}` }))
        .expect(200);
      // A client registered on one gets a token on the other and acts there.
      const { token: theirs } = await registerClient(first.http, 'Registered', second.http);
      await request(first.http)
        .post('/v1/consents')
        .set(tppHeaders({ Authorization: `Bearer ${theirs}` }))
        .send(consentRequest)
        .expect(CREATED);
      const clockOf = async (sandbox: Sandbox, token: string) =>
        (
          await request(sandbox.http)
            .get('/sandbox/clock')
            .set({ Authorization: `Bearer ${token}` })
            .expect(200)
        ).body;
      for (let day = 16; day <= 25; day++) {
        const [mover, reader] = day % 2 ? [first, second] : [second, first];
        await request(mover.http)
          .put('/sandbox/clock')
          .set({ Authorization: `Bearer ${a}` })
          .send({ today: `2026-03-${day}` })
          .expect(200);
        expect(await clockOf(reader, a)).toEqual({ today: `2026-03-${day}` });
        expect([await clockOf(first, b), await clockOf(second, b)]).toEqual([{ today: '2026-03-15' }, { today: '2026-03-15' }]);
      }
    } finally {
      await first.close();
      await second.close();
      await removeDatabase(strictDatabase);
    }
  });

  it('a world reset or restore on one is in force on the other at once, and so is its deletion: its token, honoured there a moment ago, is refused', async () => {
    const strictDatabase = temporaryDatabase();
    const first = await startSandbox({ AUTH_MODE: 'strict' }, strictDatabase);
    const second = await startSandbox({ AUTH_MODE: 'strict' }, strictDatabase);
    try {
      const registered = await registerClient(first.http, 'Short-lived');
      const token = registered.token;
      const as = { Authorization: `Bearer ${token}` };
      await request(first.http).put('/sandbox/clock').set(as).send({ today: '2026-04-01' }).expect(200);
      expect((await request(second.http).get('/sandbox/clock').set(as).expect(200)).body).toEqual({ today: '2026-04-01' });
      await request(first.http).put('/sandbox/conditions').set(as).send({ maintenance: false, delayMs: 3 }).expect(200);
      const { snapshotId } = (await request(first.http).post('/sandbox/world/snapshots').set(as).send({ name: 'April' }).expect(201)).body;
      await request(first.http).post('/sandbox/world/reset').set(as).expect(200);
      expect((await request(second.http).get('/sandbox/clock').set(as).expect(200)).body).toEqual({ today: '2026-03-15' });
      expect((await request(second.http).get('/sandbox/conditions').set(as).expect(200)).body).toEqual({ maintenance: false, delayMs: 0 });
      // A restore on the other is in force here at once: the clock and conditions it brings back.
      await request(second.http).post(`/sandbox/world/snapshots/${snapshotId}/restore`).set(as).expect(200);
      expect((await request(first.http).get('/sandbox/clock').set(as).expect(200)).body).toEqual({ today: '2026-04-01' });
      expect((await request(first.http).get('/sandbox/conditions').set(as).expect(200)).body).toEqual({ maintenance: false, delayMs: 3 });
      await request(first.http)
        .delete(`/register/${registered.clientId}`)
        .set('Authorization', `Bearer ${registered.registrationToken}`)
        .expect(204);
      expect((await request(second.http).get('/sandbox/clock').set(as).expect(401)).body.tppMessages[0].code).toBe('TOKEN_INVALID');
    } finally {
      await first.close();
      await second.close();
      await removeDatabase(strictDatabase);
    }
  });

  it('tpp.signatures: required, AUTH_MODE=strict: a certificate both have checked is refused on the other at once when it is revoked on one, and when its client is deleted on one (the instances told of that client’s certificates alone); one signature sent to both at once is taken once', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'psd2-two-sealed-'));
    writeFileSync(join(folder, 'profile.yaml'), `extends: ${PROFILE}\ntpp:\n  signatures: required\n`);
    const strictDatabase = temporaryDatabase();
    const first = await startSandbox({ AUTH_MODE: 'strict', PROFILE: folder }, strictDatabase);
    const second = await startSandbox({ AUTH_MODE: 'strict', PROFILE: folder }, strictDatabase);
    try {
      const [a, b] = [await registerClient(first.http, 'Sealed A'), await registerClient(first.http, 'Sealed B')];
      const seal = (token: string) =>
        issuedCertificate(first.http, folder, { type: 'QSEAL', organisationName: 'Sealed TPP', roles: ['PSP_AI'] }, token);
      const [sealA, sealB] = [await seal(a.token), await seal(b.token)];
      const text = JSON.stringify(consentRequest);
      const signed = (signer: Issued, token: string) => signedHeaders(signer, text, tppHeaders({ Authorization: `Bearer ${token}` }));
      const consent = (sandbox: Sandbox, headers: Record<string, string>) =>
        request(sandbox.http).post('/v1/consents').set(headers).set('Content-Type', 'application/json').send(text);
      const refused = (code: string, id: string, description: string) => tppError(code, `{sensitive} ${id}: ${description}`);
      // Each instance checks both certificates, and keeps what it concluded.
      for (const sandbox of [first, second]) {
        await consent(sandbox, signed(sealA, a.token)).expect(CREATED);
        await consent(sandbox, signed(sealB, b.token)).expect(CREATED);
        expect((await consent(sandbox, signed(sealB, a.token)).expect(401)).body).toEqualBody(
          refused('CERTIFICATE_INVALID', 'XS2A047E', `the certificate ${sealB.serialNumber} was issued to another client than the token's`),
        );
      }
      // One signature on both at once: one of them takes it.
      const once = signed(sealA, a.token);
      const answers = await Promise.all([first, second].map((sandbox) => consent(sandbox, once)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([CREATED, 401].sort());
      // A GET writes nothing of its own: it spends its signature alone before its answer, and one of the two takes it too.
      const consentId = (answers.find((answer) => answer.status === CREATED)!.body as { consentId: string }).consentId;
      const read = signedHeaders(sealA, '', tppHeaders({ Authorization: `Bearer ${a.token}` }));
      const reads = await Promise.all(
        [first, second].map((sandbox) => request(sandbox.http).get(`/v1/consents/${consentId}/status`).set(read)),
      );
      expect(reads.map((answer) => answer.status).sort()).toEqual([200, 401]);
      expect(reads.find((answer) => answer.status === 200)!.body).toEqualBody({ consentStatus: 'valid' });
      expect(reads.find((answer) => answer.status === 401)!.body).toEqualBody(
        tppError(
          'SIGNATURE_INVALID',
          `{sensitive} XS2A044E: X-Request-ID ${read['X-Request-ID']} was signed for an earlier request with this certificate: a signature is good for one request`,
          'Signature',
        ),
      );
      // Two signatures sent to both instances at once, in crossed order: each spent once, and the two
      // instances' groups of spends never wait for each other (GroupedInserts sends keys in order).
      const pair = [1, 2].map(() => signedHeaders(sealA, '', tppHeaders({ Authorization: `Bearer ${a.token}` })));
      const crossed = await Promise.all(
        (
          [
            [first, 0],
            [first, 1],
            [second, 1],
            [second, 0],
          ] as const
        ).map(([sandbox, signature]) => request(sandbox.http).get(`/v1/consents/${consentId}/status`).set(pair[signature])),
      );
      for (const answers of [
        [crossed[0], crossed[3]],
        [crossed[1], crossed[2]],
      ])
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
      // Revoked on one: refused on the other at the next request.
      await request(first.http)
        .post(`/sandbox/certificates/${sealA.serialNumber}/revocation`)
        .set('Authorization', `Bearer ${a.token}`)
        .expect(200);
      expect((await consent(second, signed(sealA, a.token)).expect(401)).body).toEqualBody(
        refused('CERTIFICATE_REVOKE', 'XS2A049E', `the certificate ${sealA.serialNumber.toUpperCase()} is revoked`),
      );
      // B deleted on one: its certificate, which the other refused for being another client's, is revoked there at once;
      // the instances are told to forget B's certificate alone, and keep what they remember of A's.
      const certificatesTold = async (work: () => Promise<unknown>): Promise<(string | undefined)[]> => {
        const listener = new Client({ connectionString: strictDatabase });
        await listener.connect();
        const told: { topic?: string; key?: string }[] = [];
        listener.on('notification', ({ payload }) => told.push(JSON.parse(payload!) as { topic?: string; key?: string }));
        await listener.query('LISTEN psd2_sandbox_changes');
        await work();
        await listener.query('SELECT 1'); // what was told before the answer has reached this session too
        await listener.end();
        return told.filter(({ topic }) => topic === 'tpp_certificates').map(({ key }) => key);
      };
      const deleted = (client: { clientId: string; registrationToken: string }) =>
        request(first.http).delete(`/register/${client.clientId}`).set('Authorization', `Bearer ${client.registrationToken}`).expect(204);
      expect(await certificatesTold(() => deleted(b))).toEqual([sealB.serialNumber]);
      // A client of more than 100 certificates (rows written here, as their issue would): one word makes every instance forget them all.
      const many = await registerClient(first.http, 'Sealed D');
      const serials = Array.from({ length: 101 }, () => randomBytes(16).toString('hex').replace(/^0+/, ''));
      await first.dataSource.getRepository(TppCertificate).insert(
        serials.map((serialNumber) => ({
          serialNumber,
          type: 'QSEAL' as const,
          organisationName: 'Sealed D',
          organisationIdentifier: 'PSDXX-SBX-D',
          roles: ['PSP_AI' as const],
          notBefore: '2026-01-01',
          notAfter: '2027-01-01',
          revoked: false,
          ownerId: many.clientId,
        })),
      );
      expect(await certificatesTold(() => deleted(many))).toEqual(['*']);
      expect(
        await first.dataSource.getRepository(TppCertificate).countBy({ serialNumber: In(serials), revoked: true, ownerId: IsNull() }),
      ).toBe(101);
      const sealC = await seal(a.token);
      await consent(second, signed(sealC, a.token)).expect(CREATED);
      expect((await consent(second, signed(sealB, a.token)).expect(401)).body).toEqualBody(
        refused('CERTIFICATE_REVOKE', 'XS2A049E', `the certificate ${sealB.serialNumber.toUpperCase()} is revoked`),
      );
    } finally {
      await first.close();
      await second.close();
      await removeDatabase(strictDatabase);
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('failed sign-ins count on both: 3 wrong secrets on one and 2 on the other lock the client out of both', async () => {
    const guess = (sandbox: Sandbox, secret: string) =>
      request(sandbox.http).post('/oauth2/token').auth('sandbox-tpp-2', secret).type('form').send('grant_type=client_credentials');
    for (const [sandbox, attempt] of [
      [instances.one, 1],
      [instances.other, 2],
      [instances.one, 3],
      [instances.other, 4],
      [instances.one, 5],
    ] as const)
      await guess(sandbox, `guess-${attempt}`).expect(401);
    for (const sandbox of [instances.one, instances.other])
      expect((await guess(sandbox, 'sandbox-secret-2').expect(429)).headers['retry-after']).toMatch(/^\d+$/);
  });

  it('a dashboard session signed out on one is worthless on the other at once', async () => {
    const cookiesOf = (answer: request.Response) =>
      ([] as string[]).concat(answer.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0]);
    const tokenOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];
    const page = await request(instances.one.http).get('/dashboard').expect(200);
    const csrf = cookiesOf(page);
    const signedIn = await request(instances.one.http)
      .post('/dashboard')
      .set('Cookie', csrf)
      .type('form')
      .send({ _csrf: tokenOf(page.text), psuId: 'georg.mustermann', password: 'sandbox' })
      .expect(303);
    const session = cookiesOf(signedIn).find((cookie) => cookie.startsWith('psd2-sandbox-dashboard='))!;
    const list = await request(instances.other.http)
      .get('/dashboard')
      .set('Cookie', [...csrf, session])
      .expect(200);
    expect(list.text).toContain('Signed in as georg.mustermann');
    await request(instances.other.http)
      .post('/dashboard')
      .set('Cookie', [...csrf, session])
      .type('form')
      .send({ _csrf: tokenOf(list.text), decision: 'sign-out' })
      .expect(303);
    expect((await request(instances.one.http).get('/dashboard').set('Cookie', session).expect(200)).text).not.toContain('Signed in as');
  });

  it('a restart of both keeps everything', async () => {
    const { consentId } = (await request(instances.one.http).post('/v1/consents').set(tppHeaders()).send(consentRequest).expect(CREATED))
      .body;
    const { paymentId } = (await request(instances.other.http).post(SEPA).set(paymentHeaders()).send(sepaPayment('12.00')).expect(CREATED))
      .body;
    await request(instances.one.http).put('/sandbox/clock').send({ today: '2026-03-18' }).expect(200);
    const before = {
      consent: (await request(instances.one.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200)).body,
      payment: (await request(instances.other.http).get(`${SEPA}/${paymentId}`).set(tppHeaders()).expect(200)).body,
    };
    await instances.restart();
    for (const sandbox of [instances.other, instances.one]) {
      expect((await request(sandbox.http).get(`/v1/consents/${consentId}`).set(tppHeaders()).expect(200)).body).toEqual(before.consent);
      expect((await request(sandbox.http).get(`${SEPA}/${paymentId}`).set(tppHeaders()).expect(200)).body).toEqual(before.payment);
      expect((await request(sandbox.http).get('/sandbox/clock').expect(200)).body).toEqualBody({ today: '2026-03-18' });
    }
  });
});

/** Asks `holds` every 100 ms until it does, for at most 10 s. */
async function eventually(holds: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 10_000; !(await holds()); await sleep(100)) {
    if (Date.now() > deadline) throw new Error('did not hold within 10 s');
  }
}
