import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import express from 'express';
import { ClassedExpressAdapter, requestClasses } from './request-classes';

describe("requests made of the app's classes (request-classes.ts)", () => {
  it("makes each request and response with Express's prototypes already theirs, so Express changes no prototype", async () => {
    const app = express();
    app.get('/echo', (request, response) => {
      response.status(201).json({ id: request.get('x-id'), sameApp: request.app === app && response.app === app });
    });
    const adapter = new ClassedExpressAdapter(app);
    adapter.initHttpServer();
    const server = adapter.getHttpServer() as Server;
    // Before Express's own listener: what Node made, before Express sets any prototype.
    const made: boolean[] = [];
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      made.push(Object.getPrototypeOf(request) === app.request, Object.getPrototypeOf(response) === app.response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/echo`, { headers: { 'X-Id': 'a1' } });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await answer.json()).toEqual({ id: 'a1', sameApp: true });
      expect(made).toEqual([true, true]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses the options it would otherwise drop: HTTPS and closing connections at shutdown', () => {
    const adapter = new ClassedExpressAdapter(express());
    expect(() => adapter.initHttpServer({ httpsOptions: { key: 'k', cert: 'c' } })).toThrow(
      new Error('ClassedExpressAdapter makes a plain HTTP server and does not take httpsOptions'),
    );
    expect(() => adapter.initHttpServer({ httpsOptions: {}, forceCloseConnections: true })).toThrow(
      new Error('ClassedExpressAdapter makes a plain HTTP server and does not take httpsOptions or forceCloseConnections'),
    );
    expect(adapter.getHttpServer()).toBeUndefined();
  });

  it("makes an app's classes once: a second server (the mTLS listener) gets the same ones", () => {
    const app = express();
    const first = requestClasses(app);
    const request = app.request;
    expect(requestClasses(app)).toBe(first);
    expect(app.request).toBe(request);
    expect(first.IncomingMessage.prototype).toBe(app.request);
    expect(first.ServerResponse.prototype).toBe(app.response);
  });
});
