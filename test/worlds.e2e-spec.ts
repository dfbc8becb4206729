import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Transaction } from '../src/bank/account.entity';
import { balancesConsent, GEORG, sepaPayment, VALID_CONSENT } from './support/fixtures';
import { CREATED } from './support/profile';
import { TODAY, tppError, useSandbox, TOKEN_MISSING, worldClient, WorldClient } from './support/sandbox';

/**
 * Each client a world of its own in AUTH_MODE=strict (docs/security.md, "Worlds"): its clock, its
 * bank conditions, its scenarios, its view of the fixture PSUs. Client B does everything the
 * control API lets it do; client A's answers stay byte for byte what they were, while B's change as
 * B asked. On SQLite and PostgreSQL.
 */

const SEPA = '/v1/payments/sepa-credit-transfers';

/** The seed bank, with its first fixture consent valid until the end of 2026: a date one world's clock can pass and another's not. */
const folder = mkdtempSync(join(tmpdir(), 'psd2-worlds-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
function expiringFixtures(): string {
  const consents = JSON.parse(readFileSync(join(__dirname, '..', 'profiles', 'bank', 'fixtures', 'consents.json'), 'utf8')) as {
    stored: { id: string; validUntil: string }[];
  };
  consents.stored.find(({ id }) => id === VALID_CONSENT)!.validUntil = '2026-12-31';
  mkdirSync(join(folder, 'fixtures'));
  writeFileSync(join(folder, 'profile.yaml'), 'extends: bank\n');
  writeFileSync(join(folder, 'fixtures', 'consents.json'), JSON.stringify(consents));
  return folder;
}

describe('each client its own world (AUTH_MODE=strict): what B does to its world leaves A’s answers as they were', () => {
  const sandbox = useSandbox({ PROFILE: expiringFixtures(), AUTH_MODE: 'strict', SCA_MODE: 'redirect' });
  let a: WorldClient;
  let b: WorldClient;
  let consentId: string;
  let paymentId: string;

  beforeAll(async () => {
    a = await worldClient(sandbox.http, 'sandbox-tpp', 'sandbox-secret');
    b = await worldClient(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2');
    const consent = balancesConsent();
    consentId = (await a.send('post', '/v1/consents', consent).expect(CREATED)).body.consentId;
    await a.send('post', `/sandbox/sca/consents/${consentId}`, { psuId: 'georg.mustermann', decision: 'approve' }).expect(200);
    // A payment for a later date: it executes when its world's clock reaches that date, not before.
    paymentId = (
      await a
        .send('post', SEPA, sepaPayment('10.00', { requestedExecutionDate: '2026-03-20' }), { 'PSU-IP-Address': '192.0.2.10' })
        .expect(CREATED)
    ).body.paymentId;
    await a.send('post', `/sandbox/sca/payments/${paymentId}`, { psuId: 'georg.mustermann', decision: 'approve' }).expect(200);
  });

  /** What A sees of its world: every answer whole, headers that carry content included. The account reads name the PSU as present, so that they count no access. */
  async function viewOfA(): Promise<unknown[]> {
    const present = { 'PSU-IP-Address': '192.0.2.10' };
    const reads = [
      a.send('get', '/sandbox/clock'),
      a.send('get', '/sandbox/conditions'),
      a.send('get', `/v1/consents/${consentId}`),
      a.send('get', `/v1/consents/${VALID_CONSENT}`),
      a.send('get', `/v1/accounts/${GEORG}/balances`, undefined, { 'Consent-ID': consentId, ...present }),
      a.send('get', '/v1/accounts', undefined, { 'Consent-ID': VALID_CONSENT, ...present }),
      a.send('get', `${SEPA}/${paymentId}/status`),
      a.send('get', '/sandbox/events?pageSize=500'),
      a.send('get', '/sandbox/psus/georg.mustermann/permissions'),
    ];
    return (await Promise.all(reads)).map(({ status, body, headers }) => ({ status, body, contentType: headers['content-type'] }));
  }

  it('B moves its clock, stops its bank, creates a scenario and withdraws its own consent: A sees nothing of it, B sees all of it', async () => {
    const before = await viewOfA();
    expect(before.map((answer) => (answer as { status: number }).status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200]);

    // B's clock, 400 days on: the bank's fixture consent has expired in B's world only.
    expect((await b.send('post', '/sandbox/clock/advance', { days: 400 }).expect(200)).body).toEqual({ today: '2027-04-19' });
    expect((await b.send('get', `/v1/consents/${VALID_CONSENT}/status`).expect(200)).body).toEqual({ consentStatus: 'expired' });
    expect(await viewOfA()).toEqual(before);
    // Set back, it is valid again for B: a fixture is shared and never stored as expired.
    expect((await b.send('put', '/sandbox/clock', { today: TODAY }).expect(200)).body).toEqual({ today: TODAY });
    expect((await b.send('get', `/v1/consents/${VALID_CONSENT}/status`).expect(200)).body).toEqual({ consentStatus: 'valid' });
    // B's clock past A's payment's date: A's payment executes in A's world, at A's date.
    await b.send('put', '/sandbox/clock', { today: '2026-03-20' }).expect(200);
    expect(await viewOfA()).toEqual(before);

    // B's bank in maintenance and slow: B's requests get 503, A's are answered as before.
    expect((await b.send('put', '/sandbox/conditions', { maintenance: true, delayMs: 200 }).expect(200)).body).toEqual({
      maintenance: true,
      delayMs: 200,
    });
    const refused = await b.send('get', `/v1/consents/${VALID_CONSENT}/status`).expect(503);
    expect(refused.body).toEqual(tppError('SERVICE_UNAVAILABLE', '{sensitive} XS2A037E: the bank is in maintenance, try again later'));
    expect(await viewOfA()).toEqual(before);
    await b.send('put', '/sandbox/conditions', { maintenance: false, delayMs: 0 }).expect(200);

    // B's scenario and its own consent on georg's account, withdrawn as the holder on the dashboard's hook.
    await b
      .send('post', '/sandbox/scenarios', {
        accounts: [{ name: 'B Holder', balances: { interimAvailable: '10.00', forwardAvailable: '10.00' } }],
      })
      .expect(201);
    const theirs = (await b.send('post', '/v1/consents', balancesConsent()).expect(CREATED)).body.consentId;
    await b.send('post', `/sandbox/sca/consents/${theirs}`, { psuId: 'georg.mustermann', decision: 'approve' }).expect(200);
    await b.send('post', `/sandbox/psus/georg.mustermann/permissions/${theirs}/withdrawal`).expect(200);
    // B's holder approves B's next consent on the SCA page, as in a browser: in B's world.
    const onPage = (await b.send('post', '/v1/consents', balancesConsent()).expect(CREATED)).body.consentId;
    const browser = request.agent(sandbox.http);
    const page = await browser.get(`/sca/consents?consent_id=${onPage}`).expect(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    await browser
      .post('/sca/consents')
      .type('form')
      .send({ _csrf: csrf, id: onPage, psuId: 'georg.mustermann', password: 'sandbox', decision: 'approve' })
      .expect(200);
    expect((await b.send('get', `/v1/consents/${onPage}/status`).expect(200)).body).toEqual({ consentStatus: 'valid' });
    expect(await viewOfA()).toEqual(before);
    // A's consent is none of B's: B's withdrawal of it is answered as for an unknown consent.
    await b.send('post', `/sandbox/psus/georg.mustermann/permissions/${consentId}/withdrawal`).expect(403);
    expect(await viewOfA()).toEqual(before);

    // B in the cockpit, signed in with its credentials: a day on, and a month, on B's clock only.
    const cockpit = request.agent(sandbox.http);
    await cockpit.post('/cockpit/sign-in').type('form').send({ clientId: 'sandbox-tpp-2', clientSecret: 'sandbox-secret-2' }).expect(303);
    for (const by of ['day', 'month'])
      await cockpit.post('/cockpit/clock/advance').set('Sec-Fetch-Site', 'same-origin').type('form').send({ by }).expect(303);
    expect((await b.send('get', '/sandbox/clock').expect(200)).body).toEqual({ today: '2026-04-21' });
    expect((await cockpit.get('/cockpit').expect(200)).text).toContain('<strong id="today">2026-04-21</strong>');
    expect(await viewOfA()).toEqual(before);
    await b.send('put', '/sandbox/clock', { today: '2026-03-20' }).expect(200);

    // A's own move changes A's answers as asked: its payment executes on its date.
    expect((await a.send('put', '/sandbox/clock', { today: '2026-03-20' }).expect(200)).body).toEqual({ today: '2026-03-20' });
    expect((await a.send('get', `${SEPA}/${paymentId}/status`).expect(200)).body).toEqualBody({ transactionStatus: 'ACSP' });
    expect((await b.send('get', '/sandbox/clock').expect(200)).body).toEqual({ today: '2026-03-20' });
  });

  it("B's largest move holds none of A's reads: A's reads sent after it began are answered before it ends; a day further is refused up front", async () => {
    // A Friday: a move of 4,000 days ends on a Monday, 4,001 on a Tuesday, so that no instalment waits for a working day at either end.
    await b.send('put', '/sandbox/clock', { today: '2026-04-03' }).expect(200);
    const own = (
      await b
        .send('post', '/sandbox/scenarios', {
          accounts: [{ name: 'B Saver', balances: { interimAvailable: '100000.00', forwardAvailable: '100000.00' } }],
        })
        .expect(201)
    ).body;
    // Five daily orders from today, each of which ran its first instalment at its approval: a move of n days executes 5 x n.
    const order = {
      debtorAccount: { iban: own.accounts[0].iban },
      instructedAmount: { currency: 'EUR', amount: '1.00' },
      creditorAccount: { iban: GEORG },
      creditorName: 'Georg Mustermann',
      startDate: '2026-04-03',
      frequency: 'Daily',
    };
    const orders: string[] = [];
    for (let count = 0; count < 5; count++) {
      const { paymentId } = (
        await b.send('post', '/v1/periodic-payments/sepa-credit-transfers', order, { 'PSU-IP-Address': '192.0.2.10' }).expect(CREATED)
      ).body;
      await b.send('post', `/sandbox/sca/payments/${paymentId}`, { psuId: own.psuId, decision: 'approve' }).expect(200);
      orders.push(paymentId);
    }

    // A day past the bound: 20,005 instalments. Refused before anything runs.
    const refused = await b.send('post', '/sandbox/clock/advance', { days: 4001 }).expect(400);
    expect(refused.body).toEqual(
      tppError(
        'FORMAT_ERROR',
        '{sensitive} XS2A001E: a move of the clock may execute at most 20000 payments and instalments; this one, to 2037-03-17, would execute more: move it in steps',
        'days',
      ),
    );
    expect((await b.send('get', '/sandbox/clock').expect(200)).body).toEqual({ today: '2026-04-03' });

    // The bound exactly, 20,000 instalments, in writes A's reads pass between.
    const booked = () => sandbox.dataSource.getRepository(Transaction).countBy({ accountIban: own.accounts[0].iban });
    const before = await booked();
    let ended = false;
    const move = b
      .send('post', '/sandbox/clock/advance', { days: 4000 })
      .expect(200)
      .then((answer) => ((ended = true), answer));
    while ((await booked()) === before && !ended) await sleep(5);
    expect(ended).toBe(false);
    const answeredBeforeEnd: boolean[] = [];
    for (let read = 0; read < 5; read++) {
      await a.send('get', `/v1/consents/${consentId}/status`).expect(200);
      answeredBeforeEnd.push(!ended);
    }
    expect(answeredBeforeEnd).toEqual([true, true, true, true, true]);
    expect((await move).body).toEqual({ today: '2037-03-16' });
    for (const paymentId of orders) {
      expect((await b.send('get', `/sandbox/payments/${paymentId}/instalments`).expect(200)).body).toEqual({
        instalmentsRun: 4001,
        nextExecutionDate: '2037-03-17',
        failed: [],
      });
    }
    expect((await a.send('get', '/sandbox/clock').expect(200)).body).toEqual({ today: '2026-03-20' });
  });

  it('a request without a token is refused before any world’s conditions, and names no world', async () => {
    await b.send('put', '/sandbox/conditions', { maintenance: true, delayMs: 0 }).expect(200);
    const anonymous = await request(sandbox.http)
      .get('/v1/accounts')
      .set({ 'X-Request-ID': randomUUID(), 'Consent-ID': VALID_CONSENT })
      .expect(401);
    expect(anonymous.body).toEqual(tppError('TOKEN_INVALID', TOKEN_MISSING.strict));
    await a.send('get', '/v1/accounts', undefined, { 'Consent-ID': VALID_CONSENT }).expect(200);
    await b.send('put', '/sandbox/conditions', { maintenance: false, delayMs: 0 }).expect(200);
  });
});
