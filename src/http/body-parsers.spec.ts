import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { bodyParsers } from './body-parsers';

describe('bodyParsers', () => {
  const run = (headers: Record<string, string | undefined>, parsers: RequestHandler[]) => {
    const calls: unknown[][] = [];
    const next = ((error?: unknown) => calls.push(error === undefined ? [] : [error])) as NextFunction;
    bodyParsers(parsers)({ headers } as Request, {} as Response, next);
    return calls;
  };
  const parser =
    (name: string, seen: string[], error?: Error): RequestHandler =>
    (_request, _response, next) => {
      seen.push(name);
      next(error);
    };

  it('runs no parser for a request with neither Content-Length nor Transfer-Encoding, and goes on once', () => {
    const seen: string[] = [];
    expect(run({ accept: 'application/json' }, [parser('json', seen), parser('text', seen)])).toEqual([[]]);
    expect(seen).toEqual([]);
  });

  it.each([{ 'content-length': '0' }, { 'content-length': '12' }, { 'transfer-encoding': 'chunked' }])(
    'runs every parser, in order, for a request with %j, then goes on once',
    (headers) => {
      const seen: string[] = [];
      expect(run(headers, [parser('json', seen), parser('text', seen), parser('urlencoded', seen)])).toEqual([[]]);
      expect(seen).toEqual(['json', 'text', 'urlencoded']);
    },
  );

  it("stops at a parser's error and hands it on, once", () => {
    const seen: string[] = [];
    const refused = new Error('the body nests deeper than 32 levels');
    expect(run({ 'content-length': '5000' }, [parser('json', seen, refused), parser('text', seen)])).toEqual([[refused]]);
    expect(seen).toEqual(['json']);
  });
});
