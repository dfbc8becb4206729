import request from 'supertest';
import { GEORG, MARIANNE, VALID_CONSENT } from './support/fixtures';
import { inProfile } from './support/profile';
import { allAccountsConsent as createConsent, tppError, tppHeaders, useSandbox } from './support/sandbox';
import { AccessCount } from '../src/account-information/access-count.entity';

const PRESENT = { 'PSU-IP-Address': '192.0.2.10' };

/**
 * Past the limit the bank answers 401 CONSENT_UNKNOWN (XS2A006E), the only form its own clients
 * recognise; Berlin Group answers 429 ACCESS_EXCEEDED (docs/profiles.md).
 */
describe.each([
  ['bank', 401, 'CONSENT_UNKNOWN', 200],
  ['berlin-group', 429, 'ACCESS_EXCEEDED', 201],
] as const)('frequencyPerDay: reads without the account holder present (PROFILE=%s)', (profile, EXCEEDED, code, created) => {
  const sandbox = useSandbox({ PROFILE: profile });
  const read = (path: string, consentId: string, extra: Record<string, string> = {}) =>
    request(sandbox.http)
      .get(path)
      .set(tppHeaders({ 'Consent-ID': consentId, ...extra }));
  const exceeded = (consentId: string, iban: string, limit: number, day: string) =>
    inProfile(
      profile,
      tppError(code, `{sensitive} XS2A006E: consent ${consentId} has used its ${limit} accesses per day to ${iban} on ${day}`),
    );
  const allAccountsConsent = (http: typeof sandbox.http, terms: object) => createConsent(http, terms, created);

  it('counts per account across details, balances, transactions and transaction details; past the limit the access-exceeded answer', async () => {
    const consentId = await allAccountsConsent(sandbox.http, { frequencyPerDay: 3 });
    await read(`/v1/accounts/${MARIANNE}/balances`, consentId).expect(200);
    await read(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`, consentId).expect(200);
    await read(`/v1/accounts/${MARIANNE}/transactions/1511-B01`, consentId).expect(200);
    const paths = [
      `/v1/accounts/${MARIANNE}`,
      `/v1/accounts/${MARIANNE}/balances`,
      `/v1/accounts/${MARIANNE}/transactions?bookingStatus=both`,
      `/v1/accounts/${MARIANNE}/transactions/1511-B01`,
    ];
    for (const path of paths) {
      const response = await read(path, consentId).expect(EXCEEDED);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toEqual(exceeded(consentId, MARIANNE, 3, '2026-03-15'));
    }
    // With the account holder present nothing is counted or limited.
    await read(`/v1/accounts/${MARIANNE}/balances`, consentId, PRESENT).expect(200);
    // Another account has its own allowance.
    await read(`/v1/accounts/${GEORG}`, consentId).expect(200);
  });

  it('the account list counts against every listed account, and a refused list counts against none', async () => {
    const consentId = await allAccountsConsent(sandbox.http, { frequencyPerDay: 2 });
    await read('/v1/accounts', consentId).expect(200);
    await read(`/v1/accounts/${MARIANNE}/balances`, consentId).expect(200);
    const refused = await read('/v1/accounts?withBalance=true', consentId).expect(EXCEEDED);
    expect(refused.body).toEqual(exceeded(consentId, MARIANNE, 2, '2026-03-15'));
    // Georg's one remaining access was not spent by the refused list.
    await read(`/v1/accounts/${GEORG}/balances`, consentId).expect(200);
    await read(`/v1/accounts/${GEORG}/balances`, consentId).expect(EXCEEDED);
  });

  it('a rejected request counts nothing', async () => {
    const consentId = await allAccountsConsent(sandbox.http, { frequencyPerDay: 1 });
    await read(`/v1/accounts/${MARIANNE}/transactions`, consentId).expect(400);
    await read(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked&dateFrom=2019-03-10&dateTo=2019-03-01`, consentId).expect(400);
    const malformed = await read(`/v1/accounts/${MARIANNE}/balances`, consentId, { 'PSU-IP-Address': 'not-an-ip' }).expect(400);
    expect(malformed.body).toEqual(
      inProfile(
        profile,
        tppError(
          'FORMAT_ERROR',
          "{sensitive} XS2A001E: PSU-IP-Address must be the IP address of the account holder's device",
          'PSU-IP-Address',
        ),
      ),
    );
    await read(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`, consentId).expect(200);
    await read(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`, consentId).expect(EXCEEDED);
  });

  it("the sandbox clock's next day resets the count", async () => {
    const consentId = await allAccountsConsent(sandbox.http, { frequencyPerDay: 1 });
    await read(`/v1/accounts/${MARIANNE}`, consentId).expect(200);
    await read(`/v1/accounts/${MARIANNE}`, consentId).expect(EXCEEDED);
    await request(sandbox.http).post('/sandbox/clock/advance').send({ days: 1 }).expect(200);
    await read(`/v1/accounts/${MARIANNE}`, consentId).expect(200);
    const again = await read(`/v1/accounts/${MARIANNE}`, consentId).expect(EXCEEDED);
    expect(again.body).toEqual(exceeded(consentId, MARIANNE, 1, '2026-03-16'));
    await request(sandbox.http).put('/sandbox/clock').send({ today: '2026-03-15' }).expect(200);
  });

  it("never limits the bank's fixture consents, which every TPP shares", async () => {
    for (let read_ = 0; read_ < 6; read_++) await read(`/v1/accounts/${MARIANNE}/balances`, VALID_CONSENT).expect(200);
  });

  it('50 concurrent reads of a consent allowing 4: exactly 4 answered 200, the rest refused', async () => {
    const consentId = await allAccountsConsent(sandbox.http, { frequencyPerDay: 4 });
    const responses = await Promise.all(Array.from({ length: 50 }, () => read(`/v1/accounts/${GEORG}/balances`, consentId)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(4).fill(200), ...Array(46).fill(EXCEEDED)]);
    const rows = await sandbox.dataSource.getRepository(AccessCount).find({ select: { accesses: true }, where: { consentId } });
    expect(rows).toEqual([{ accesses: 4 }]);
  });
});
