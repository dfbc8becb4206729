import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Express's body parsers, one after the other, for a request that carries a body: one with neither
 * Transfer-Encoding nor Content-Length has none (RFC 9112 §6.3), which each parser would find out
 * for itself, three times on every GET (docs/benchmark.md, "What was tried").
 */
export function bodyParsers(parsers: RequestHandler[]): RequestHandler {
  return (request: Request, response: Response, next: NextFunction): void => {
    if (request.headers['transfer-encoding'] === undefined && request.headers['content-length'] === undefined) {
      next();
      return;
    }
    const from =
      (index: number) =>
      (error?: unknown): void => {
        if (error !== undefined || index === parsers.length) next(error);
        else parsers[index](request, response, from(index + 1));
      };
    from(0)();
  };
}
