import request from 'supertest';
import { CREATED, PROFILE } from './support/profile';
import type { App } from 'supertest/types';
import { sepaPayment, VALID_CONSENT } from './support/fixtures';
import { basic, issueToken, tppError, tppHeaders, useSandbox, TOKEN_MISSING } from './support/sandbox';
import { Consent } from '../src/consent/consent.entity';
import { AccessToken } from '../src/oauth/client.entity';

const tokenRequest = (http: App, authorization: string | null, form: string) => {
  const call = request(http).post('/oauth2/token').type('form').send(form);
  return authorization === null ? call : call.set('Authorization', authorization);
};
const oauthError = (error: string, messageId: string, code: string, description: string, path: string | null = null) => ({
  error,
  error_description: description,
  ...tppError(code, `{sensitive} ${messageId}: ${description}`, path),
});
const INVALID_CLIENT = oauthError(
  'invalid_client',
  'XS2A026E',
  'TOKEN_INVALID',
  'client authentication failed: send client_id and client_secret with HTTP Basic or in the form',
);
const TOKEN = { access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), token_type: 'Bearer', expires_in: 599 };

const payment = sepaPayment('10.00');
const consentRequest = {
  access: { availableAccounts: 'allAccounts' },
  recurringIndicator: true,
  combinedServiceIndicator: false,
  validUntil: '2026-06-30',
  frequencyPerDay: 4,
};

describe('the token endpoint (either AUTH_MODE)', () => {
  const sandbox = useSandbox();

  it('issues a bearer token for client credentials sent with HTTP Basic, never cached', async () => {
    const response = await tokenRequest(sandbox.http, basic('sandbox-tpp', 'sandbox-secret'), 'grant_type=client_credentials').expect(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['pragma']).toBe('no-cache');
    expect(response.body).toEqualBody(TOKEN);
    const again = await issueToken(sandbox.http);
    expect(again).not.toBe(response.body.access_token);
  });

  it('answers invalid_client (401, WWW-Authenticate) for missing, malformed or wrong credentials, and stores no token', async () => {
    const tokensBefore = await sandbox.dataSource.getRepository(AccessToken).count();
    const refused: [string | null, string][] = [
      [null, 'grant_type=client_credentials'],
      ['Bearer abc', 'grant_type=client_credentials'],
      ['Basic !!!', 'grant_type=client_credentials'],
      [basic('sandbox-tpp', 'wrong'), 'grant_type=client_credentials'],
      [null, 'grant_type=client_credentials&client_id=sandbox-tpp&client_secret=wrong'],
      [null, `grant_type=client_credentials&client_id=${'x'.repeat(65)}`],
      // Control characters in HTTP Basic credentials (RFC 7617 §2), raw or percent-encoded.
      [basic('sandbox\u0000tpp', 'sandbox-secret'), 'grant_type=client_credentials'],
      [basic('%00', 'x'), 'grant_type=client_credentials'],
    ];
    for (const [authorization, form] of refused) {
      const response = await tokenRequest(sandbox.http, authorization, form).expect(401);
      expect(response.headers['www-authenticate']).toBe('Basic realm="psd2-sandbox"');
      expect(response.body).toEqualBody(INVALID_CLIENT);
    }
    expect(await sandbox.dataSource.getRepository(AccessToken).count()).toEqual(tokensBefore);
  });

  it("guessing a client's secret is bounded: after 5 wrong ones from an address, 429 slow_down with Retry-After, the right one too; a success before clears the count; another client is untouched", async () => {
    const guess = (secret: string) => tokenRequest(sandbox.http, basic('sandbox-tpp-2', secret), 'grant_type=client_credentials');
    for (let attempt = 1; attempt <= 4; attempt++) await guess(`guess-${attempt}`).expect(401);
    await guess('sandbox-secret-2').expect(200);
    for (let attempt = 1; attempt <= 5; attempt++) expect((await guess(`again-${attempt}`).expect(401)).body).toEqualBody(INVALID_CLIENT);
    const tokensBefore = await sandbox.dataSource.getRepository(AccessToken).count();
    for (const secret of ['guess-6', 'sandbox-secret-2']) {
      const refused = await guess(secret).expect(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(880);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(900);
      expect(refused.body).toEqualBody(
        oauthError(
          'slow_down',
          'XS2A073E',
          'ACCESS_EXCEEDED',
          `5 failed sign-ins from this address: try again in ${refused.headers['retry-after']} s`,
        ),
      );
    }
    expect(await sandbox.dataSource.getRepository(AccessToken).count()).toEqual(tokensBefore);
    await issueToken(sandbox.http);
  });

  it("issues a token for the bank clients' request: client_id and scope in the form, no HTTP Basic, no secret; the scope is echoed", async () => {
    for (const clientId of ['sandbox-tpp', 'a-client-the-sandbox-never-met']) {
      const response = await tokenRequest(sandbox.http, null, `grant_type=client_credentials&client_id=${clientId}&scope=AIS`).expect(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqualBody({ ...TOKEN, scope: 'AIS' });
      await request(sandbox.http)
        .get(`/v1/consents/${VALID_CONSENT}/status`)
        .set(tppHeaders({ Authorization: `Bearer ${response.body.access_token}` }))
        .expect(200);
    }
    const withSecret = await tokenRequest(
      sandbox.http,
      null,
      'grant_type=client_credentials&client_id=sandbox-tpp&client_secret=sandbox-secret',
    ).expect(200);
    expect(withSecret.body).toEqualBody(TOKEN);
  });

  it('answers invalid_request (400) to credentials sent both with HTTP Basic and in the form (RFC 6749 §2.3.1)', async () => {
    const response = await tokenRequest(
      sandbox.http,
      basic('sandbox-tpp', 'sandbox-secret'),
      'grant_type=client_credentials&client_id=sandbox-tpp',
    ).expect(400);
    expect(response.body).toEqualBody(
      oauthError(
        'invalid_request',
        'XS2A027E',
        'FORMAT_ERROR',
        'send the client credentials either with HTTP Basic or in the form, not both',
      ),
    );
  });

  it('answers invalid_request or unsupported_grant_type (400) for a wrong grant', async () => {
    const credentials = basic('sandbox-tpp', 'sandbox-secret');
    for (const form of ['', 'grant_type=']) {
      const response = await tokenRequest(sandbox.http, credentials, form).expect(400);
      expect(response.body).toEqualBody(oauthError('invalid_request', 'XS2A027E', 'FORMAT_ERROR', 'grant_type is required', 'grant_type'));
    }
    for (const form of ['grant_type=password', 'grant_type=client_credentials&grant_type=password']) {
      const response = await tokenRequest(sandbox.http, credentials, form).expect(400);
      expect(response.body).toEqualBody(
        oauthError('unsupported_grant_type', 'XS2A027E', 'FORMAT_ERROR', 'grant_type must be client_credentials', 'grant_type'),
      );
    }
  });

  it('in AUTH_MODE=open any non-empty bearer token is accepted, an issued one too', async () => {
    const token = await issueToken(sandbox.http);
    for (const authorization of [`Bearer ${token}`, 'Bearer anything']) {
      await request(sandbox.http)
        .get(`/v1/consents/${VALID_CONSENT}/status`)
        .set(tppHeaders({ Authorization: authorization }))
        .expect(200);
    }
  });
});

describe('AUTH_MODE=strict', () => {
  const sandbox = useSandbox({ AUTH_MODE: 'strict', SCA_MODE: 'redirect' });
  const as = (token: string, extra: Record<string, string> = {}) => tppHeaders({ Authorization: `Bearer ${token}`, ...extra });

  afterEach(() => jest.useRealTimers());

  it('issues a token only to a known client with its secret: with HTTP Basic or in the form, as the bank clients send it', async () => {
    const refused: [string | null, string][] = [
      [null, 'grant_type=client_credentials&client_id=sandbox-tpp&scope=AIS'],
      [null, 'grant_type=client_credentials&client_id=nobody&client_secret=sandbox-secret'],
      [basic('nobody', 'sandbox-secret'), 'grant_type=client_credentials'],
      [basic('sandbox-tpp', ''), 'grant_type=client_credentials'],
    ];
    for (const [authorization, form] of refused) {
      const response = await tokenRequest(sandbox.http, authorization, form).expect(401);
      expect(response.body).toEqualBody(INVALID_CLIENT);
    }
    const response = await tokenRequest(
      sandbox.http,
      null,
      'grant_type=client_credentials&client_id=sandbox-tpp&client_secret=sandbox-secret&scope=AIS',
    ).expect(200);
    expect(response.body).toEqualBody({ ...TOKEN, scope: 'AIS' });
    const read = await request(sandbox.http).get(`/v1/consents/${VALID_CONSENT}/status`).set(as(response.body.access_token)).expect(200);
    expect(read.body).toEqualBody({ consentStatus: 'valid' });
  });

  it('accepts only issued tokens: none, unknown or malformed ones get 401 TOKEN_INVALID, and change nothing', async () => {
    const path = `/v1/consents/${VALID_CONSENT}/status`;
    const missing = await request(sandbox.http).get(path).set({ 'X-Request-ID': tppHeaders()['X-Request-ID'] }).expect(401);
    // berlin-group's token is optional (tpp.oauth): without one, strict mode asks for the certificate instead.
    expect(missing.body).toEqualBody(
      PROFILE === 'berlin-group'
        ? tppError(
            'CERTIFICATE_MISSING',
            '{sensitive} XS2A063E: no bearer token, and no certificate the sandbox issued to a client (a QWAC, or the QSealC of a signed request): send one of them',
          )
        : tppError('TOKEN_INVALID', TOKEN_MISSING.strict),
    );
    for (const authorization of ['Bearer sandbox-token', `Bearer ${'x'.repeat(43)}`]) {
      const response = await request(sandbox.http)
        .get(path)
        .set(tppHeaders({ Authorization: authorization }))
        .expect(401);
      expect(response.body).toEqualBody(tppError('TOKEN_INVALID', '{sensitive} XS2A024E: the bearer token was not issued by this sandbox'));
    }
    const refused = await request(sandbox.http)
      .post('/v1/consents')
      .set(tppHeaders({ Authorization: 'Bearer forged' }))
      .send(consentRequest)
      .expect(401);
    expect(refused.body.tppMessages[0].code).toBe('TOKEN_INVALID');
    expect(await sandbox.dataSource.getRepository(Consent).countBy({ fixture: false })).toBe(0);

    const token = await issueToken(sandbox.http);
    const response = await request(sandbox.http).get(path).set(as(token)).expect(200);
    expect(response.body).toEqualBody({ consentStatus: 'valid' });
  });

  it('a token expires after 599 seconds: 401 TOKEN_EXPIRED', async () => {
    // Only Date is faked, and it stands still until set: timers and I/O run as usual.
    jest.useFakeTimers({
      doNotFake: [
        'nextTick',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
        'queueMicrotask',
        'hrtime',
        'performance',
      ],
    });
    const issuedAt = Date.now();
    const token = await issueToken(sandbox.http);
    const path = `/v1/consents/${VALID_CONSENT}/status`;
    jest.setSystemTime(issuedAt + 598_999);
    await request(sandbox.http).get(path).set(as(token)).expect(200);
    jest.setSystemTime(issuedAt + 599_000);
    const response = await request(sandbox.http).get(path).set(as(token)).expect(401);
    expect(response.body).toEqualBody(
      tppError('TOKEN_EXPIRED', `{sensitive} XS2A025E: the bearer token expired at ${new Date(issuedAt + 599_000).toISOString()}`),
    );
  });

  it("a client acts only as the fixture PSUs and its own scenarios' PSUs: another client's scenario PSU is answered as an unknown one", async () => {
    const [mine, theirs] = [await issueToken(sandbox.http), await issueToken(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2')];
    const scenario = await request(sandbox.http)
      .post('/sandbox/scenarios')
      .set('Authorization', `Bearer ${mine}`)
      .send({ accounts: [{ name: 'Own Test', balances: { interimAvailable: '10.00', forwardAvailable: '10.00' } }] })
      .expect(201);
    const { psuId, scenarioId } = scenario.body;
    expect(psuId).toBe(`scenario-${scenarioId}`);
    expect(scenarioId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/); // 122 random bits
    // The other client asks for all accounts and tries to approve it as the first client's PSU.
    const theirConsent = (await request(sandbox.http).post('/v1/consents').set(as(theirs)).send(consentRequest).expect(CREATED)).body
      .consentId;
    const refusal = tppError('PSU_CREDENTIALS_INVALID', '{sensitive} XS2A022E: unknown PSU ID or wrong password');
    for (const asPsu of [psuId, 'scenario-00000000-0000-4000-8000-000000000000']) {
      const response = await request(sandbox.http)
        .post(`/sandbox/sca/consents/${theirConsent}`)
        .set('Authorization', `Bearer ${theirs}`)
        .send({ psuId: asPsu, decision: 'approve' })
        .expect(401);
      expect(response.body).toEqualBody(refusal);
    }
    const status = await request(sandbox.http).get(`/v1/consents/${theirConsent}/status`).set(as(theirs)).expect(200);
    expect(status.body).toEqualBody({ consentStatus: 'received' });
    // The world may act as its own scenario's PSU.
    const myConsent = (await request(sandbox.http).post('/v1/consents').set(as(mine)).send(consentRequest).expect(CREATED)).body.consentId;
    await request(sandbox.http)
      .post(`/sandbox/sca/consents/${myConsent}`)
      .set('Authorization', `Bearer ${mine}`)
      .send({ psuId, decision: 'approve' })
      .expect(200);
  });

  it("keeps each client's consents, payments and scenarios to itself: another client gets the unknown-resource answer and changes nothing", async () => {
    const [mine, theirs] = [await issueToken(sandbox.http), await issueToken(sandbox.http, 'sandbox-tpp-2', 'sandbox-secret-2')];
    const consentId = (await request(sandbox.http).post('/v1/consents').set(as(mine)).send(consentRequest).expect(CREATED)).body.consentId;
    const paymentId = (
      await request(sandbox.http)
        .post('/v1/payments/sepa-credit-transfers')
        .set(as(mine, { 'PSU-IP-Address': '192.0.2.10' }))
        .send(payment)
        .expect(CREATED)
    ).body.paymentId;
    const scenario = await request(sandbox.http)
      .post('/sandbox/scenarios')
      .set('Authorization', `Bearer ${mine}`)
      .send({ accounts: [{ name: 'Own Test', balances: { interimAvailable: '10.00', forwardAvailable: '10.00' } }] })
      .expect(201);

    const consentUnknown = (id: string) => tppError('CONSENT_UNKNOWN', `{sensitive} XS2A017E: consent ${id} unknown`);
    const paymentUnknown = tppError('RESOURCE_UNKNOWN', `{sensitive} XS2A015E: payment ${paymentId} unknown`);
    const SEPA = `/v1/payments/sepa-credit-transfers/${paymentId}`;
    const attempts: [string, string, number, object][] = [
      ['get', `/v1/consents/${consentId}`, 403, consentUnknown(consentId)],
      ['get', `/v1/consents/${consentId}/status`, 403, consentUnknown(consentId)],
      ['get', `/v1/consents/${consentId}/authorisations`, 403, consentUnknown(consentId)],
      ['post', `/v1/consents/${consentId}/authorisations`, 403, consentUnknown(consentId)],
      ['delete', `/v1/consents/${consentId}`, 403, consentUnknown(consentId)],
      ['get', SEPA, 404, paymentUnknown],
      ['get', `${SEPA}/status`, 404, paymentUnknown],
      ['get', `${SEPA}/authorisations`, 404, paymentUnknown],
      ['post', `${SEPA}/authorisations`, 404, paymentUnknown],
      ['delete', SEPA, 404, paymentUnknown],
    ];
    for (const [method, path, status, body] of attempts) {
      const response = await request(sandbox.http)
        [method as 'get'](path)
        .set(as(theirs, { 'PSU-IP-Address': '192.0.2.10' }))
        .expect(status);
      expect(response.body).toEqualBody(body);
    }
    for (const id of [consentId, scenario.body.consentId]) {
      const response = await request(sandbox.http)
        .get('/v1/accounts')
        .set(as(theirs, { 'Consent-ID': id }))
        .expect(403);
      expect(response.body).toEqualBody(consentUnknown(id));
    }
    const control: [string, object, number, object][] = [
      [`/sandbox/sca/consents/${consentId}`, { psuId: 'georg.mustermann', decision: 'deny' }, 403, consentUnknown(consentId)],
      [`/sandbox/sca/payments/${paymentId}`, { psuId: 'georg.mustermann', decision: 'deny' }, 404, paymentUnknown],
    ];
    for (const [path, body, status, answer] of control) {
      const response = await request(sandbox.http).post(path).set('Authorization', `Bearer ${theirs}`).send(body).expect(status);
      expect(response.body).toEqualBody(answer);
    }
    const deleted = await request(sandbox.http)
      .delete(`/sandbox/scenarios/${scenario.body.scenarioId}`)
      .set('Authorization', `Bearer ${theirs}`)
      .expect(404);
    expect(deleted.body).toEqualBody(tppError('RESOURCE_UNKNOWN', `{sensitive} XS2A023E: scenario ${scenario.body.scenarioId} unknown`));

    // The world still finds everything as it was, and the bank's fixtures stay everyone's.
    expect((await request(sandbox.http).get(`/v1/consents/${consentId}/status`).set(as(mine)).expect(200)).body).toEqualBody({
      consentStatus: 'received',
    });
    expect((await request(sandbox.http).get(`${SEPA}/status`).set(as(mine)).expect(200)).body).toEqualBody({ transactionStatus: 'RCVD' });
    await request(sandbox.http)
      .get('/v1/accounts')
      .set(as(mine, { 'Consent-ID': scenario.body.consentId }))
      .expect(200);
    for (const token of [mine, theirs])
      await request(sandbox.http)
        .get('/v1/accounts')
        .set(as(token, { 'Consent-ID': VALID_CONSENT }))
        .expect(200);
    const decided = await request(sandbox.http)
      .post(`/sandbox/sca/payments/${paymentId}`)
      .set('Authorization', `Bearer ${mine}`)
      .send({ psuId: 'georg.mustermann', decision: 'approve' });
    expect(decided.status).toBe(200);
    expect(decided.body).toEqualBody({ transactionStatus: 'ACSP' });
    await request(sandbox.http).delete(`/sandbox/scenarios/${scenario.body.scenarioId}`).set('Authorization', `Bearer ${mine}`).expect(204);
  });

  it('the control endpoints need a token too', async () => {
    const response = await request(sandbox.http).get('/sandbox/clock').expect(401);
    expect(response.body).toEqualBody(tppError('TOKEN_INVALID', TOKEN_MISSING.strict));
    await request(sandbox.http)
      .get('/sandbox/clock')
      .set('Authorization', `Bearer ${await issueToken(sandbox.http)}`)
      .expect(200);
  });
});
