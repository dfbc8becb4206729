import { randomUUID } from 'node:crypto';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/**
 * Echoes X-Request-ID on every response, errors included, and makes one up where none came, so
 * that even a refusal for the missing header can be traced (docs/behaviour.md). Registered before
 * the body parser (app.factory.ts) so that even a body that fails to parse gets its request ID
 * back. A header sent twice counts by its first value: Node would join both with ", ", and one
 * bank client's HTTP builder does append a second one.
 */
export function echoRequestId(request: Request, response: Response, next: NextFunction): void {
  const joined = request.headers['x-request-id'];
  // Only a value Node joined (it holds ", ") needs the raw headers to find the first one sent.
  const first = joined?.includes(',')
    ? request.rawHeaders[request.rawHeaders.findIndex((name, position) => position % 2 === 0 && name.toLowerCase() === 'x-request-id') + 1]
    : joined;
  if (first !== undefined) request.headers['x-request-id'] = first;
  response.setHeader('X-Request-ID', first || randomUUID());
  next();
}

/**
 * The request's X-Request-ID as a handler parameter. Nest's @Headers('x-request-id') would document
 * the header a second time, beside the X-Request-ID every operation documents, and a generated
 * client would get two parameters; RequestGuard has checked it is a UUID.
 */
export const RequestId = createParamDecorator((_: unknown, context: ExecutionContext): string =>
  context.switchToHttp().getRequest<Request>().header('x-request-id')!,
);
