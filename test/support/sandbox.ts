import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { App } from 'supertest/types';
import type { OpenAPIObject } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { createApp, openApiDocument } from '../../src/app.factory';
import { ClockService } from '../../src/clock/clock.service';
import { builtInProfiles } from '../../src/profile/load-profile';
import { World } from '../../src/world/world';
import { databaseSettings, prepareDatabase, removeDatabase, temporaryDatabase } from './engine';
import { OpenApiContract } from './openapi-contract';
import { CREATED, PROFILE } from './profile';

/** The date every e2e test runs on unless it sets SANDBOX_DATE itself. */
export const TODAY = '2026-03-15';

export interface Sandbox {
  app: INestApplication<App>;
  http: App;
  dataSource: DataSource;
  /** Where its data lives (engine.ts): pass it again to start the same sandbox anew. */
  database: string;
  /** Every answer of this app, checked against its OpenAPI document. */
  contract: OpenApiContract;
  /** Closes the app, and fails if any answer it gave broke the OpenAPI document. */
  close(): Promise<void>;
}

export { removeDatabase, temporaryDatabase } from './engine';

/**
 * Starts the real app (migrations, fixtures, filter, pipe) on a database of the run's engine,
 * with the given settings; the same database can be passed again to test a restart. A new database
 * of a built-in profile starts as the run's copy of it, migrated and seeded once (engine.ts).
 */
export async function startSandbox(settings: Record<string, string | undefined> = {}, database = temporaryDatabase()): Promise<Sandbox> {
  await prepareDatabase(database, { profile: settings.PROFILE ?? PROFILE });
  // A setting given as undefined is left unset (SANDBOX_DATE: undefined, a clock that follows the real date).
  const environment: Record<string, string | undefined> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ...databaseSettings(database),
    SANDBOX_DATE: TODAY,
    PROFILE,
    ...settings,
  };
  const saved = Object.fromEntries(Object.keys(environment).map((key) => [key, process.env[key]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  apply(environment);
  let app: INestApplication<App>;
  let made: string | undefined;
  try {
    app = await createApp();
    await app.init();
    made = builtInProfiles().includes(process.env.PROFILE!) ? madeOf(database) : undefined;
  } finally {
    apply(saved);
  }
  const contract = new OpenApiContract(servedDocument(app, made));
  contract.observe(app.getHttpServer() as Server);
  return {
    app,
    http: app.getHttpServer(),
    dataSource: app.get(DataSource),
    database,
    contract,
    close: async () => {
      await app.close();
      expect(contract.failures).toEqual([]);
    },
  };
}

/**
 * What an app's served document is made of: every setting it read (process.env at its start, but
 * where its data lives), for a built-in profile (a test's own profile folder may change between two
 * starts).
 */
function madeOf(database: string): string {
  const where = Object.keys(databaseSettings(database));
  return JSON.stringify(
    Object.entries(process.env)
      .filter(([key]) => !where.includes(key))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

/**
 * The documents the apps of a test file serve, by what each is made of and its date: building one
 * (Nest's scan of the routes, the profile's changes, the examples) is about 0.4 s of a start, and a
 * file starts many apps alike (docs/development.md, "How a run is put together").
 */
const documents = new Map<string, OpenAPIObject>();

function servedDocument(app: INestApplication, made: string | undefined): OpenAPIObject {
  if (made === undefined) return openApiDocument(app);
  const key = `${app.get(ClockService).today(World.open)} ${made}`;
  const document = documents.get(key) ?? openApiDocument(app);
  documents.set(key, document);
  return document;
}

const START_TIMEOUT_MS = 30_000;

/** One sandbox for the enclosing describe block: started before its tests, closed and deleted after them. */
export function useSandbox(settings: Record<string, string> = {}): Sandbox {
  const sandbox = {} as Sandbox;
  // A start takes a fraction of a second; jest's 5 s default for a hook failed a CI run whose machine
  // stalled for longer. Speed is the benchmark's to measure, not a hook's to assert (docs/benchmark.md).
  beforeAll(async () => {
    Object.assign(sandbox, await startSandbox(settings));
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await sandbox.close();
    await removeDatabase(sandbox.database);
  }, START_TIMEOUT_MS);
  return sandbox;
}

/** Two instances of the app on one database, as replicas behind a balancer run, for the enclosing describe block. */
export interface Instances {
  one: Sandbox;
  other: Sandbox;
  database: string;
  /** Stops both and starts them anew on the same database. */
  restart(): Promise<void>;
}

export function useTwoInstances(settings: Record<string, string> = {}): Instances {
  const database = temporaryDatabase();
  const start = async () => {
    instances.one = await startSandbox(settings, database);
    instances.other = await startSandbox(settings, database);
  };
  const stop = async () => {
    await instances.one.close();
    await instances.other.close();
  };
  const instances = { database, restart: async () => (await stop(), await start()) } as Instances;
  beforeAll(start, START_TIMEOUT_MS);
  afterAll(async () => {
    await stop();
    await removeDatabase(database);
  }, START_TIMEOUT_MS);
  return instances;
}

/** The headers every /v1 request needs; the X-Request-ID is fresh each time. */
export function tppHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { Authorization: 'Bearer sandbox-token', 'X-Request-ID': randomUUID(), ...extra };
}

/**
 * Creates a consent to every service on every account (valid at once in SCA_MODE=auto) and answers
 * its ID; `created` is the profile's creation status. allPsd2: under the seed bank's access rules
 * the same as availableAccounts, under Berlin Group's the one that grants balances and transactions.
 */
export async function allAccountsConsent(http: App, terms: object = {}, created: number = CREATED): Promise<string> {
  const body = {
    access: { allPsd2: 'allAccounts' },
    recurringIndicator: true,
    combinedServiceIndicator: false,
    validUntil: '2026-06-30',
    frequencyPerDay: 4,
    ...terms,
  };
  const response = await request(http).post('/v1/consents').set(tppHeaders()).send(body).expect(created);
  return response.body.consentId;
}

/**
 * The Berlin Group error body with one message, as the bank writes it (`toEqualBody` shapes it for
 * the run's profile); `list` names the list where Berlin Group's answers name it otherwise
 * (`apiClientMessages` on the Verification of Party operations).
 */
export function tppError(code: string, text: string, path: string | null = null, list = 'tppMessages') {
  return { [list]: [{ category: 'ERROR', code, path, text }], _links: null };
}

/** The 401 text of a request without a bearer token, which says where to get one in either AUTH_MODE (docs/security.md). */
export const TOKEN_MISSING = {
  open: '{sensitive} XS2A007E: an Authorization header "Bearer <token>" is required: POST /oauth2/token with grant_type=client_credentials and any client_id answers one',
  strict:
    '{sensitive} XS2A007E: an Authorization header "Bearer <token>" is required: POST /oauth2/token with grant_type=client_credentials, a client_id and its client_secret answers one: those POST /register (RFC 7591) answers, or a fixture client’s (docs/security.md)',
};

/** HTTP Basic client credentials, as the token endpoint takes them. */
export const basic = (clientId: string, secret: string) => `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;

/** A fresh token of a fixture client (profiles/bank/fixtures/clients.json). */
export async function issueToken(http: App, clientId = 'sandbox-tpp', secret = 'sandbox-secret'): Promise<string> {
  const response = await request(http)
    .post('/oauth2/token')
    .set('Authorization', basic(clientId, secret))
    .type('form')
    .send('grant_type=client_credentials')
    .expect(200);
  return response.body.access_token;
}

/** A client in a world of its own (AUTH_MODE=strict): each request carries its token, fresh tppHeaders and `always`. */
export interface WorldClient {
  send(method: 'get' | 'post' | 'put' | 'delete', path: string, body?: object, headers?: Record<string, string>): request.Test;
}

export async function worldClient(http: App, clientId: string, secret: string, always: Record<string, string> = {}): Promise<WorldClient> {
  const token = await issueToken(http, clientId, secret);
  return {
    send: (method, path, body, headers = {}) => {
      const call = request(http)
        [method](path)
        .set(tppHeaders({ Authorization: `Bearer ${token}`, ...always, ...headers }));
      return body ? call.send(body) : call;
    },
  };
}

/** A client that registered itself (RFC 7591) and a token of it, got from `tokenFrom` (another instance, say). */
export async function registerClient(
  http: App,
  name: string,
  tokenFrom: App = http,
): Promise<{ clientId: string; clientSecret: string; registrationToken: string; token: string }> {
  const registered = (
    await request(http)
      .post('/register')
      .send({ client_name: name, redirect_uris: ['https://tpp.example/cb'] })
      .expect(201)
  ).body;
  const token = (
    await request(tokenFrom)
      .post('/oauth2/token')
      .auth(registered.client_id, registered.client_secret)
      .type('form')
      .send('grant_type=client_credentials')
      .expect(200)
  ).body.access_token as string;
  return {
    clientId: registered.client_id,
    clientSecret: registered.client_secret,
    registrationToken: registered.registration_access_token,
    token,
  };
}
