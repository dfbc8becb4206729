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
import { refuseDeepJson } from './http/json-depth';
import { echoRequestId } from './http/request-id.middleware';
import { withRequestContext } from './http/request-context';
import { RequestLog } from './http/request-log';
import type { RawBodyRequest } from './tpp-identity/tpp-identity.guard';
import { answerUnparsableRequests, refuseHostless, refuseNul } from './http/unparsable-request';

/** The app exactly as it serves, for main.ts and for the e2e tests: settings come from process.env. */
export async function createApp(): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(), {
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
  app.useBodyParser('json', {
    limit: '100kb',
    verify: (request: RawBodyRequest, response: unknown, body: Buffer) => {
      refuseDeepJson(request, response, body);
      request.rawBody = body; // the bytes a Digest is the hash of (docs/tpp-identity.md)
    },
  });
  app.useBodyParser('urlencoded', { extended: false, limit: '100kb' }); // the SCA pages' forms
  app.use(refuseNul);
  app.set('x-powered-by', false);
  app.set('etag', false); // no client revalidates these answers; hashing every body only costs time
  answerUnparsableRequests(app.getHttpServer(), app.get(BankProfile).answers);

  SwaggerModule.setup('docs', app, () => openApiDocument(app), { jsonDocumentUrl: 'docs-json' });
  return app;
}

/** The document /docs-json serves, for the profile in force; the e2e suite checks every answer against it. */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const profile = app.get(BankProfile);
  const config = new DocumentBuilder()
    .setTitle(`PSD2 sandbox: ${profile.name}`)
    .setDescription(
      `A stateful sandbox of a bank's Berlin Group NextGenPSD2 (XS2A) interface: consents, account information, payment initiation, SCA authorisations and sandbox control.\n\n${profile.summary()}`,
    )
    .setVersion('1')
    .addBearerAuth()
    .addBasicAuth()
    .build();
  return documentForProfile(SwaggerModule.createDocument(app, config), profile, SERVICES, app.get(RouteAccessCheck).routes());
}
