import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';

/** What Node's servers take to make each request and response (node:http, createServer's options). */
export interface RequestClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

const made = new WeakMap<Express, RequestClasses>();

/**
 * The classes Node makes an app's requests and responses of: their prototypes are the app's own
 * (`app.request`, `app.response`), so Express's `Object.setPrototypeOf` at each request finds the
 * prototype already there and changes nothing. Changed after the object is made, on this V8 every
 * property added later (`req.next`, `req.params`, the world…) gave each request and response a
 * shape of its own: each read of them then missed V8's caches, and the shapes were garbage. A GET
 * of the account list cost a third of what it did without them (docs/benchmark.md, "What was tried").
 */
export function requestClasses(app: Express): RequestClasses {
  const known = made.get(app);
  if (known) return known;
  class SandboxRequest extends IncomingMessage {}
  class SandboxResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
  own(app, 'request', SandboxRequest.prototype);
  own(app, 'response', SandboxResponse.prototype);
  const classes = { IncomingMessage: SandboxRequest, ServerResponse: SandboxResponse };
  made.set(app, classes);
  return classes;
}

/** The class's prototype becomes the app's: Express's methods under it, and what Express put on the app's own (`app`). */
function own(app: Express, key: 'request' | 'response', prototype: object): void {
  Object.setPrototypeOf(prototype, Object.getPrototypeOf(app[key]) as object);
  Object.defineProperties(prototype, Object.getOwnPropertyDescriptors(app[key]));
  (app as Record<typeof key, unknown>)[key] = prototype;
}

/** Nest's Express adapter, its HTTP server making requests of the app's classes. */
export class ClassedExpressAdapter extends ExpressAdapter {
  /**
   * A plain HTTP server, as the app asks (app.factory.ts; the mTLS listener is a server of its
   * own). Nest's options for HTTPS or for closing connections at shutdown would be dropped here,
   * so they stop the start instead.
   */
  override initHttpServer(options: NestApplicationOptions = {}): void {
    const unsupported = (['httpsOptions', 'forceCloseConnections'] as const).filter((option) => options[option]);
    if (unsupported.length > 0)
      throw new Error(`ClassedExpressAdapter makes a plain HTTP server and does not take ${unsupported.join(' or ')}`);
    const app = this.getInstance<Express>();
    this.httpServer = createServer(requestClasses(app), app) as Server;
  }
}
