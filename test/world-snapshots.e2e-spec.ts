import request from 'supertest';
import type { App } from 'supertest/types';
import type { DataSource } from 'typeorm';
import { balancesConsent, sepaPayment, VALID_CONSENT } from './support/fixtures';
import { addDays } from '../src/common/dates';
import { CREATED } from './support/profile';
import { registerClient, TODAY, tppError, tppHeaders, useSandbox, worldClient, WorldClient } from './support/sandbox';

/**
 * A world's recovery points (docs/scenarios-and-clock.md, "Snapshots"): a restore brings the world
 * back exactly, row for row, clock and conditions too, and touches no other world; another
 * world's snapshot is unknown; bad input changes nothing. On SQLite and PostgreSQL.
 */

const SEPA = '/v1/payments/sepa-credit-transfers';
const AS_NEW = '00000000-0000-4000-8000-000000000001';
const consentBody = balancesConsent();

async function register(http: App, name: string): Promise<WorldClient> {
  const { clientId, clientSecret } = await registerClient(http, name);
  return worldClient(http, clientId, clientSecret, { 'PSU-IP-Address': '192.0.2.10' });
}

/** Every row of the world's state, table by table and in a fixed order, as a snapshot of it holds them: what a restore must bring back exactly. */
async function stateOf(dataSource: DataSource, client: WorldClient): Promise<Record<string, string[]>> {
  const { snapshotId } = (await client.send('post', '/sandbox/world/snapshots', { name: 'probe' }).expect(201)).body;
  const [{ rows }] = await dataSource.getRepository('world_snapshots').findBy({ snapshotId });
  await client.send('delete', `/sandbox/world/snapshots/${snapshotId}`).expect(204);
  const tables = JSON.parse(rows as string) as Record<string, unknown[]>;
  return Object.fromEntries(Object.entries(tables).map(([table, found]) => [table, found.map((row) => JSON.stringify(row)).sort()]));
}

describe("a world's snapshots in AUTH_MODE=strict", () => {
  const sandbox = useSandbox({ AUTH_MODE: 'strict', SCA_MODE: 'redirect' });
  let a: WorldClient;
  let b: WorldClient;

  beforeAll(async () => {
    [a, b] = [await register(sandbox.http, 'A'), await register(sandbox.http, 'B')];
    for (const client of [a, b]) {
      await client.send('post', '/v1/consents', consentBody).expect(CREATED);
      await client.send('post', SEPA, sepaPayment('10.00')).expect(CREATED);
    }
  });

  it('brings the world back exactly: what was made after is unknown, what was changed or deleted after is as it was, clock and conditions too', async () => {
    const scenario = (
      await a
        .send('post', '/sandbox/scenarios', {
          accounts: [{ name: 'Snap Holder', balances: { interimAvailable: '50.00', forwardAvailable: '50.00' } }],
        })
        .expect(201)
    ).body;
    const consentId = (await a.send('post', '/v1/consents', consentBody).expect(CREATED)).body.consentId as string;
    await a.send('put', '/sandbox/conditions', { maintenance: false, delayMs: 5 }).expect(200);
    await a.send('post', '/sandbox/clock/advance', { days: 10 }).expect(200);
    const before = await stateOf(sandbox.dataSource, a);
    const theirs = await stateOf(sandbox.dataSource, b);

    const taken = await a.send('post', '/sandbox/world/snapshots', { name: 'before the payment tests' }).expect(201);
    expect(taken.body).toEqual({
      snapshotId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'before the payment tests',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      sandboxDate: addDays(TODAY, 10),
      resources: 5,
    });
    const { snapshotId } = taken.body as { snapshotId: string };

    // After it: a new consent and payment, one deleted, a scenario gone, the clock and conditions moved.
    const made = (await a.send('post', '/v1/consents', consentBody).expect(CREATED)).body.consentId as string;
    await a.send('post', SEPA, sepaPayment('20.00')).expect(CREATED);
    await a.send('delete', `/v1/consents/${consentId}`).expect(204);
    await a.send('delete', `/sandbox/scenarios/${scenario.scenarioId}`).expect(204);
    await a.send('put', '/sandbox/conditions', { maintenance: false, delayMs: 0 }).expect(200);
    await a.send('post', '/sandbox/clock/advance', { days: 30 }).expect(200);

    const restored = await a.send('post', `/sandbox/world/snapshots/${snapshotId}/restore`).expect(200);
    expect(restored.body).toEqual({ ...taken.body, today: addDays(TODAY, 10) });
    expect(await stateOf(sandbox.dataSource, a)).toEqual(before);
    expect((await a.send('get', `/v1/consents/${made}/status`).expect(403)).body.tppMessages[0].code).toBe('CONSENT_UNKNOWN');
    expect((await a.send('get', `/v1/consents/${consentId}/status`).expect(200)).body).toEqual({ consentStatus: 'received' });
    expect((await a.send('get', '/sandbox/clock').expect(200)).body).toEqual({ today: addDays(TODAY, 10) });
    expect((await a.send('get', '/sandbox/conditions').expect(200)).body).toEqual({ maintenance: false, delayMs: 5 });
    await a.send('delete', `/sandbox/scenarios/${scenario.scenarioId}`).expect(204);
    // B's world is as it was, and a restore is as often as asked.
    expect(await stateOf(sandbox.dataSource, b)).toEqual(theirs);
    await a.send('post', `/sandbox/world/snapshots/${snapshotId}/restore`).expect(200);
    expect(await stateOf(sandbox.dataSource, a)).toEqual(before);
  });

  it("lists the world's own snapshots after `as new`, and another world's are unknown to it", async () => {
    const ours = (await a.send('post', '/sandbox/world/snapshots', { name: 'ours' }).expect(201)).body;
    const listed = (await a.send('get', '/sandbox/world/snapshots').expect(200)).body.snapshots as { snapshotId: string; name: string }[];
    expect(listed[0]).toEqual({
      snapshotId: AS_NEW,
      name: 'as new',
      createdAt: '2019-03-01T09:00:00.000Z',
      sandboxDate: TODAY,
      resources: 0,
    });
    expect(listed.at(-1)).toEqual(ours);
    expect(
      (await b.send('get', '/sandbox/world/snapshots').expect(200)).body.snapshots.map(({ name }: { name: string }) => name),
    ).not.toContain('ours');
    for (const [method, path] of [
      ['post', `/sandbox/world/snapshots/${ours.snapshotId}/restore`],
      ['delete', `/sandbox/world/snapshots/${ours.snapshotId}`],
    ] as const) {
      const refused = await b.send(method, path).expect(404);
      expect(refused.body).toEqual(tppError('RESOURCE_UNKNOWN', `{sensitive} XS2A076E: snapshot ${ours.snapshotId} unknown`));
    }
    await a.send('delete', `/sandbox/world/snapshots/${ours.snapshotId}`).expect(204);
    await a.send('post', `/sandbox/world/snapshots/${ours.snapshotId}/restore`).expect(404);
  });

  it('refuses a name out of bounds, an 11th snapshot, and the deletion of `as new`, and changes nothing', async () => {
    const listed = async () => (await a.send('get', '/sandbox/world/snapshots').expect(200)).body.snapshots as unknown[];
    const kept = await listed();
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(71) }, { name: 7 }]) {
      expect((await a.send('post', '/sandbox/world/snapshots', body).expect(400)).body.tppMessages[0].code).toBe('FORMAT_ERROR');
    }
    expect(await listed()).toEqual(kept);
    const deleted = await a.send('delete', `/sandbox/world/snapshots/${AS_NEW}`).expect(409);
    expect(deleted.body).toEqual(
      tppError('STATUS_INVALID', `{sensitive} XS2A078E: the snapshot "as new" is every world's and stays: delete one this world took`),
    );
    for (let taken = kept.length - 1; taken < 10; taken++)
      await a.send('post', '/sandbox/world/snapshots', { name: `n${taken}` }).expect(201);
    const full = await a.send('post', '/sandbox/world/snapshots', { name: 'one too many' }).expect(429);
    expect(full.body).toEqual(
      tppError('ACCESS_EXCEEDED', '{sensitive} XS2A077E: this world keeps 10 snapshots, the most it may: delete one first'),
    );
    const snapshots = (await listed()) as { snapshotId: string }[];
    expect(snapshots.length).toBe(11);
    for (const { snapshotId } of snapshots.slice(1)) await a.send('delete', `/sandbox/world/snapshots/${snapshotId}`).expect(204);
  });

  it("restores `as new` as a reset would, and a restore racing the world's own writes answers no 5xx and leaves no half", async () => {
    const payments = Array.from({ length: 12 }, () => a.send('post', SEPA, sepaPayment('1.00')));
    const moves = Array.from({ length: 3 }, () => a.send('post', '/sandbox/clock/advance', { days: 1 }));
    const restore = a.send('post', `/sandbox/world/snapshots/${AS_NEW}/restore`);
    const answers = await Promise.all([...payments, ...moves, restore]);
    expect(answers.filter(({ status }) => status >= 500)).toEqual([]);
    expect(answers.at(-1)!.status).toBe(200);
    // Whatever ran after the restore is there whole; run it once more and the world is new.
    await a.send('post', `/sandbox/world/snapshots/${AS_NEW}/restore`).expect(200);
    const state = await stateOf(sandbox.dataSource, a);
    expect(Object.keys(state)).toEqual([]);
    expect((await a.send('get', '/sandbox/clock').expect(200)).body).toEqual({ today: TODAY });
  });
});

describe('snapshots of the open world (AUTH_MODE=open)', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });

  it("keep the bank's fixtures out and bring a consent's status back", async () => {
    const consentId = (await request(sandbox.http).post('/v1/consents').set(tppHeaders()).send(consentBody).expect(CREATED)).body.consentId;
    const { snapshotId } = (await request(sandbox.http).post('/sandbox/world/snapshots').send({ name: 'open' }).expect(201)).body;
    await request(sandbox.http).delete(`/v1/consents/${consentId}`).set(tppHeaders()).expect(204);
    await request(sandbox.http).post(`/sandbox/world/snapshots/${snapshotId}/restore`).expect(200);
    expect((await request(sandbox.http).get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(200)).body).toEqual({
      consentStatus: 'received',
    });
    expect((await request(sandbox.http).get(`/v1/consents/${VALID_CONSENT}/status`).set(tppHeaders()).expect(200)).body).toEqual({
      consentStatus: 'valid',
    });
  });
});
