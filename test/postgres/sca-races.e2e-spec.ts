import request from 'supertest';
import type { App } from 'supertest/types';
import { balancesConsent } from '../support/fixtures';
import { tppHeaders, useTwoInstances } from '../support/sandbox';

/**
 * Decisions sent at once over two PostgreSQL instances (issue 73, findings 1 and 2): the third
 * wrong password racing the right one, on the SCA page, ten rounds on Berlin Group's profile. No
 * answer is a 5xx (a deadlock or a serialisation failure is retried inside its write), and the
 * consent ends either valid (the right one first) or rejected (the third wrong one first).
 */
describe('SCA decisions racing over two instances', () => {
  const instances = useTwoInstances({ PROFILE: 'berlin-group', SCA_MODE: 'redirect' });

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
        await request(instances.one.http)
          .post('/v1/consents')
          .set(tppHeaders({ 'TPP-Redirect-URI': 'https://tpp.example/cb' }))
          .send(balancesConsent())
          .expect(201)
      ).body;
      for (const guess of [1, 2]) expect((await submit(instances.one.http, consentId, `guess-${guess}`)).status).toBe(401);
      const answers = await Promise.all([
        submit(instances.one.http, consentId, 'guess-3'),
        submit(instances.other.http, consentId, 'sandbox'),
      ]);
      expect(answers.filter(({ status }) => status >= 500).map(({ status, text }) => `${status} ${text.slice(0, 200)}`)).toEqual([]);
      const { consentStatus } = (await request(instances.other.http).get(`/v1/consents/${consentId}/status`).set(tppHeaders()).expect(200))
        .body;
      expect(['valid', 'rejected']).toContain(consentStatus);
    }
  }, 60_000);
});
