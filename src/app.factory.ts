import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { documentForProfile } from './served-document';
import { RouteAccessCheck } from './http/route-access';
import { BankProfile } from './profile/bank-profile';
import { SERVICES } from './services';
import { json, text, urlencoded } from 'express';
import { refuseDeepJson } from './http/json-depth';
import { bodyParsers } from './http/body-parsers';
import { refuseUnsafeXml, XML_MEDIA_TYPES } from './http/xml';
import { echoRequestId } from './http/request-id.middleware';
import { withRequestContext } from './http/request-context';
import { SettlingExpressAdapter } from './http/owed-writes';
import { RequestLog } from './http/request-log';
import type { RawBodyRequest } from './tpp-identity/tpp-identity.guard';
import { answerUnparsableRequests, refuseHostless, refuseNul } from './http/unparsable-request';
import { exampleValues, filledExamples } from './common/document-examples';
import { AnswerMemo } from './common/answer-memo';
import { ClockService } from './clock/clock.service';
import { World } from './world/world';
import { HOW_TO_GET_ONE } from './oauth/token.service';
import { ConfigService } from '@nestjs/config';
import type { Environment } from './config/environment';

/** The app exactly as it serves, for main.ts and for the e2e tests: settings come from process.env. */
export async function createApp(): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(), new SettlingExpressAdapter(), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  // Order matters: the request ID is echoed before the body parser can fail.
  app.use(echoRequestId);
  app.use(app.get(RequestLog).observe); // the cockpit's last requests (docs/cockpit.md)
  app.use(withRequestContext); // what the event history names as the cause (docs/events.md)
  app.use(refuseHostless);
  app.use(
    bodyParsers([
      json({ limit: '100kb', verify: checkedAndKept(refuseDeepJson) }),
      // A pain.001 (docs/formats.md): read as text here, parsed by the route that takes one.
      text({ type: XML_MEDIA_TYPES, limit: '100kb', verify: checkedAndKept(refuseUnsafeXml) }),
      urlencoded({ extended: false, limit: '100kb' }), // the SCA pages' forms
    ]),
  );
  app.use(refuseNul);
  app.set('x-powered-by', false);
  app.set('etag', false); // no client revalidates these answers; hashing every body only costs time
  trustProxies(app);
  answerUnparsableRequests(app.getHttpServer(), app.get(BankProfile).answers);

  // Built once; its examples' dates are filled in at each request, from the sandbox's today (document-examples.ts).
  SwaggerModule.setup('docs', app, () => documentTemplate(app), {
    jsonDocumentUrl: 'docs-json',
    patchDocumentOnRequest: (request, response, document) => withExamples(app, document),
    swaggerOptions: {
      filter: true,
      // No Schemas section: rendered again at each click, it cost a fifth of each (docs/development.md, "The served document").
      defaultModelsExpandDepth: -1,
      persistAuthorization: true,
      // Each operation opens ready to send its example: a sandbox's page is there to be tried (docs/development.md, "The served document").
      tryItOutEnabled: true,
      requestInterceptor: freshRequestIds,
      plugins: [downloadUrl, wholeXmlExamples, tagOrPathFilter],
    },
  });
  return app;
}

/** body-parser's `verify`: the body's check, then its bytes kept, which a Digest is the hash of (docs/tpp-identity.md). */
const checkedAndKept =
  (check: (request: RawBodyRequest, response: unknown, body: Buffer) => void) =>
  (request: RawBodyRequest, response: unknown, body: Buffer): void => {
    check(request, response, body);
    request.rawBody = body;
  };

/** TRUST_PROXY: the proxies whose X-Forwarded-For the request's address (`@Ip()`) is read from; one Express cannot read stops the start. */
function trustProxies(app: NestExpressApplication): void {
  const trusted = app.get<ConfigService<Environment, true>>(ConfigService).get('TRUST_PROXY', { infer: true });
  if (trusted === undefined) return;
  try {
    app.set(
      'trust proxy',
      trusted.split(',').map((entry) => entry.trim()),
    );
  } catch (error) {
    throw new Error(`Invalid configuration:\n  TRUST_PROXY=${JSON.stringify(trusted)}: ${(error as Error).message}`);
  }
}

/**
 * Swagger UI's request interceptor, run in the browser (Swagger UI sends its source as it stands):
 * an X-Request-ID this tab sent before, the prefilled one on a second Execute or after a reload, is
 * sent as a fresh UUID, so that each Execute is a request of its own (docs/development.md, "The
 * served document"). The tab's sessionStorage keeps what it sent across reloads.
 */
function freshRequestIds(request: { headers: Record<string, string> }): { headers: Record<string, string> } {
  const sent = (
    globalThis as unknown as { sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void } }
  ).sessionStorage;
  const key = (id: string) => `sent X-Request-ID ${id}`;
  const id = request.headers['X-Request-ID'];
  // randomUUID only in a secure context (https, localhost); getRandomValues everywhere.
  const uuid = () =>
    typeof crypto.randomUUID === 'function'
      ? crypto.randomUUID()
      : '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (digit) =>
          (Number(digit) ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (Number(digit) / 4)))).toString(16),
        );
  if (id !== undefined && sent.getItem(key(id)) !== null) request.headers['X-Request-ID'] = uuid();
  if (id !== undefined) sent.setItem(key(request.headers['X-Request-ID']), '');
  return request;
}

/** Swagger UI's own plugin of its default list, which a list of plugins replaces (run in the browser). */
function downloadUrl(system: unknown): unknown {
  return (
    globalThis as unknown as { SwaggerUIBundle: { plugins: { DownloadUrl: (system: unknown) => unknown } } }
  ).SwaggerUIBundle.plugins.DownloadUrl(system);
}

/**
 * A Swagger UI plugin, run in the browser: an XML body or answer whose example is a whole document
 * (a pain.001, a pain.002, a camt) is shown, prefilled and sent as that document. Swagger UI makes
 * XML from a schema's properties and wraps a string example in `<notagname>` (docs/formats.md).
 */
function wholeXmlExamples(): { fn: { getXmlSampleSchema: (schema: unknown, config: unknown, example: unknown) => string } } {
  return { fn: { getXmlSampleSchema: (_schema, _config, example) => (typeof example === 'string' ? example : '') } };
}

/** What of Swagger UI's (Immutable.js) tagged operations the filter reads. */
interface TaggedOperations {
  map(each: (tag: OperationsOfTag, name: string) => OperationsOfTag): TaggedOperations;
  filter(keep: (tag: OperationsOfTag) => boolean): TaggedOperations;
}
interface OperationsOfTag {
  get(key: 'operations'): { size: number; filter(keep: (operation: { get(key: 'method' | 'path'): string }) => boolean): unknown };
  set(key: 'operations', operations: unknown): OperationsOfTag;
}

/**
 * A Swagger UI plugin, run in the browser: the filter box keeps a tag whose name holds what is typed
 * (Swagger UI's own rule, case counting) and, of the other tags, the operations whose method and
 * path hold it (`GET /v1/accounts`, `/authorisations`): one operation of over a hundred is found by
 * its path (docs/development.md, "The served document").
 */
function tagOrPathFilter(): { fn: { opsFilter: (tags: TaggedOperations, phrase: string) => TaggedOperations } } {
  return {
    fn: {
      opsFilter: (tags, phrase) =>
        tags
          .map((tag, name) =>
            name.includes(phrase)
              ? tag
              : tag.set(
                  'operations',
                  tag
                    .get('operations')
                    .filter((operation) => `${operation.get('method').toUpperCase()} ${operation.get('path')}`.includes(phrase)),
                ),
          )
          .filter((tag) => tag.get('operations').size > 0),
    },
  };
}

/** The document /docs-json serves now, for the profile in force; the e2e suite checks every answer against it. */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  return withExamples(app, documentTemplate(app));
}

/** The filled document of each built one and date: filled once a date, not at every request of it (an unauthenticated route). */
const filled = new AnswerMemo<OpenAPIObject>(2);

const withExamples = (app: INestApplication, document: OpenAPIObject): OpenAPIObject => {
  const today = app.get(ClockService).today(World.open);
  return (
    filled.recall(document, today) ?? filled.keep(document, today, filledExamples(document, exampleValues(app.get(BankProfile)), today))
  );
};

function documentTemplate(app: INestApplication): OpenAPIObject {
  const profile = app.get(BankProfile);
  const config = app.get<ConfigService<Environment, true>>(ConfigService);
  const strict = config.get('AUTH_MODE', { infer: true }) === 'strict';
  const builder = new DocumentBuilder()
    .setTitle(`PSD2 sandbox: ${profile.name}`)
    .setDescription(
      `A stateful sandbox of a bank's Berlin Group NextGenPSD2 (XS2A) interface: consents, account information, payment initiation, SCA authorisations and sandbox control.\n\n${profile.summary()}`,
    )
    .setVersion('1')
    .addServer(config.get('PUBLIC_BASE_URL', { infer: true }), profile.name)
    // Tokens are opaque: Nest's default bearerFormat JWT is taken out; the dialog says where to get one.
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: undefined,
      description: `A bearer token: ${strict ? HOW_TO_GET_ONE.strict : HOW_TO_GET_ONE.open}.`,
    })
    .addBasicAuth({
      type: 'http',
      scheme: 'basic',
      description: 'The token endpoint’s client authentication: client_id and client_secret.',
    })
    .build();
  return documentForProfile(SwaggerModule.createDocument(app, builder), profile, SERVICES, app.get(RouteAccessCheck).routes());
}
