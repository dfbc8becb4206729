import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Logger } from '@nestjs/common';
import request from 'supertest';
import { Consent } from '../src/consent/consent.entity';
import { UNKNOWN_CONSENT, VALID_CONSENT } from './support/fixtures';
import { CREATED, PROFILE, TOO_LARGE } from './support/profile';
import { removeDatabase, startSandbox, tppError, tppHeaders, useSandbox, TOKEN_MISSING } from './support/sandbox';

const required = (field: string) => ({
  category: 'ERROR',
  code: 'FORMAT_ERROR',
  path: field,
  text: `{sensitive} XS2A001E: ${field} is required`,
});
/** An array is not the object the operation takes: every mandatory field of the object is missing. */
const ARRAY_BODY_ERROR = { tppMessages: ['access', 'recurringIndicator', 'validUntil', 'frequencyPerDay'].map(required), _links: null };
const consentBody = {
  access: { availableAccounts: 'allAccounts' },
  recurringIndicator: true,
  combinedServiceIndicator: false,
  validUntil: '2026-06-30',
  frequencyPerDay: 4,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requests every /v1 operation needs', () => {
  const sandbox = useSandbox();

  const operations: [string, string][] = [
    ['post', '/v1/consents'],
    ['get', `/v1/consents/${VALID_CONSENT}`],
    ['get', `/v1/consents/${VALID_CONSENT}/status`],
    ['delete', `/v1/consents/${VALID_CONSENT}`],
    ['get', '/v1/accounts'],
    ['get', '/v1/accounts/AT099900000000001511'],
    ['get', '/v1/accounts/AT099900000000001511/balances'],
    ['get', '/v1/accounts/AT099900000000001511/transactions?bookingStatus=booked'],
  ];
  const call = (method: string, path: string) => request(sandbox.http)[method as 'get'](path).set('Consent-ID', VALID_CONSENT);

  describe.each(operations)('%s %s', (method, path) => {
    // berlin-group makes the token optional (tpp.oauth): there a request without the header is served (berlin-group-client.e2e-spec.ts).
    it.each<[string, Record<string, string>]>([
      ...(PROFILE === 'bank' ? [['no Authorization header', {}] as [string, Record<string, string>]] : []),
      ['an empty bearer token', { Authorization: 'Bearer ' }],
      ['another scheme', { Authorization: 'Basic dXNlcjpwdw==' }],
    ])('answers 401 TOKEN_INVALID for %s', async (_, auth) => {
      const requestId = randomUUID();
      const response = await call(method, path)
        .set({ 'X-Request-ID': requestId, ...auth })
        .expect(401);
      expect(response.headers['x-request-id']).toBe(requestId);
      expect(response.body).toEqualBody(tppError('TOKEN_INVALID', TOKEN_MISSING.open));
    });

    it.each([
      ['no X-Request-ID', undefined],
      ['an X-Request-ID that is not a UUID', 'request-1'],
    ])('answers 400 FORMAT_ERROR for %s', async (_, requestId) => {
      const response = await call(method, path)
        .set({ Authorization: 'Bearer t', ...(requestId ? { 'X-Request-ID': requestId } : {}) })
        .expect(400);
      // One is made up where none came, so that even this refusal can be traced.
      expect(response.headers['x-request-id']).toEqual(requestId ?? expect.stringMatching(UUID));
      expect(response.body).toEqualBody(tppError('FORMAT_ERROR', '{sensitive} XS2A001E: X-Request-ID must be a UUID', 'X-Request-ID'));
    });
  });

  it('takes the first of two X-Request-ID headers, as one bank client sends them, and echoes it', async () => {
    const [first, second] = [randomUUID(), randomUUID()];
    // Node sends an array value as two header lines.
    const response = await request(sandbox.http)
      .get(`/v1/consents/${VALID_CONSENT}/status`)
      .set('Authorization', 'Bearer t')
      .set('X-Request-ID', [first, second] as unknown as string)
      .expect(200);
    expect(response.headers['x-request-id']).toBe(first);
    expect(response.body).toEqualBody({ consentStatus: 'valid' });
  });

  it('checks the token before the request ID', async () => {
    const response = await request(sandbox.http).get('/v1/accounts').set('Authorization', 'Bearer ').expect(401);
    expect(response.body).toEqualBody(tppError('TOKEN_INVALID', TOKEN_MISSING.open));
  });

  it('accepts any non-empty bearer token, in any letter case of the scheme', async () => {
    await request(sandbox.http)
      .get(`/v1/consents/${VALID_CONSENT}/status`)
      .set({ Authorization: 'bearer x', 'X-Request-ID': randomUUID() })
      .expect(200);
  });
});

describe('failures outside the operations', () => {
  const sandbox = useSandbox();
  const countConsents = () => sandbox.dataSource.getRepository(Consent).count();

  it.each([
    ['get', '/v1/payments'],
    ['get', '/'],
    ['put', '/v1/consents'],
    ['patch', `/v1/consents/${VALID_CONSENT}`],
    ['post', '/v1/accounts'],
  ])('%s %s: an unknown route is 404 in the error body', async (method, path) => {
    const headers = tppHeaders();
    const response = await request(sandbox.http)[method as 'get'](path).set(headers).expect(404);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['x-request-id']).toBe(headers['X-Request-ID']);
    expect(response.body).toEqualBody(tppError('RESOURCE_UNKNOWN', `{sensitive} XS2A012E: no route ${method.toUpperCase()} ${path}`));
  });

  it.each(['{"access":', "{'access': {}}", '"just a string"', '12'])(
    'a body that is not a JSON object (%s) is 400 FORMAT_ERROR and stores nothing',
    async (raw) => {
      const before = await countConsents();
      const headers = tppHeaders({ 'Content-Type': 'application/json' });
      const response = await request(sandbox.http).post('/v1/consents').set(headers).send(raw).expect(400);
      expect(response.headers['x-request-id']).toBe(headers['X-Request-ID']);
      expect(response.body).toEqualBody({
        tppMessages: [
          {
            category: 'ERROR',
            code: 'FORMAT_ERROR',
            path: null,
            text: expect.stringMatching(/^\{sensitive\} XS2A002E: malformed request: /),
          },
        ],
        _links: null,
      });
      expect(await countConsents()).toBe(before);
    },
  );

  it('a JSON array body is 400 FORMAT_ERROR', async () => {
    const response = await request(sandbox.http).post('/v1/consents').set(tppHeaders()).send([consentBody]).expect(400);
    expect(response.body).toEqualBody(ARRAY_BODY_ERROR);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded'])(
    'a body sent as %s, not as JSON, is 400 FORMAT_ERROR naming Content-Type and stores nothing',
    async (contentType) => {
      const before = await countConsents();
      const headers = tppHeaders({ 'Content-Type': contentType });
      const response = await request(sandbox.http).post('/v1/consents').set(headers).send(JSON.stringify(consentBody)).expect(400);
      expect(response.headers['x-request-id']).toBe(headers['X-Request-ID']);
      expect(response.body).toEqualBody(
        tppError('FORMAT_ERROR', '{sensitive} XS2A001E: the body must be JSON, sent with Content-Type: application/json', 'Content-Type'),
      );
      expect(await countConsents()).toBe(before);
    },
  );

  it('a body over 100 KiB is 413 FORMAT_ERROR and stores nothing', async () => {
    const before = await countConsents();
    const headers = tppHeaders();
    const response = await request(sandbox.http)
      .post('/v1/consents')
      .set(headers)
      .send({ ...consentBody, padding: 'x'.repeat(101 * 1024) })
      .expect(TOO_LARGE);
    expect(response.headers['x-request-id']).toBe(headers['X-Request-ID']);
    expect(response.body).toEqualBody(tppError('FORMAT_ERROR', '{sensitive} XS2A003E: the request body is larger than 100 KiB'));
    expect(await countConsents()).toBe(before);
  });

  it('a body just under 100 KiB is accepted', async () => {
    await request(sandbox.http)
      .post('/v1/consents')
      .set(tppHeaders())
      .send({ ...consentBody, padding: 'x'.repeat(99 * 1024) })
      .expect(CREATED);
  });

  it('a body in an unsupported charset is 400 FORMAT_ERROR, like any body that cannot be read as JSON', async () => {
    const response = await request(sandbox.http)
      .post('/v1/consents')
      .set(tppHeaders({ 'Content-Type': 'application/json; charset=klingon' }))
      .send(JSON.stringify(consentBody))
      .expect(400);
    expect(response.body).toEqualBody(tppError('FORMAT_ERROR', '{sensitive} XS2A002E: malformed request: unsupported charset "KLINGON"'));
  });

  it.each(['/v1/consents', '/v1/payments/sepa-credit-transfers', '/sandbox/scenarios', '/oauth2/token'])(
    'a JSON body nested 1,300 levels deep (2.8 KB) is 400 FORMAT_ERROR on POST %s, before validation, and stores nothing',
    async (path) => {
      const before = await sandbox.dataSource.query('SELECT (SELECT COUNT(*) FROM consents) + (SELECT COUNT(*) FROM payments) AS n');
      const deep = `{"access":${'['.repeat(1300)}${']'.repeat(1300)}}`;
      const response = await request(sandbox.http)
        .post(path)
        .set(tppHeaders({ 'Content-Type': 'application/json', 'PSU-IP-Address': '192.0.2.10' }))
        .send(deep)
        .expect(400);
      const refusal = tppError('FORMAT_ERROR', '{sensitive} XS2A002E: malformed request: the body nests deeper than 32 levels');
      expect(response.body).toEqualBody(
        path === '/oauth2/token'
          ? { error: 'invalid_request', error_description: 'malformed request: the body nests deeper than 32 levels', ...refusal }
          : refusal,
      );
      expect(await sandbox.dataSource.query('SELECT (SELECT COUNT(*) FROM consents) + (SELECT COUNT(*) FROM payments) AS n')).toEqual(
        before,
      );
    },
  );

  it('brackets inside strings do not count as nesting', async () => {
    await request(sandbox.http)
      .post('/v1/consents')
      .set(tppHeaders())
      .send({ ...consentBody, note: `[{"\\${'['.repeat(100)}` })
      .expect(CREATED);
  });

  it('a path with a broken percent-encoding is 400 FORMAT_ERROR', async () => {
    const response = await request(sandbox.http).get('/v1/consents/%E0%A4%A').set(tppHeaders()).expect(400);
    expect(response.body).toEqualBody(
      tppError('FORMAT_ERROR', "{sensitive} XS2A002E: malformed request: Failed to decode param '%E0%A4%A'"),
    );
  });

  it.each([
    ['DELETE', '/sandbox/scenarios/%00', undefined],
    ['GET', `/v1/consents/${VALID_CONSENT}%00/status`, undefined],
    ['GET', '/v1/accounts/AT099900000000001511/transactions?bookingStatus=booked&entryReferenceFrom=%00', undefined],
    ['POST', '/v1/consents', { ...consentBody, access: { balances: [{ iban: 'AT099900000000001511', note: 'a\u0000b' }] } }],
    ['POST', '/sandbox/scenarios', { 'psu\u0000': 'x' }],
  ])('a NUL character anywhere (%s %s) is 400 FORMAT_ERROR on either engine, and stores nothing', async (method, path, body) => {
    const before = await countConsents();
    const call = request(sandbox.http)
      [method.toLowerCase() as 'get'](path)
      .set(tppHeaders({ 'Consent-ID': VALID_CONSENT }));
    const response = await (body === undefined ? call : call.send(body)).expect(400);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqualBody(
      tppError(
        'FORMAT_ERROR',
        '{sensitive} XS2A002E: malformed request: it holds a NUL character, which no path, parameter or field may hold',
      ),
    );
    expect(await countConsents()).toBe(before);
  });

  it('a NUL in the token form is invalid_request, in the OAuth body', async () => {
    const response = await request(sandbox.http)
      .post('/oauth2/token')
      .type('form')
      .send('grant_type=client_credentials&client_id=%00')
      .expect(400);
    const description = 'malformed request: it holds a NUL character, which no path, parameter or field may hold';
    expect(response.body).toEqualBody({
      error: 'invalid_request',
      error_description: description,
      ...tppError('FORMAT_ERROR', `{sensitive} XS2A002E: ${description}`),
    });
  });

  it('GET /health answers 200 without any header', async () => {
    const response = await request(sandbox.http).get('/health').expect(200);
    expect(response.body).toEqualBody({ status: 'ok', profile: { source: PROFILE, name: 'PSD2 Sandbox Bank', answers: PROFILE } });
  });
});

describe('an unexpected fault', () => {
  it('is a 500 in the Berlin Group body, never a framework page', async () => {
    const sandbox = await startSandbox();
    try {
      // A real fault, not a mock: the table the request reads goes away under the running app.
      await sandbox.dataSource.query('ALTER TABLE consents RENAME TO consents_gone');
      const headers = tppHeaders();
      const logged = jest.spyOn(Logger.prototype, 'error');
      // A consent the bank's fixtures do not hold: those are answered from memory.
      const response = await request(sandbox.http).get(`/v1/consents/${UNKNOWN_CONSENT}?secret=do-not-log`).set(headers).expect(500);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['x-request-id']).toBe(headers['X-Request-ID']);
      expect(response.body).toEqualBody(tppError('INTERNAL_SERVER_ERROR', '{sensitive} XS2A013E: unexpected error'));
      expect(sandbox.contract.failures).toEqual([]);
      // The error line names the path, never the query string.
      expect(logged).toHaveBeenCalledWith(`GET /v1/consents/${UNKNOWN_CONSENT}`, expect.any(String));
      expect(JSON.stringify(logged.mock.calls)).not.toContain('do-not-log');
    } finally {
      jest.restoreAllMocks();
      await sandbox.app.close();
      await removeDatabase(sandbox.database);
    }
  });

  it('is a 503 SERVICE_UNAVAILABLE when the database itself is gone: the client may retry', async () => {
    const sandbox = await startSandbox();
    try {
      await sandbox.dataSource.destroy();
      const [warned, failed] = [jest.spyOn(Logger.prototype, 'warn'), jest.spyOn(Logger.prototype, 'error')];
      const response = await request(sandbox.http).get(`/v1/consents/${UNKNOWN_CONSENT}`).set(tppHeaders()).expect(503);
      expect(response.body).toEqualBody(
        tppError(
          'SERVICE_UNAVAILABLE',
          expect.stringMatching(/^\{sensitive\} XS2A029E: the sandbox's database is full or unavailable: nothing was changed/),
        ),
      );
      expect(sandbox.contract.failures).toEqual([]);
      // No bug, a warning: with what the database said (docs/operations.md, "Logs").
      expect(warned).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`^GET /v1/consents/${UNKNOWN_CONSENT}: .+`)));
      expect(failed).not.toHaveBeenCalled();
    } finally {
      jest.restoreAllMocks();
      await sandbox.app.close();
      await removeDatabase(sandbox.database);
    }
  });
});

describe('a request Node itself cannot parse', () => {
  const sandbox = useSandbox();

  /** Writes raw bytes to the listening server and answers what comes back, split into head and body. */
  async function raw(bytes: string): Promise<{ head: string; body: unknown }> {
    const server = sandbox.app.getHttpServer() as Server;
    if (!server.listening) await sandbox.app.listen(0, '127.0.0.1');
    const { port } = server.address() as AddressInfo;
    const answer = await new Promise<string>((resolve, reject) => {
      let received = '';
      const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    const [head, body] = answer.split('\r\n\r\n');
    return { head, body: JSON.parse(body) };
  }

  it('a broken header line: 400 with the Berlin Group body, not a bare page', async () => {
    const { head, body } = await raw('GET /v1/accounts HTTP/1.1\r\nHost: sandbox\r\nThis is no header\r\n\r\n');
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 400 Bad Request',
      'Content-Type: application/json; charset=utf-8',
      expect.stringMatching(/^Content-Length: \d+$/),
      'Connection: close',
    ]);
    expect(body).toEqualBody(tppError('FORMAT_ERROR', '{sensitive} XS2A002E: malformed request: Parse Error: Invalid header token'));
  });

  it('an HTTP/1.1 request without Host: 400 with the Berlin Group body, not a bare page', async () => {
    const { head, body } = await raw('GET /v1/accounts HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(head).toMatch(/\r\nX-Request-ID: [0-9a-f-]{36}\r\n/i);
    expect(body).toEqualBody(tppError('FORMAT_ERROR', '{sensitive} XS2A002E: malformed request: an HTTP/1.1 request needs a Host header'));
  });

  it('headers over 16 KiB: 431 with the Berlin Group body', async () => {
    const { head, body } = await raw(`GET /v1/accounts HTTP/1.1\r\nHost: sandbox\r\nX-Padding: ${'x'.repeat(17 * 1024)}\r\n\r\n`);
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(body).toEqualBody(tppError('FORMAT_ERROR', '{sensitive} XS2A028E: the request headers are larger than 16 KiB'));
  });
});
