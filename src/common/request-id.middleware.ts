import type { NextFunction, Request, Response } from 'express';

/**
 * Echoes X-Request-ID on every response, errors included. Registered before the body parser
 * (app.factory.ts) so that even a body that fails to parse gets its request ID back.
 */
export function echoRequestId(request: Request, response: Response, next: NextFunction): void {
  const requestId = request.header('x-request-id');
  if (requestId) response.setHeader('X-Request-ID', requestId);
  next();
}
