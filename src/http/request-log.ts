import { Global, Injectable, Module } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ConfigService } from '@nestjs/config';
import type { Environment } from '../config/environment';
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
  /** The serial number of the certificate that passed the checks (docs/tpp-identity.md); null for none. */
  certificate: string | null;
}

/** How many requests are kept a world: enough for "why did my call fail?", bounded whatever the load. */
const KEPT = 200;

/** How many worlds' logs an instance keeps: the least recently active one's goes first. */
const WORLDS_KEPT = 100;

/**
 * One world's last KEPT requests: each overwrites the oldest, where shifting an array of 200 on
 * every request cost a GET about 3 % of its CPU (docs/benchmark.md).
 */
class Ring {
  private readonly entries: AnsweredRequest[] = [];
  /** Where the next entry goes. */
  private next = 0;

  add(entry: AnsweredRequest): void {
    this.entries[this.next] = entry;
    this.next = (this.next + 1) % KEPT;
  }

  newestFirst(): AnsweredRequest[] {
    return [...this.entries.slice(0, this.next).reverse(), ...this.entries.slice(this.next).reverse()];
  }
}

/**
 * The last requests this process answered, newest first, in memory, a log for each world
 * (docs/cockpit.md): another client's requests never push a client's out. A request is written in
 * a world only once it proved it is the world's, by its token or by a certificate that passed
 * every check (TppIdentityGuard): a published certificate with a bogus signature writes nothing
 * in its owner's log. The cockpit's own pages are not among them.
 */
@Injectable()
export class RequestLog {
  /** By world key ("" for the open world), least recently written first. */
  private readonly rings = new Map<string, Ring>();

  private readonly strict: boolean;

  constructor(config: ConfigService<Environment, true>) {
    this.strict = config.get('AUTH_MODE', { infer: true }) === 'strict';
  }

  /** Middleware (app.factory.ts): notes each request once its answer is sent. */
  readonly observe = (request: Request, response: Response, next: NextFunction): void => {
    if (!request.originalUrl.startsWith('/cockpit')) {
      // `on`, not `once`: a response finishes once, and is then let go with its listener.
      response.on('finish', () => {
        const { world, worldByToken } = request as WorldRequest;
        const proven = world && (worldByToken || response.locals.certificate !== undefined) ? world : null;
        // Open mode has one log, as one world; in strict mode a request of no proven world is no client's to see.
        if (this.strict && proven?.clientId == null) return;
        this.ringOf(this.strict ? proven!.key : '').add({
          at: new Date().toISOString(),
          method: request.method,
          path: request.originalUrl.split('?')[0],
          status: response.statusCode,
          errorCode: (response.locals.errorCode as string | undefined) ?? null,
          requestId: String(response.getHeader('X-Request-ID')),
          certificate: (response.locals.certificate as string | undefined) ?? null,
        });
      });
    }
    next();
  };

  /** The world's requests: in AUTH_MODE=strict the client's own; in open mode every request. */
  list(world: World): AnsweredRequest[] {
    return this.rings.get(this.strict ? world.key : '')?.newestFirst() ?? [];
  }

  private ringOf(key: string): Ring {
    const ring = this.rings.get(key) ?? new Ring();
    // Written last, so kept longest (a Map iterates in insertion order).
    this.rings.delete(key);
    this.rings.set(key, ring);
    if (this.rings.size > WORLDS_KEPT) this.rings.delete(this.rings.keys().next().value!);
    return ring;
  }
}

@Global()
@Module({ providers: [RequestLog], exports: [RequestLog] })
export class RequestLogModule {}
