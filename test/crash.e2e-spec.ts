import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { sepaPayment } from './support/fixtures';
import { removeDatabase, temporaryDatabasePath } from './support/sandbox';
import { buildServer, freePort, ServerProcess, spawnServer, waitForHealth } from './support/server-process';

jest.setTimeout(120_000);

const CLIENTS = 16;
const headers = () => ({ Authorization: 'Bearer sandbox-token', 'X-Request-ID': randomUUID(), 'Content-Type': 'application/json', 'PSU-IP-Address': '192.0.2.10' });
const payment = (n: number) => sepaPayment(`${n}.01`, { endToEndIdentification: `CRASH-${n}` });

/** Kill -9 under load: whatever was answered 200 is there after a restart, and the file is sound. */
describe('crash safety: the built server killed with SIGKILL while payments pour in', () => {
  const databasePath = temporaryDatabasePath();
  let build: ReturnType<typeof buildServer>;
  let base: string;
  let port: number;
  const start = (): ServerProcess =>
    spawnServer([build.main], {
      NODE_PATH: build.nodePath,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      DATABASE_PATH: databasePath,
      SANDBOX_DATE: '2026-03-15',
      SCA_MODE: 'redirect',
    });
  const acknowledged = new Map<string, number>();
  let refused = 0;

  beforeAll(async () => {
    build = buildServer();
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const server = start();
    await waitForHealth(base);

    let next = 0;
    // Each client posts until the server is gone: the kill lands while all of them are sending.
    const client = async () => {
      for (;;) {
        const n = next++;
        try {
          const response = await fetch(`${base}/v1/payments/sepa-credit-transfers`, { method: 'POST', headers: headers(), body: JSON.stringify(payment(n)) });
          const body = (await response.json()) as { paymentId?: string };
          if (response.status === 200) acknowledged.set(body.paymentId!, n);
        } catch {
          refused++; // the connection died with the server: this one was never acknowledged
          return;
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, client);
    // Kill once the load is well under way, with requests in flight.
    while (acknowledged.size < 300) await new Promise((resolve) => setTimeout(resolve, 10));
    server.child.kill('SIGKILL');
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await Promise.all(clients);
  });
  afterAll(() => {
    removeDatabase(databasePath);
    rmSync(build.folder, { recursive: true, force: true });
  });

  it('the file passes PRAGMA integrity_check straight after the kill', () => {
    expect(refused).toBe(CLIENTS); // every client was still sending when the server died
    const database = new Database(databasePath);
    try {
      expect(database.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(database.pragma('journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    } finally {
      database.close();
    }
  });

  it('after a restart on the same file, every payment answered 200 is there, RCVD, as it was sent', async () => {
    const server = start();
    try {
      await waitForHealth(base);
      for (const [paymentId, n] of acknowledged) {
        const response = await fetch(`${base}/v1/payments/sepa-credit-transfers/${paymentId}`, { headers: headers() });
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ ...payment(n), transactionStatus: 'RCVD' });
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    const database = new Database(databasePath, { readonly: true });
    try {
      expect(database.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const stored = database.prepare('SELECT COUNT(*) AS n FROM payments').get() as { n: number };
      expect(stored.n).toBeGreaterThanOrEqual(acknowledged.size);
    } finally {
      database.close();
    }
  });
});
