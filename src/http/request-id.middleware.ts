import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/**
 * Echoes X-Request-ID on every response, errors included, and makes one up where none came, so
 * that even a refusal for the missing header can be traced (docs/behaviour.md). Registered before
 * the body parser (app.factory.ts) so that even a body that fails to parse gets its request ID
 * back. A header sent twice counts by its first value: Node would join both with ", ", and one
 * bank client's HTTP builder does append a second one.
 */
export function echoRequestId(request: Request, response: Response, next: NextFunction): void {
  const index = request.rawHeaders.findIndex((name, position) => position % 2 === 0 && name.toLowerCase() === 'x-request-id');
  const first = index >= 0 ? request.rawHeaders[index + 1] : undefined;
  if (first !== undefined) request.headers['x-request-id'] = first;
  response.setHeader('X-Request-ID', first || randomUUID());
  next();
}
