import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source';
import { connect } from 'node:net';
import Database from 'better-sqlite3';
import { sepaPayment } from './support/fixtures';
import { removeDatabase, temporaryDatabase } from './support/sandbox';
import { builtServer, freePort, ServerProcess, spawnServer, waitForHealth } from './support/server-process';
import { SERVICES } from '../src/services';
import { schemaOf } from '../src/schema/schema';

jest.setTimeout(120_000);

const CLIENTS = 16;
const headers = () => ({
  Authorization: 'Bearer sandbox-token',
  'X-Request-ID': randomUUID(),
  'Content-Type': 'application/json',
  'PSU-IP-Address': '192.0.2.10',
});
const payment = (n: number) => sepaPayment(`${n}.01`, { endToEndIdentification: `STOP-${n}` });

/** The run's build (jest's global setup), as `npm run build` makes it. */
const build = builtServer();

/** The built server on its own port and database file, as `npm run start:prod` runs it; startable again on the same file. */
class BuiltSandbox {
  readonly database = temporaryDatabase();
  port = 0;

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<ServerProcess> {
    this.port ||= await freePort();
    const server = spawnServer([build.main], {
      NODE_PATH: build.nodePath,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(this.port),
      DATABASE_PATH: this.database,
      SANDBOX_DATE: '2026-03-15',
      SCA_MODE: 'redirect',
    });
    await waitForHealth(this.base);
    return server;
  }
}

interface Poured {
  /** paymentId → n of every payment answered 200. */
  acknowledged: Map<string, number>;
  /** The status of every answer the clients got. */
  statuses: Set<number>;
  /** Clients that ended on a connection error: the server had gone, or closed their connection. */
  cutOff: number;
  exit: Awaited<ServerProcess['exited']>;
}

/** CLIENTS clients post payments until the server is gone; `signal` lands once 300 are answered, with requests in flight. */
async function pourPaymentsUntil(signal: NodeJS.Signals, server: ServerProcess, base: string): Promise<Poured> {
  const poured = { acknowledged: new Map<string, number>(), statuses: new Set<number>(), cutOff: 0 };
  let next = 0;
  const client = async () => {
    for (;;) {
      const n = next++;
      try {
        const response = await fetch(`${base}/v1/payments/sepa-credit-transfers`, {
          method: 'POST',
          headers: headers(),
          body: JSON.stringify(payment(n)),
        });
        const body = (await response.json()) as { paymentId?: string };
        poured.statuses.add(response.status);
        if (response.status === 200) poured.acknowledged.set(body.paymentId!, n);
      } catch {
        poured.cutOff++; // never acknowledged
        return;
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, client);
  while (poured.acknowledged.size < 300) await new Promise((resolve) => setTimeout(resolve, 10));
  server.child.kill(signal);
  const exit = await server.exited;
  await Promise.all(clients);
  return { ...poured, exit };
}

/** A sandbox for the enclosing describe block, stopped by `signal` while payments pour in. */
function stoppedUnderLoad(signal: NodeJS.Signals): { sandbox: BuiltSandbox; poured: Poured } {
  const stopped = { sandbox: new BuiltSandbox(), poured: {} as Poured };
  beforeAll(async () =>
    Object.assign(stopped.poured, await pourPaymentsUntil(signal, await stopped.sandbox.start(), stopped.sandbox.base)),
  );
  afterAll(() => removeDatabase(stopped.sandbox.database));
  return stopped;
}

/** Restarts on the same file: every payment answered 200 is there, RCVD, as it was sent. */
async function expectAcknowledgedStored(sandbox: BuiltSandbox, acknowledged: Map<string, number>): Promise<void> {
  const server = await sandbox.start();
  try {
    for (const [paymentId, n] of acknowledged) {
      const response = await fetch(`${sandbox.base}/v1/payments/sepa-credit-transfers/${paymentId}`, { headers: headers() });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ ...payment(n), transactionStatus: 'RCVD' });
    }
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

function integrityOf(databasePath: string): unknown {
  const database = new Database(databasePath, { readonly: true });
  try {
    return database.pragma('integrity_check');
  } finally {
    database.close();
  }
}

describe('crash safety: the built server killed with SIGKILL while payments pour in', () => {
  const { sandbox, poured } = stoppedUnderLoad('SIGKILL');

  it('the file passes PRAGMA integrity_check straight after the kill, still in WAL mode', () => {
    expect(poured.exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(poured.cutOff).toBe(CLIENTS); // every client was still sending when the server died
    expect(integrityOf(sandbox.database)).toEqual([{ integrity_check: 'ok' }]);
    const database = new Database(sandbox.database);
    try {
      expect(database.pragma('journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    } finally {
      database.close();
    }
  });

  it('after a restart on the same file, every payment answered 200 is there, RCVD, as it was sent', async () => {
    await expectAcknowledgedStored(sandbox, poured.acknowledged);
    expect(integrityOf(sandbox.database)).toEqual([{ integrity_check: 'ok' }]);
  });
});

describe('a graceful stop: the built server sent SIGTERM while payments pour in', () => {
  const { sandbox, poured } = stoppedUnderLoad('SIGTERM');

  it('answers every request it took with 200, then ends by the signal with the database closed cleanly', () => {
    expect([...poured.statuses]).toEqual([200]); // no request in flight failed for the stop
    expect(poured.exit).toEqual({ code: null, signal: 'SIGTERM' });
    expect(poured.cutOff).toBe(CLIENTS);
    // The last connection to close checkpoints the write-ahead log and removes it.
    expect(existsSync(`${sandbox.database}-wal`)).toBe(false);
    expect(integrityOf(sandbox.database)).toEqual([{ integrity_check: 'ok' }]);
  });

  it('after a restart on the same file, every payment answered 200 is there, RCVD, as it was sent', async () => {
    await expectAcknowledgedStored(sandbox, poured.acknowledged);
  });
});

describe('a graceful stop with a request half sent on a keep-alive connection', () => {
  const sandbox = new BuiltSandbox();
  afterAll(() => removeDatabase(sandbox.database));

  it('answers it with Connection: close, closes the connection after the answer, and ends', async () => {
    const server = await sandbox.start();
    const body = JSON.stringify(payment(1));
    const request = (requestId: string) =>
      `POST /v1/payments/sepa-credit-transfers HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer sandbox-token\r\nX-Request-ID: ${requestId}\r\n` +
      `Content-Type: application/json\r\nPSU-IP-Address: 192.0.2.10\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const socket = connect(sandbox.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    /** The answers received so far, each from its status line on. */
    const answers = () => received.split(/(?=HTTP\/1\.1 )/).filter(Boolean);

    // A first exchange, kept alive; then the next request, its body not yet complete.
    socket.write(request(randomUUID()));
    while (answers().length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(answers()[0]).toMatch(/^Connection: keep-alive$/im);
    const second = request(randomUUID());
    socket.write(second.slice(0, -10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.write(second.slice(-10));

    await closed; // by the server, after its answer
    const [, secondAnswer] = answers();
    expect(secondAnswer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(secondAnswer).toMatch(/^Connection: close$/im);
    expect(await server.exited).toEqual({ code: null, signal: 'SIGTERM' });
  });
});

describe('the built server with a bad setting', () => {
  it.each([
    ['SCA_MODE', 'bogus', 'SCA_MODE="bogus": SCA_MODE must be one of the following values: auto, redirect'],
    ['AUTH_MODE', 'bogus', 'AUTH_MODE="bogus": AUTH_MODE must be one of the following values: open, strict'],
    [
      'SANDBOX_DATE',
      '2026-02-30',
      'SANDBOX_DATE="2026-02-30": SANDBOX_DATE must be a real date written YYYY-MM-DD, from 1000-01-01 to 9999-12-31',
    ],
  ])('%s=%s: exits 1 at once, naming it on stderr, as one JSON line where logs are JSON', async (name, value, line) => {
    for (const NODE_ENV of ['production', 'development']) {
      const databasePath = temporaryDatabase();
      const server = spawnServer([build.main], {
        NODE_PATH: build.nodePath,
        NODE_ENV,
        PORT: String(await freePort()),
        DATABASE_PATH: databasePath,
        [name]: value,
      });
      expect(await server.exited).toEqual({ code: 1, signal: null });
      const message = `Invalid configuration:\n  ${line}`;
      if (NODE_ENV === 'production') {
        expect(JSON.parse(server.errors())).toEqual({ level: 60, time: expect.any(Number), context: 'Sandbox', msg: message });
      } else {
        expect(server.errors()).toBe(`${message}\n`);
      }
      // Nothing was opened: the settings are read before the database.
      expect(existsSync(databasePath)).toBe(false);
      await removeDatabase(databasePath);
    }
  });
});

describe('the built server with a bad profile', () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-bad-profile-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  /** A profile folder extending the seed bank with `yaml` as its profile.yaml and `psus` (if given) as its psus.json. */
  const profile = (name: string, yaml: string, psus?: object[]) => {
    mkdirSync(join(folder, name, 'fixtures'), { recursive: true });
    writeFileSync(join(folder, name, 'profile.yaml'), yaml);
    if (psus) writeFileSync(join(folder, name, 'fixtures', 'psus.json'), JSON.stringify(psus));
    return join(folder, name);
  };
  /** Starts the built server on `path`'s profile: it exits 1 at once, opens no database, and answers what it said on stderr. */
  const refusedStart = async (path: string): Promise<string> => {
    const databasePath = temporaryDatabase();
    const server = spawnServer([build.main], {
      NODE_PATH: build.nodePath,
      NODE_ENV: 'development',
      PORT: String(await freePort()),
      DATABASE_PATH: databasePath,
      PROFILE: path,
    });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(existsSync(databasePath)).toBe(false);
    return server.errors();
  };

  const psu = {
    psuId: 'x.y',
    name: 'X Y',
    password: 'p',
    accounts: ['AT611904300234573201'],
    scaMethods: [],
    decoupledConfirmsAtPoll: null,
  };

  it.each([
    [
      'an unknown key',
      () => profile('unknown', 'extends: bank\nanswer: bank\n'),
      'profile.yaml: answer: unknown key; allowed: extends, name, bic, answers, scaApproaches, paymentProducts, transactionReports, consents, vop, scaExemptions, tpp, fixtures, fundsConfirmation, trustedBeneficiaries, cardAccounts, signingBaskets, permissionDashboard',
    ],
    [
      'a wrong value',
      () => profile('value', 'extends: bank\nscaApproaches: [redirect, sms]\n'),
      'profile.yaml: scaApproaches[1]: must be one of redirect, embedded, decoupled (got "sms")',
    ],
    [
      'a dangling account',
      () => profile('dangling', 'extends: bank\n', [psu]),
      'fixtures/psus.json: [0].accounts[0]: account AT611904300234573201 is not in accounts.json',
    ],
    [
      'unparsable YAML',
      () => profile('yaml', 'name: [unclosed\n'),
      'profile.yaml: not YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:',
    ],
  ])('%s: exits 1 at once with one line naming the file and the key, no stack trace', async (_, write, line) => {
    const path = write();
    expect(await refusedStart(path)).toBe(`PROFILE=${path} cannot be used:\n  ${relative(process.cwd(), path)}/${line}\n`);
  });

  it('tpp.qwac: header with TRUST_PROXY unset: exits 1 at once, naming both, since no request could prove its QWAC', async () => {
    expect(await refusedStart(profile('qwac', 'extends: bank\ntpp:\n  qwac: header\n'))).toBe(
      "Invalid configuration:\n  TRUST_PROXY is unset, but the profile's tpp.qwac: header believes X-SSL-Client-Cert only from the proxies TRUST_PROXY names\n",
    );
  });
});

describe('the built server on a database it cannot use', () => {
  const start = async (databasePath: string) => {
    const server = spawnServer([build.main], {
      NODE_PATH: build.nodePath,
      NODE_ENV: 'development',
      PORT: String(await freePort()),
      DATABASE_PATH: databasePath,
    });
    const started = Date.now();
    const exit = await server.exited;
    return { exit, seconds: (Date.now() - started) / 1000, errors: server.errors() };
  };

  it.each([
    ['garbage', (path: string) => (writeFileSync(path, 'this is not a database, '.repeat(400)), path), 'file is not a database'],
    // Root may write anywhere, so "unwritable" is a folder that is a file.
    [
      'a folder that is a file',
      (path: string) => (writeFileSync(path, ''), join(path, 'sandbox.sqlite')),
      `EEXIST: file already exists, mkdir '${'PATH'}'`,
    ],
  ])('%s: exits 1 at once, naming the file', async (_, spoil, reason) => {
    const folder = temporaryDatabase();
    const databasePath = spoil(folder);
    const { exit, seconds, errors } = await start(databasePath);
    expect(exit).toEqual({ code: 1, signal: null });
    // The last line is the one the supervisor's log shows: the file and the reason.
    expect(errors.trim().split('\n').at(-1)).toBe(`Cannot open the database ${databasePath}: ${reason.replace('PATH', folder)}`);
    expect(seconds).toBeLessThan(10); // it retried for about 25 s before
    await removeDatabase(folder);
  });

  it('a database migrated by a newer version of the sandbox: exits 1, naming the file and the migration it does not know', async () => {
    const databasePath = temporaryDatabase();
    const dataSource = await new DataSource(dataSourceOptions({ DATABASE_PATH: databasePath }, schemaOf(SERVICES))).initialize();
    await dataSource.runMigrations();
    await dataSource.query('INSERT INTO migrations (timestamp, name) VALUES (?, ?)', [1899999999999, 'Future1899999999999']);
    await dataSource.destroy();
    const { exit, errors } = await start(databasePath);
    expect(exit).toEqual({ code: 1, signal: null });
    expect(errors.trim().split('\n').at(-1)).toBe(
      `The database ${databasePath} was migrated by a newer version of the sandbox (Future1899999999999): refusing to start on it`,
    );
    await removeDatabase(databasePath);
  });
});
