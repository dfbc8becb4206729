import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { HashedClientSecrets1797600000000 } from '../migrations/1797600000000-HashedClientSecrets';
import { dataSourceOptions, type DatabaseSetting } from '../src/database/data-source';
import { schemaOf } from '../src/schema/schema';
import { SERVICES } from '../src/services';
import { databaseSettings, prepareDatabase } from './support/engine';
import { TppCertificate } from '../src/tpp-identity/tpp-certificate.entity';
import { TppClient } from '../src/oauth/client.entity';
import { VALID_CONSENT } from './support/fixtures';
import { basic, removeDatabase, startSandbox, temporaryDatabase, tppHeaders, useSandbox } from './support/sandbox';
import { issuedCertificate } from './support/signing';

/**
 * A TPP onboards itself (docs/security.md, "Clients register themselves"): RFC 7591 registration,
 * RFC 7592 read and delete, RFC 8414 metadata; a registered client gets a token and a world of its
 * own; bad metadata stores nothing; a profile can close it. On SQLite and PostgreSQL.
 */

const BASE = 'http://localhost:3000';
const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
const SECRET = expect.stringMatching(/^[\w-]{43}$/);
const metadata = { client_name: 'Example AISP', redirect_uris: ['https://tpp.example/callback'] };

const folder = mkdtempSync(join(tmpdir(), 'psd2-registration-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** An OAuth error body as the sandbox answers it: OAuth's fields and the seed bank's. */
const oauthError = (error: string, code: string, messageId: string, path: string | null, description: string) => ({
  _links: null,
  error,
  error_description: description,
  tppMessages: [{ category: 'ERROR', code, path, text: `{sensitive} ${messageId}: ${description}` }],
});

describe('clients register themselves (AUTH_MODE=strict)', () => {
  const sandbox = useSandbox({ AUTH_MODE: 'strict' });
  const clients = () => sandbox.dataSource.getRepository(TppClient).count();

  it('advertises the registration endpoint beside the token endpoint (RFC 8414)', async () => {
    const answer = await request(sandbox.http).get('/.well-known/oauth-authorization-server').expect(200);
    expect(answer.body).toEqual({
      issuer: BASE,
      token_endpoint: `${BASE}/oauth2/token`,
      registration_endpoint: `${BASE}/register`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    });
  });

  it('registers a client that then gets a token and a world of its own; reads and deletes it with its registration token, after which it gets none', async () => {
    const registered = await request(sandbox.http).post('/register').send(metadata).expect(201);
    expect(registered.headers['cache-control']).toBe('no-store');
    const { client_id: clientId, client_secret: secret, registration_access_token: registrationToken } = registered.body;
    const information = {
      client_id: UUID,
      client_secret: SECRET,
      client_id_issued_at: expect.any(Number),
      client_secret_expires_at: 0,
      client_name: 'Example AISP',
      redirect_uris: ['https://tpp.example/callback'],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_basic',
      registration_client_uri: `${BASE}/register/${clientId}`,
      // WORLD_IDLE_DAYS: the client and its world go after 30 days without a request.
      sandbox_idle_days: 30,
    };
    expect(registered.body).toEqual({ ...information, registration_access_token: SECRET });
    expect(Math.abs(registered.body.client_id_issued_at - Date.now() / 1000)).toBeLessThan(60);

    const token = (
      await request(sandbox.http)
        .post('/oauth2/token')
        .set('Authorization', basic(clientId, secret))
        .type('form')
        .send('grant_type=client_credentials')
        .expect(200)
    ).body.access_token;
    const as = (headers: Record<string, string> = {}) => tppHeaders({ Authorization: `Bearer ${token}`, ...headers });
    await request(sandbox.http)
      .get('/v1/accounts')
      .set(as({ 'Consent-ID': VALID_CONSENT }))
      .expect(200);
    // Its own world: its clock moves, no other client's.
    await request(sandbox.http).put('/sandbox/clock').set(as()).send({ today: '2026-05-01' }).expect(200);
    const fixtureToken = (
      await request(sandbox.http)
        .post('/oauth2/token')
        .set('Authorization', basic('sandbox-tpp', 'sandbox-secret'))
        .type('form')
        .send('grant_type=client_credentials')
        .expect(200)
    ).body.access_token;
    expect(
      (
        await request(sandbox.http)
          .get('/sandbox/clock')
          .set({ Authorization: `Bearer ${fixtureToken}` })
          .expect(200)
      ).body,
    ).toEqual({ today: '2026-03-15' });

    const read = await request(sandbox.http).get(`/register/${clientId}`).set('Authorization', `Bearer ${registrationToken}`).expect(200);
    // The secret is shown once: the database holds its SHA-256 only, as of the tokens (issue 73, finding 11).
    expect(read.body).toEqual({
      ...information,
      client_secret: undefined,
      client_id: clientId,
      client_id_issued_at: registered.body.client_id_issued_at,
    });
    const stored = await sandbox.dataSource.query(`SELECT * FROM tpp_clients WHERE "clientId" = '${clientId}'`);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(stored[0].secretHash).toBe(createHash('sha256').update(secret).digest('hex'));
    for (const wrong of [undefined, `Bearer ${fixtureToken}`, `Bearer ${registrationToken}x`]) {
      const call = request(sandbox.http).get(`/register/${clientId}`);
      const refused = await (wrong ? call.set('Authorization', wrong) : call).expect(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="psd2-sandbox", error="invalid_token"');
      expect(refused.body).toEqual(
        oauthError(
          'invalid_token',
          'TOKEN_INVALID',
          'XS2A071E',
          null,
          'send the registration access token the registration answered, as "Authorization: Bearer <token>"',
        ),
      );
    }
    // Another client's registration token opens nothing of this one.
    const other = (
      await request(sandbox.http)
        .post('/register')
        .send({ ...metadata, client_name: 'Other' })
        .expect(201)
    ).body;
    await request(sandbox.http)
      .delete(`/register/${clientId}`)
      .set('Authorization', `Bearer ${other.registration_access_token}`)
      .expect(401);

    await request(sandbox.http).delete(`/register/${clientId}`).set('Authorization', `Bearer ${registrationToken}`).expect(204);
    await request(sandbox.http).get(`/register/${clientId}`).set('Authorization', `Bearer ${registrationToken}`).expect(401);
    const gone = await request(sandbox.http)
      .post('/oauth2/token')
      .set('Authorization', basic(clientId, secret))
      .type('form')
      .send('grant_type=client_credentials')
      .expect(401);
    expect(gone.body.error).toBe('invalid_client');
  });

  it('refuses bad metadata with the RFC 7591 error naming the field, and stores nothing', async () => {
    const before = await clients();
    const cases: [object, string, string, string][] = [
      [{ client_name: 'No redirect' }, 'invalid_redirect_uri', 'redirect_uris', 'redirect_uris must list 1 to 10 https URLs'],
      [{ ...metadata, redirect_uris: [] }, 'invalid_redirect_uri', 'redirect_uris', 'redirect_uris must list 1 to 10 https URLs'],
      [
        { ...metadata, redirect_uris: ['http://tpp.example/callback'] },
        'invalid_redirect_uri',
        'redirect_uris[0]',
        'a redirect URI must be an absolute https URL without credentials, at most 2048 characters',
      ],
      [
        { ...metadata, redirect_uris: ['https://user:pw@tpp.example/'] },
        'invalid_redirect_uri',
        'redirect_uris[0]',
        'a redirect URI must be an absolute https URL without credentials, at most 2048 characters',
      ],
      [
        { ...metadata, scope: 'AIS' },
        'invalid_client_metadata',
        'scope',
        'scope is not client metadata the sandbox reads (client_name, redirect_uris, grant_types, token_endpoint_auth_method, certificate)',
      ],
      [
        { redirect_uris: metadata.redirect_uris },
        'invalid_client_metadata',
        'client_name',
        'client_name must be the TPP’s name, 1 to 140 characters',
      ],
      [
        { ...metadata, grant_types: ['authorization_code'] },
        'invalid_client_metadata',
        'grant_types',
        'grant_types must be ["client_credentials"], the one grant the token endpoint issues',
      ],
      [
        { ...metadata, token_endpoint_auth_method: 'private_key_jwt' },
        'invalid_client_metadata',
        'token_endpoint_auth_method',
        'token_endpoint_auth_method must be one of client_secret_basic, client_secret_post',
      ],
      [[metadata], 'invalid_client_metadata', 'body', 'the body must be a JSON object of client metadata'],
    ];
    for (const [body, error, path, description] of cases) {
      const refused = await request(sandbox.http).post('/register').send(body).expect(400);
      expect(refused.body).toEqual(oauthError(error, 'FORMAT_ERROR', 'XS2A070E', path, description));
    }
    // A certificate another CA issued.
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-subj',
        '/CN=Elsewhere CA',
        '-days',
        '2',
        '-keyout',
        join(folder, 'elsewhere.key'),
        '-out',
        join(folder, 'elsewhere.pem'),
      ],
      { stdio: 'ignore' },
    );
    const foreign = await request(sandbox.http)
      .post('/register')
      .send({ ...metadata, certificate: readFileSync(join(folder, 'elsewhere.pem'), 'utf8') })
      .expect(400);
    expect(foreign.body).toEqual(
      oauthError(
        'invalid_client_metadata',
        'FORMAT_ERROR',
        'XS2A070E',
        'certificate',
        'certificate must be one the sandbox CA issued (POST /sandbox/certificates, npm run certificate), unrevoked and no other client’s',
      ),
    );
    expect(await clients()).toBe(before);
  });
});

describe('a registered client names a certificate the sandbox issued (AUTH_MODE=open)', () => {
  const sandbox = useSandbox();

  it('the certificate becomes its own; the same certificate cannot be claimed twice', async () => {
    const issued = await issuedCertificate(sandbox.http, folder, {
      type: 'QSEAL',
      organisationName: 'Example AISP GmbH',
      roles: ['PSP_AI'],
    });
    const { client_id: clientId } = (
      await request(sandbox.http)
        .post('/register')
        .send({ ...metadata, certificate: issued.certificate })
        .expect(201)
    ).body;
    expect(
      (await sandbox.dataSource.getRepository(TppCertificate).findOneByOrFail({ serialNumber: issued.serialNumber.toLowerCase() })).ownerId,
    ).toBe(clientId);
    const again = await request(sandbox.http)
      .post('/register')
      .send({ ...metadata, certificate: issued.certificate })
      .expect(400);
    expect(again.body.error).toBe('invalid_client_metadata');
  });
});

describe('a profile that closes registration (tpp.registration: closed)', () => {
  mkdirSync(join(folder, 'closed'));
  writeFileSync(join(folder, 'closed', 'profile.yaml'), 'extends: bank\ntpp:\n  registration: closed\n');
  const sandbox = useSandbox({ PROFILE: join(folder, 'closed'), AUTH_MODE: 'strict' });

  it('refuses with 403 and advertises no registration endpoint', async () => {
    const refused = await request(sandbox.http).post('/register').send(metadata).expect(403);
    expect(refused.body).toEqual(
      oauthError(
        'access_denied',
        'SERVICE_BLOCKED',
        'XS2A072E',
        null,
        'this bank registers no clients (tpp.registration: closed): use the client credentials it handed out',
      ),
    );
    expect((await request(sandbox.http).get('/.well-known/oauth-authorization-server').expect(200)).body).toEqual({
      issuer: BASE,
      token_endpoint: `${BASE}/oauth2/token`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    });
    expect(await sandbox.dataSource.getRepository(TppClient).countBy({ name: metadata.client_name })).toBe(0);
  });
});

describe('REGISTRATIONS_PER_HOUR, counted by the address TRUST_PROXY lets the sandbox believe', () => {
  const sandbox = useSandbox({ AUTH_MODE: 'strict', REGISTRATIONS_PER_HOUR: '3', TRUST_PROXY: 'loopback' });
  const from = (address: string) => request(sandbox.http).post('/register').set('X-Forwarded-For', address).send(metadata);

  it('refuses the fourth registration from one address within the hour, 429 with Retry-After, and stores nothing; another address registers', async () => {
    for (let count = 0; count < 3; count++) await from('203.0.113.5').expect(201);
    const stored = await sandbox.dataSource.getRepository(TppClient).countBy({ name: metadata.client_name });
    const refused = await from('203.0.113.5').expect(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.body).toEqual(
      oauthError(
        'slow_down',
        'ACCESS_EXCEEDED',
        'XS2A074E',
        null,
        `3 clients registered from this address within the hour (REGISTRATIONS_PER_HOUR): try again in ${retryAfter} s, or reuse a client (POST /sandbox/world/reset starts its world afresh)`,
      ),
    );
    expect(await sandbox.dataSource.getRepository(TppClient).countBy({ name: metadata.client_name })).toBe(stored);
    await from('203.0.113.6').expect(201);
  });
});

describe('REGISTRATIONS_PER_HOUR without TRUST_PROXY', () => {
  const sandbox = useSandbox({ AUTH_MODE: 'strict', REGISTRATIONS_PER_HOUR: '1' });

  it('believes no X-Forwarded-For: every request counts the address it came from', async () => {
    await request(sandbox.http).post('/register').set('X-Forwarded-For', '203.0.113.7').send(metadata).expect(201);
    await request(sandbox.http).post('/register').set('X-Forwarded-For', '203.0.113.8').send(metadata).expect(429);
  });

  it('stops the start on a TRUST_PROXY Express cannot read, naming it', async () => {
    const database = temporaryDatabase();
    await expect(startSandbox({ TRUST_PROXY: 'no-such-proxy' }, database)).rejects.toThrow('TRUST_PROXY="no-such-proxy"');
    await removeDatabase(database);
  });
});

describe('a database from before client secrets were hashed (issue 73, finding 11)', () => {
  it('hashes the secrets it holds in place: a client still gets a token with its secret, and the secret is stored nowhere', async () => {
    const database = temporaryDatabase();
    await prepareDatabase(database);
    const schema = schemaOf(SERVICES);
    const earlier = schema.migrations.filter((migration) => migration !== HashedClientSecrets1797600000000);
    const old = await new DataSource(
      dataSourceOptions(databaseSettings(database) as DatabaseSetting, { ...schema, migrations: earlier }),
    ).initialize();
    await old.runMigrations();
    await old.query(`INSERT INTO tpp_clients ("clientId", "clientSecret", name) VALUES ('old-client', 'old-secret', 'Old TPP')`);
    await old.destroy();
    const sandbox = await startSandbox({ AUTH_MODE: 'strict' }, database);
    try {
      const token = (s: string) =>
        request(sandbox.http)
          .post('/oauth2/token')
          .set('Authorization', basic('old-client', s))
          .type('form')
          .send('grant_type=client_credentials');
      await token('old-secret').expect(200);
      await token('old-secretx').expect(401);
      expect(await sandbox.dataSource.getRepository(TppClient).findOneByOrFail({ clientId: 'old-client' })).toEqual(
        Object.assign(new TppClient(), {
          clientId: 'old-client',
          secretHash: createHash('sha256').update('old-secret').digest('hex'),
          name: 'Old TPP',
          redirectUris: null,
          registrationTokenHash: null,
          registeredAt: null,
          lastUsedOn: null,
        }),
      );
    } finally {
      await sandbox.close();
      await removeDatabase(database);
    }
  });
});
