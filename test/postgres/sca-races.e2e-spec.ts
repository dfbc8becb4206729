import request from 'supertest';
import type { App } from 'supertest/types';
import { GEORG } from '../support/fixtures';
import { removeDatabase, Sandbox, startSandbox, temporaryDatabase, tppHeaders } from '../support/sandbox';

/**
 * Decisions sent at once over two PostgreSQL instances (issue 73, findings 1 and 2): the third
 * wrong password racing the right one, on the SCA page, ten rounds on Berlin Group's profile. No
 * answer is a 5xx (a deadlock or a serialisation failure is retried inside its write), and the
 * consent ends either valid (the right one first) or rejected (the third wrong one first).
 */
describe('SCA decisions racing over two instances', () => {
  const database = temporaryDatabase();
  const settings = { PROFILE: 'berlin-group', SCA_MODE: 'redirect' };
  let one: Sandbox;
  let other: Sandbox;

  beforeAll(async () => {
    one = await startSandbox(settings, database);
    other = await startSandbox(settings, database);
  });
  afterAll(async () => {
    await one.close();
    await other.close();
    await removeDatabase(database);
  });

  /** Opens the consent's SCA page on `http` and posts its form with `password`. */
  const submit = async (http: App, consentId: string, password: string) => {
    const browser = request.agent(http);
    const page = await browser.get(`/sca/consents?consent_id=${consentId}`);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    return browser
      .post('/sca/consents')
      .type('form')
      .send({ _csrf: token, id: consentId, decision: 'approve', psuId: 'georg.mustermann', password });
  };

  it('the third wrong password racing the right one: no 5xx, ten rounds, and the consent ends valid or rejected', async () => {
    for (let round = 0; round < 10; round++) {
      const { consentId } = (
        await request(one.http)
          .post('/v1/consents')
          .set(tppHeaders({ 'TPP-Redirect-URI': 'https://tpp.example/cb' }))
          .send({
            access: { balances: [{ iban: GEORG }] },
            recurringIndicator: true,
            validUntil: '2026-06-30',
            frequencyPerDay: 4,
            combinedServiceIndicator: false,
          })
          .expect(201)
      ).body;
      for (const guess of [1, 2]) expect((await submit(one.http, consentId, `guess-${guess}`)).status).toBe(401);
      const answers = await Promise.all([submit(one.http, consentId, 'guess-3'), submit(other.http, consentId, 'sandbox')]);
      expect(answers.filter(({ status }) => status >= 500).map(({ status, text }) => `${status} ${text.slice(0, 200)}`)).toEqual([]);
      const { consentStatus } = (await request(other.http).get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(200)).body;
      expect(['valid', 'rejected']).toContain(consentStatus);
    }
  }, 60_000);
});
