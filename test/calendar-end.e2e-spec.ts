import request from 'supertest';
import { CREATED } from './support/profile';
import { balancesConsent } from './support/fixtures';
import { tppHeaders, useSandbox } from './support/sandbox';

/**
 * The calendar's end (issue 73, finding 5): with the clock at 9999-12-31, what computes a date
 * from today answers as on any other day, or refuses with a 400, on both engines; never a 500.
 */
describe('a clock at the end of the calendar', () => {
  const sandbox = useSandbox({ SCA_MODE: 'redirect' });

  beforeAll(async () => {
    await request(sandbox.http).put('/sandbox/clock').send({ today: '9999-12-31' }).expect(200);
  });

  it('takes a consent, its validity capped at the calendar', async () => {
    const answer = await request(sandbox.http)
      .post('/v1/consents')
      .set(tppHeaders())
      .send(balancesConsent({ validUntil: '9999-12-31' }))
      .expect(CREATED);
    expect(answer.body.consentStatus).toBe('received');
    const read = await request(sandbox.http).get(`/v1/consents/${answer.body.consentId}`).set(tppHeaders()).expect(200);
    expect(read.body.validUntil).toBe('9999-12-31');
  });

  it('issues a certificate, its validity ending with the calendar', async () => {
    const answer = await request(sandbox.http)
      .post('/sandbox/certificates')
      .send({ type: 'QSEAL', organisationName: 'End TPP', roles: ['PSP_AI'] });
    expect([answer.status, answer.body.notBefore, answer.body.notAfter]).toEqual([201, '9999-12-31', '9999-12-31']);
  });
});
