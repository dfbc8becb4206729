import type { NextFunction, Request, Response } from 'express';
import { inRequestContext } from '../common/request-context';

/** Runs the rest of the request in its context (common/request-context.ts); after echoRequestId, which fixed its X-Request-ID. */
export function withRequestContext(_request: Request, response: Response, next: NextFunction): void {
  inRequestContext(String(response.getHeader('X-Request-ID')), next);
}
