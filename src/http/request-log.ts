import { Global, Injectable, Module } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { WorldRequest, World } from '../world/world';

/** One request as the cockpit lists it (docs/cockpit.md). */
export interface AnsweredRequest {
  at: string;
  method: string;
  /** Without the query string, which may carry what must not be shown (docs/operations.md, "Logs"). */
  path: string;
  status: number;
  /** The error's code and message number, e.g. `TOKEN_INVALID XS2A007E`; null for a success. */
  errorCode: string | null;
  requestId: string;
  ownerId: string | null;
  /** The serial number of the certificate that passed the checks (docs/tpp-identity.md); null for none. */
  certificate: string | null;
}

/** How many requests are kept: enough for "why did my call fail?", bounded whatever the load. */
const KEPT = 200;

/**
 * The last requests this process answered, newest first, in memory; the cockpit's own pages are
 * not among them. A ring of KEPT entries: each request overwrites the oldest, where shifting an
 * array of 200 on every request cost a GET about 3 % of its CPU (docs/benchmark.md).
 */
@Injectable()
export class RequestLog {
  private readonly ring: AnsweredRequest[] = [];
  /** Where the next entry goes. */
  private next = 0;

  /** Middleware (app.factory.ts): notes each request once its answer is sent. */
  readonly observe = (request: Request, response: Response, next: NextFunction): void => {
    const path = request.originalUrl.split('?')[0];
    if (!path.startsWith('/cockpit')) {
      response.once('finish', () => {
        this.ring[this.next] = {
          at: new Date().toISOString(),
          method: request.method,
          path,
          status: response.statusCode,
          errorCode: (response.locals.errorCode as string | undefined) ?? null,
          requestId: String(response.getHeader('X-Request-ID')),
          ownerId: (request as WorldRequest).world?.ownerId ?? null,
          certificate: (response.locals.certificate as string | undefined) ?? null,
        };
        this.next = (this.next + 1) % KEPT;
      });
    }
    next();
  };

  /** A client (AUTH_MODE=strict) sees the requests made with its own token. */
  list(world: World): AnsweredRequest[] {
    const newestFirst = [...this.ring.slice(0, this.next).reverse(), ...this.ring.slice(this.next).reverse()];
    return world.clientId === null ? newestFirst : newestFirst.filter((entry) => entry.ownerId === world.clientId);
  }
}

@Global()
@Module({ providers: [RequestLog], exports: [RequestLog] })
export class RequestLogModule {}
