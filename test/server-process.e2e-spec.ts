import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { removeDatabase, temporaryDatabase } from './support/sandbox';
import { builtServer, freePort, ServerProcess, spawnServer, waitForHealth } from './support/server-process';

jest.setTimeout(60_000);

const TOKEN = 'secret-token-7f3a';
/** An X-Request-ID the server made up for a request that sent none: a random UUID. */
const MADE_UP = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The server as `npm run start:prod` runs it: the run's build (jest's global setup) in its own process. */
function startServer(port: number, databasePath: string): ServerProcess {
  const build = builtServer();
  return spawnServer([build.main], {
    NODE_PATH: build.nodePath,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    PORT: String(port),
    DATABASE_PATH: databasePath,
    SANDBOX_DATE: '2026-03-15',
  });
}

function requestLines(output: string) {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .filter((line) => line.req);
}

describe('the server process', () => {
  const databasePath = temporaryDatabase();
  let server: ServerProcess;
  let base: string;
  let exit: { code: number | null; signal: NodeJS.Signals | null };
  const sent: { requestId: unknown; method: string; path: string; status: number }[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = startServer(port, databasePath);
    await waitForHealth(base);
    // The poll that answered: it sent no X-Request-ID, so its answer and its log line carry a made-up one.
    sent.push({ requestId: expect.stringMatching(MADE_UP), method: 'GET', path: '/health', status: 200 });
    const call = async (method: string, path: string, status: number, headers: Record<string, string>, body?: object) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', ...headers },
        body: body && JSON.stringify(body),
      });
      expect(response.status).toBe(status);
      // The ID sent, or the one the answer made up; the log line carries the same.
      const requestId = response.headers.get('x-request-id');
      expect(requestId).toEqual(headers['X-Request-ID'] ?? expect.stringMatching(MADE_UP));
      sent.push({ requestId, method, path: path.split('?')[0], status });
    };
    const auth = () => ({ Authorization: `Bearer ${TOKEN}`, 'X-Request-ID': randomUUID() });
    await call('GET', '/v1/consents/e6151d43-dca8-4fe1-b139-3a89bfeb57a2/status', 200, auth());
    await call('GET', '/v1/accounts?withBalance=true', 200, { ...auth(), 'Consent-ID': 'e6151d43-dca8-4fe1-b139-3a89bfeb57a2' });
    await call('POST', '/v1/consents', 200, auth(), {
      access: { availableAccounts: 'allAccounts' },
      recurringIndicator: true,
      combinedServiceIndicator: false,
      validUntil: '2026-06-30',
      frequencyPerDay: 4,
    });
    await call('GET', '/v1/nowhere', 404, auth());
    await call('GET', '/v1/accounts', 401, { 'X-Request-ID': randomUUID() });
    await call('GET', '/health', 200, {});
    // The server logs a request when it has finished sending it, which may be just after the client has it.
    for (let attempt = 0; attempt < 50 && requestLines(server.output()).length < sent.length; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    server.child.kill('SIGTERM');
    exit = await server.exited;
  });
  afterAll(() => removeDatabase(databasePath));

  it('writes one JSON log line per request: request ID, method, path, status, duration', () => {
    const requests = requestLines(server.output());
    expect(requests).toHaveLength(sent.length);
    for (const [index, { requestId, method, path, status }] of sent.entries()) {
      expect(requests[index]).toMatchObject({ requestId, req: { method, path }, res: { status }, responseTime: expect.any(Number) });
      expect(Object.keys(requests[index].req).sort()).toEqual(['method', 'path']);
    }
  });

  it('never logs the token, nor any header', () => {
    expect(server.output()).not.toContain(TOKEN);
    // No header by name (a route's path may hold the word: /.well-known/oauth-authorization-server).
    expect(server.output()).not.toMatch(/"headers"|"authorization"/i);
  });

  it('on SIGTERM closes the database cleanly, then ends by that signal (Nest re-raises it after its shutdown hooks)', () => {
    expect(exit).toEqual({ code: null, signal: 'SIGTERM' });
    // The last connection to close checkpoints the write-ahead log and removes it.
    expect(existsSync(`${databasePath}-wal`)).toBe(false);
    expect(existsSync(databasePath)).toBe(true);
  });
});
