import { ChildProcess, execFileSync } from 'node:child_process';
import { createHash, createSign, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { loadBulk } from '../seeds/bulk';
import { loadProfile } from '../src/profile/load-profile';
import { MARIANNE, sepaPayment, VALID_CONSENT as CONSENT } from '../test/support/fixtures';
import { createPostgresDatabase, dropPostgresDatabase, newDatabaseUrl } from '../test/support/engine';
import { freePort, spawnServer, waitForHealth } from '../test/support/server-process';
import { SERVICES } from '../src/services';
import { CpuProfile, flameGraph } from './flame-graph';

/**
 * `npm run bench`: builds the sandbox, starts it on a fresh database file and a minimal Nest app
 * beside it, and drives both with autocannon on loopback; given BENCH_POSTGRES_URL, also one and
 * two instances on a fresh PostgreSQL database. Prints a table; writes bench/latest.json.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARM_UP_SECONDS = 2;
const ROUNDS = 5;
const CONNECTIONS = 50;
const PAYMENT = sepaPayment('1.00');
/** Each POST a new amount, as a TPP's suite sends them (0.01 to 999.99 EUR, within the debtor's funds): nothing the server remembers answers it. */
let posted = 0;
const nextPayment = () => JSON.stringify(sepaPayment(((posted++ % 99_999) / 100 + 0.01).toFixed(2)));
/** The node arguments of `npm run start:prod` (and of the Docker image): the server is measured as it ships. */
const productionArgs = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts['start:prod']
  .split(' ')
  .slice(1);
/** `script` under `start:prod`'s node flags, and `flags` besides. */
function startedAs(script: string, flags: string[] = []): string[] {
  return [...productionArgs.slice(0, -1), ...flags, script];
}
/** The baseline starts the same way: built with the sandbox, under the same node flags (they tune the garbage collector). */
const baselineArgs = startedAs('dist/bench/baseline.js');
/** Issue 75's ceiling, under the same flags: Express alone answering the sandbox's bytes (bench/bare-express.ts). */
const bareExpressArgs = startedAs('dist/bench/bare-express.js');
/** A sandbox started as the image starts it, on the SQLite file `file` in the bench's folder. */
const sandboxOn = (folder: string, file: string) => ({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_PATH: join(folder, file) });
const headers = (extra: Record<string, string> = {}) => ({ Authorization: 'Bearer bench', 'X-Request-ID': randomUUID(), ...extra });
/**
 * A new X-Request-ID for each request, as Berlin Group asks of a TPP and as the signed rows send
 * theirs: with one ID for every request, the load generator sent one prebuilt request, and its
 * twin cost the server less than under a client that builds each (docs/benchmark.md, "Signed requests").
 */
const newRequestId = () => ({ headers: { 'X-Request-ID': randomUUID() } });

interface Server {
  child: ChildProcess;
  base: string;
  coldStartMs: number;
  exited: Promise<unknown>;
}

/** Stops a server; resolves once it has exited (its database may then be removed). */
function stop(server: Server): Promise<unknown> {
  server.child.kill('SIGTERM');
  return server.exited;
}

/** Spawns `node <args>` and waits for the first 2xx on `path`: the time until then is the cold start. */
async function start(args: string[], environment: Record<string, string>, path: string): Promise<Server> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const { child, output, exited } = spawnServer(args, { ...environment, PORT: String(port) });
  try {
    await waitForHealth(base, path);
  } catch (error) {
    child.kill();
    throw new Error(`${(error as Error).message}; it wrote:\n${output()}`);
  }
  return { child, base, coldStartMs: Math.round(performance.now() - started), exited };
}

/** Peak resident set size of a process so far, in MB (Linux). */
function peakRssMb(child: ChildProcess): number {
  const line = readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB$/m)!;
  return Math.round(Number(line[1]) / 1024);
}

/** A process's /proc stat fields after its name (Linux), or null once it is gone. */
function statOf(pid: number | string): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return null;
  }
}

/** CPU time a process has used so far, in µs (Linux: user and system time from /proc, in clock ticks). */
const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK']).toString());
const ticks = (fields: string[], ...indexes: number[]) => indexes.reduce((total, index) => total + Number(fields[index]), 0) * TICK_US;
const cpuUs = (child: ChildProcess) => ticks(statOf(child.pid!)!, 11, 12);

/**
 * The CPU time of the whole PostgreSQL server so far, in µs: its postmaster's, what it reaped of
 * the backends that ended (cutime, cstime), and each living child's (backends, WAL writer,
 * checkpointer, autovacuum). Found from a backend's process; null where the server is not on this
 * machine.
 */
async function databaseCpu(administrator: string): Promise<(() => number) | null> {
  const client = new Client({ connectionString: administrator });
  await client.connect();
  const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
  const postmaster = statOf(pid)?.[1];
  await client.end();
  if (!postmaster) return null;
  return () => {
    let total = ticks(statOf(postmaster)!, 11, 12, 13, 14);
    for (const entry of readdirSync('/proc')) {
      const fields = /^\d+$/.test(entry) ? statOf(entry) : null;
      if (fields?.[1] === postmaster) total += ticks(fields, 11, 12);
    }
    return total;
  };
}

interface Scenario {
  name: string;
  /** Several servers share the connections evenly, as a load balancer in front of them would. */
  servers: Server[];
  /** The CPU time of the database server they share, so far, in µs (PostgreSQL on this machine). */
  databaseCpu?: () => number;
  /**
   * `fresh`: headers, and the body they sign, made anew for each request (a signed X-Request-ID is
   * good for one request, its Digest for one body); `prepare(count)`: makes that many before a
   * run, outside the measured time (or whatever else a run needs first: a token).
   */
  request: {
    method: 'GET' | 'POST';
    path: string;
    headers: Record<string, string>;
    body?: () => string;
    fresh?: () => { headers: Record<string, string>; body?: string };
    prepare?: (count: number) => void | Promise<void>;
  };
}

interface Measured {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ratioToBaseline: number;
  /** The server's own CPU time a request: leaves out what it waited for (the client on the other core, an fsync). */
  cpuUsPerRequest: number;
  /** The database server's CPU time a request (PostgreSQL on this machine), else null. */
  databaseCpuUsPerRequest: number | null;
  /** req/s and CPU µs a request of each round, in the order of the rounds. */
  requestsPerRound: number[];
  cpuUsPerRequestPerRound: number[];
  non2xx: number;
  errors: number;
}

/** One run of a scenario: over several servers, their req/s and CPU time summed, the slower server's latencies. */
interface Driven {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerRequest: number;
  databaseCpuUsPerRequest: number | null;
  non2xx: number;
  errors: number;
  /** Requests answered in all. */
  answered: number;
}

/** Requests a scenario's last run answered a second: how many headers the next run prepares (half as many again). */
const answeredPerSecond = new WeakMap<Scenario, number>();

async function drive(scenario: Scenario, duration: number): Promise<Driven> {
  const { servers, request, databaseCpu } = scenario;
  const { body, fresh } = request;
  await request.prepare?.(Math.ceil((answeredPerSecond.get(scenario) ?? 2_000) * duration * 1.5));
  const requests = (body || fresh) && [
    {
      setupRequest: (sent: autocannon.Request) => {
        const made = fresh?.();
        return {
          ...sent,
          ...(body && { body: body() }),
          ...(made && { headers: { ...sent.headers, ...made.headers } }),
          ...(made?.body !== undefined && { body: made.body }),
        };
      },
    },
  ];
  const cpu = () => servers.reduce((total, server) => total + cpuUs(server.child), 0);
  const before = cpu();
  const databaseBefore = databaseCpu?.();
  const connections = CONNECTIONS / servers.length;
  const results = await Promise.all(
    servers.map((server) =>
      autocannon({
        url: `${server.base}${request.path}`,
        method: request.method,
        headers: request.headers,
        requests,
        connections,
        duration,
      }),
    ),
  );
  const sum = (value: (result: autocannon.Result) => number) => results.reduce((total, result) => total + value(result), 0);
  const answered = sum((result) => result.requests.total);
  answeredPerSecond.set(scenario, answered / duration);
  return {
    requestsPerSecond: sum((result) => result.requests.average),
    p50Ms: Math.max(...results.map((result) => result.latency.p50)),
    p99Ms: Math.max(...results.map((result) => result.latency.p99)),
    cpuUsPerRequest: (cpu() - before) / answered,
    databaseCpuUsPerRequest: databaseCpu ? (databaseCpu() - databaseBefore!) / answered : null,
    non2xx: sum((result) => result.non2xx),
    errors: sum((result) => result.errors + result.timeouts),
    answered,
  };
}

/**
 * Measures the scenarios in ROUNDS rounds of SECONDS / ROUNDS each, every round in the same order,
 * the baseline first: a machine that drifts slows a round's scenarios and its baseline alike.
 * A scenario's req/s, latencies and ratio to the baseline are the medians over the rounds; every
 * ratio is taken within a round (ratioInRounds).
 */
async function measureInRounds(baseline: Scenario, scenarios: Scenario[]): Promise<Measured[]> {
  const all = [baseline, ...scenarios];
  for (const scenario of all) await drive(scenario, WARM_UP_SECONDS);
  const rounds: Driven[][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const results: Driven[] = [];
    for (const scenario of all) results.push(await drive(scenario, SECONDS / ROUNDS));
    rounds.push(results);
    console.error(`measured: round ${round} of ${ROUNDS}`);
  }
  const requestsPerRound = all.map((_, index) => rounds.map((round) => Math.round(round[index].requestsPerSecond)));
  return all.map(({ name }, index) => {
    const of = (value: (result: Driven) => number) => rounds.map((round) => value(round[index]));
    const sum = (value: (result: Driven) => number) => of(value).reduce((total, part) => total + part, 0);
    const cpuUsPerRequestPerRound = of((result) => Math.round(result.cpuUsPerRequest));
    const databaseCpu = of((result) => result.databaseCpuUsPerRequest ?? Number.NaN);
    return {
      name,
      requestsPerSecond: median(requestsPerRound[index]),
      p50Ms: median(of((result) => result.p50Ms)),
      p99Ms: median(of((result) => result.p99Ms)),
      ratioToBaseline: ratioInRounds(requestsPerRound[index], requestsPerRound[0]),
      cpuUsPerRequest: median(cpuUsPerRequestPerRound),
      databaseCpuUsPerRequest: databaseCpu.some(Number.isNaN) ? null : Math.round(median(databaseCpu)),
      cpuUsPerRequestPerRound,
      requestsPerRound: requestsPerRound[index],
      non2xx: sum((result) => result.non2xx),
      errors: sum((result) => result.errors),
    };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The median over the rounds of part's req/s to whole's in the same round. */
const ratioInRounds = (part: number[], whole: number[]) => Number(median(part.map((rate, round) => rate / whole[round])).toFixed(2));

const BARE_LIST = "bare Express: the account list's bytes";
const BARE_PAYMENT = "bare Express: a payment's bytes, its body parsed";
const CLASSED = ", its requests of the app's classes";

/**
 * Express alone, answering what `sandbox` answers to the bench's account list and to a payment
 * (bench/bare-express.ts): as it comes, and with its requests made of the app's classes, as the
 * sandbox's are. The answers are read from the sandbox once, for both.
 */
async function bareExpress(sandbox: Server): Promise<{ asItComes: Server; classed: Server }> {
  const answerOf = async (request: Scenario['request']) => {
    const answered = await fetch(`${sandbox.base}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body?.(),
    });
    return { status: answered.status, body: await answered.text() };
  };
  const ANSWERS = JSON.stringify({ get: await answerOf(accountList), post: await answerOf(sepaInitiation) });
  const started = (CLASSES: '0' | '1') => start(bareExpressArgs, { ANSWERS, CLASSES }, '/v1/accounts');
  return { asItComes: await started('0'), classed: await started('1') };
}

/** Creates one payment the way a TPP does; answers its ID. */
async function initiatePayment(base: string): Promise<string> {
  const created = await fetch(`${base}/v1/payments/sepa-credit-transfers`, {
    method: 'POST',
    headers: headers({ 'Content-Type': 'application/json', 'PSU-IP-Address': '192.0.2.10' }),
    body: JSON.stringify(PAYMENT),
  });
  return ((await created.json()) as { paymentId: string }).paymentId;
}

/** The requests the scaling run repeats on the large database. */
const paymentStatus = (paymentId: string): Scenario['request'] => ({
  method: 'GET',
  path: `/v1/payments/sepa-credit-transfers/${paymentId}/status`,
  headers: headers(),
  fresh: newRequestId,
});
const accountList: Scenario['request'] = {
  method: 'GET',
  path: '/v1/accounts?withBalance=true',
  headers: headers({ 'Consent-ID': CONSENT }),
  fresh: newRequestId,
};
const transactionsBoth: Scenario['request'] = {
  method: 'GET',
  path: `/v1/accounts/${MARIANNE}/transactions?bookingStatus=both`,
  headers: headers({ 'Consent-ID': CONSENT }),
  fresh: newRequestId,
};
const sepaInitiation: Scenario['request'] = {
  method: 'POST',
  path: '/v1/payments/sepa-credit-transfers',
  headers: headers({ 'Content-Type': 'application/json', 'PSU-IP-Address': '192.0.2.10' }),
  body: nextPayment,
  fresh: newRequestId,
};

/**
 * BENCH_AGAINST=<git revision>: that revision's build, started beside this one on a fresh database
 * file, so that the rounds measure both builds alike (docs/benchmark.md). It is built with this
 * checkout's node_modules: a revision whose dependencies differ fails to build, saying which.
 */
async function againstBuild(
  revision: string | undefined,
  folder: string,
  servers: Server[],
  cleanUp: (() => Promise<void>)[],
): Promise<{ label: string; server: Server } | undefined> {
  if (!revision) return undefined;
  const tree = join(folder, 'against');
  execFileSync('git', ['worktree', 'add', '--detach', tree, revision], { stdio: 'ignore' });
  cleanUp.push(async () => {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { stdio: 'ignore' });
  });
  symlinkSync(resolve('node_modules'), join(tree, 'node_modules'));
  execFileSync('npx', ['nest', 'build'], { cwd: tree, stdio: 'inherit' });
  const script = (JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[
    'start:prod'
  ];
  const args = script
    .split(' ')
    .slice(1)
    .map((arg) => (arg.endsWith('.js') ? join(tree, arg) : arg));
  const server = await start(args, sandboxOn(folder, 'against.sqlite'), '/health');
  servers.push(server);
  return { label: execFileSync('git', ['rev-parse', '--short', revision]).toString().trim(), server };
}

/**
 * The seed bank with tpp.signatures: required (docs/tpp-identity.md), and a QSealC of its CA: the
 * account list and a payment, each request signed anew by the bench (a signed X-Request-ID is good
 * for one request); compare these rows by the server's CPU time a request, as the bench's client
 * signs on the other core.
 */
async function signedScenarios(
  folder: string,
  servers: Server[],
  database: Record<string, string>,
  engine = '',
  databaseCpu?: () => number,
  args = productionArgs,
): Promise<Scenario[]> {
  const profile = join(folder, 'signing-profile');
  mkdirSync(profile, { recursive: true });
  writeFileSync(join(profile, 'profile.yaml'), 'extends: bank\ntpp:\n  signatures: required\n');
  const server = await start(args, { NODE_ENV: 'production', LOG_LEVEL: 'silent', ...database, PROFILE: profile }, '/health');
  servers.push(server);
  const issued = await fetch(`${server.base}/sandbox/certificates`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'QSEAL', organisationName: 'Bench TPP', roles: ['PSP_AI', 'PSP_PI'] }),
  });
  const { serialNumber, certificate, privateKey } = (await issued.json()) as {
    serialNumber: string;
    certificate: string;
    privateKey: string;
  };
  const sign = (body: string, extra: Record<string, string>) => {
    const unsigned = { ...headers(extra), Digest: `SHA-256=${createHash('sha256').update(body).digest('base64')}` };
    const signature = createSign('sha256')
      .update(`digest: ${unsigned.Digest}\nx-request-id: ${unsigned['X-Request-ID']}`)
      .sign(privateKey, 'base64');
    const signedHeaders = {
      ...unsigned,
      'TPP-Signature-Certificate': certificate.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, ''),
      Signature: `keyId="SN=${serialNumber},CA=CN=PSD2 Sandbox Test CA,O=PSD2 Sandbox",algorithm="rsa-sha256",headers="digest x-request-id",signature="${signature}"`,
    };
    return { headers: signedHeaders, ...(body !== '' && { body }) };
  };
  /**
   * Signed before each run: an RSA signature costs the client about a millisecond, and a client
   * signing while it sends would hold the server to a third of its twin's rate, where each request
   * shares less of what the server pays a moment (an event loop turn, a commit) than its twin's do.
   * Each payment is one of its own, as its twin's are.
   */
  const signed = (body: () => string, extra: Record<string, string>) => {
    const ready: ReturnType<typeof sign>[] = [];
    return {
      fresh: () => ready.pop() ?? sign(body(), extra),
      prepare: (count: number) => {
        while (ready.length < count) ready.push(sign(body(), extra));
      },
    };
  };
  return [
    {
      name: `GET account list with balances${engine}, signed (tpp.signatures: required)`,
      servers: [server],
      databaseCpu,
      request: { ...accountList, ...signed(() => '', { 'Consent-ID': CONSENT }) },
    },
    {
      name: `POST SEPA payment${engine}, signed (tpp.signatures: required)`,
      servers: [server],
      databaseCpu,
      request: {
        method: 'POST',
        path: sepaInitiation.path,
        headers: {},
        ...signed(nextPayment, { 'Content-Type': 'application/json', 'PSU-IP-Address': '192.0.2.10' }),
      },
    },
  ];
}

/** What one client's world costs the others, and its own life's operations (docs/benchmark.md, "A world's life"). */
interface WorldLife {
  /** A's reads while B sends four 10-year moves of its clock at once. */
  duringMoves: {
    moves: number;
    refused: number;
    instalments: number;
    moveSeconds: number;
    reads: number;
    p50Ms: number;
    p99Ms: number;
    worstMs: number;
  };
  /** Wall time of B's snapshot, restore and reset, on a world of `resources`: medians of five. */
  snapshots: { resources: number; rows: number; takeMs: number; restoreMs: number; resetMs: number };
  /** Given BENCH_POSTGRES_URL: A's payment with its approval on one instance, quiet and while B's moves run on another. */
  postgres: { quietP50Ms: number; duringP50Ms: number; duringP99Ms: number; payments: number } | null;
}

/** A sandbox in AUTH_MODE=strict for the world-life measurements: a weekday, so that an order's first instalment does not wait for Monday. */
const strictSandbox = (database: Record<string, string>) => ({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  AUTH_MODE: 'strict',
  SCA_MODE: 'redirect',
  SANDBOX_DATE: '2026-03-18',
  ...database,
});

/** A token of a fixture client's, as the client credentials grant gives it. */
async function tokenOf(server: Server, client: string, secret: string): Promise<string> {
  const answer = await fetch(`${server.base}/oauth2/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${client}:${secret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** A fixture client's calls to `server`, with its own token. */
async function clientOf(server: Server, client: string, secret: string) {
  const token = await tokenOf(server, client, secret);
  return async (method: string, path: string, body?: object, on: Server = server) => {
    const answer = await fetch(`${on.base}${path}`, {
      method,
      headers: headers({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'PSU-IP-Address': '192.0.2.10' }),
      body: body && JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
    return (answer.status === 204 ? {} : answer.json()) as Promise<Record<string, never>>;
  };
}
type Call = Awaited<ReturnType<typeof clientOf>>;

/**
 * POST SEPA payment in a client's world (AUTH_MODE=strict), as a bank hosting many TPPs serves it:
 * the client's token, the world's quota counted and its client found at each creation. Before each
 * run a fresh token (one lives 599 s, the rounds longer) and the world reset, so that every run
 * counts a world growing from empty (the quota's count reads each of its resources).
 */
async function strictPayment(folder: string, servers: Server[]): Promise<Scenario> {
  const server = await start(
    productionArgs,
    strictSandbox({ DATABASE_PATH: join(folder, 'strict.sqlite'), WORLD_MAX_RESOURCES: '1000000' }),
    '/health',
  );
  servers.push(server);
  const request: Scenario['request'] = {
    ...sepaInitiation,
    headers: { ...sepaInitiation.headers },
    prepare: async () => {
      request.headers.Authorization = `Bearer ${await tokenOf(server, 'sandbox-tpp', 'sandbox-secret')}`;
      const reset = await fetch(`${server.base}/sandbox/world/reset`, {
        method: 'POST',
        headers: headers({ Authorization: request.headers.Authorization }),
      });
      if (!reset.ok) throw new Error(`POST /sandbox/world/reset: ${reset.status} ${await reset.text()}`);
    },
  };
  return { name: STRICT_PAYMENT, servers: [server], request };
}

const STRICT_PAYMENT = "POST SEPA payment, a client's world (AUTH_MODE=strict)";

/** A scenario of the caller's with a large balance: its accounts move (docs/living-bank.md). */
const saver = (call: Call, name: string) =>
  call('POST', '/sandbox/scenarios', {
    accounts: [{ name, balances: { interimAvailable: '1000000.00', forwardAvailable: '1000000.00' } }],
  });

/**
 * B's five daily standing orders from a scenario of its own, then four moves of its clock by ten
 * years sent at once (each within the bound of one move, 18,250 instalments; four of them far
 * beyond it): `meanwhile` runs again and again until they are answered.
 */
async function fourMovesOf(b: Call, meanwhile: () => Promise<void>) {
  const { today } = await b('GET', '/sandbox/clock');
  const own = await saver(b, 'B Saver');
  const paymentIds: string[] = [];
  for (let order = 0; order < 5; order++) {
    const body = {
      debtorAccount: { iban: (own.accounts as { iban: string }[])[0].iban },
      instructedAmount: { currency: 'EUR', amount: '1.00' },
      creditorAccount: { iban: MARIANNE },
      creditorName: 'Marianne Mustermann',
      startDate: today,
      frequency: 'Daily',
    };
    const { paymentId } = await b('POST', '/v1/periodic-payments/sepa-credit-transfers', body);
    await b('POST', `/sandbox/sca/payments/${paymentId}`, { psuId: own.psuId, decision: 'approve' });
    paymentIds.push(paymentId);
  }
  const moves = 4;
  const started = performance.now();
  let done = false;
  // A move sent while the one before it still catches up counts what that one left too, and may be refused by the bound: the run says how many.
  let refused = 0;
  const moved = Promise.all(
    Array.from({ length: moves }, () =>
      b('POST', '/sandbox/clock/advance', { days: 3650 }).catch((error: Error) => {
        if (!error.message.includes(' 400 ')) throw error;
        refused += 1;
      }),
    ),
  ).finally(() => (done = true));
  while (!done) await meanwhile();
  await moved;
  const moveSeconds = Math.round((performance.now() - started) / 100) / 10;
  // What the moves ran: each order's instalments but the first, which ran at its approval.
  let instalments = 0;
  for (const paymentId of paymentIds)
    instalments += Number((await b('GET', `/sandbox/payments/${paymentId}/instalments`)).instalmentsRun) - 1;
  return { moves, refused, instalments, moveSeconds };
}

/** How long each run of `work` took, in ms, sorted. */
async function timings(work: () => Promise<unknown>, times: number): Promise<number[]> {
  const taken: number[] = [];
  for (let run = 0; run < times; run++) {
    const sent = performance.now();
    await work();
    taken.push(performance.now() - sent);
  }
  return taken.sort((x, y) => x - y);
}
const percentile = (sorted: number[], share: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]);

/**
 * A world's life (issue 72): client A's reads, one after the other on one connection, while client
 * B sends four ten-year moves of its clock at once (A's worst read under 100 ms); B's world of 1,000
 * payments snapshotted, restored and reset; given BENCH_POSTGRES_URL, A's payment with its approval
 * on one PostgreSQL instance while B's moves run on another.
 */
async function worldLife(
  folder: string,
  servers: Server[],
  administrator: string | undefined,
  cleanUp: (() => Promise<void>)[],
): Promise<WorldLife> {
  const server = await start(productionArgs, strictSandbox({ DATABASE_PATH: join(folder, 'worlds.sqlite') }), '/health');
  servers.push(server);
  const [a, b] = [await clientOf(server, 'sandbox-tpp', 'sandbox-secret'), await clientOf(server, 'sandbox-tpp-2', 'sandbox-secret-2')];
  const latencies: number[] = [];
  const moved = await fourMovesOf(b, async () => {
    latencies.push(...(await timings(() => a('GET', `/v1/consents/${CONSENT}/status`), 1)));
  });
  latencies.sort((x, y) => x - y);

  // B's world of 1,000 resources: its life's operations, timed from the client, medians of five.
  await b('POST', '/sandbox/world/reset');
  for (let payment = 0; payment < 1_000; payment++) await b('POST', '/v1/payments/sepa-credit-transfers', PAYMENT);
  const snapshotIds: string[] = [];
  const takeMs = median(
    await timings(async () => snapshotIds.push((await b('POST', '/sandbox/world/snapshots', { name: 'bench' })).snapshotId), 5),
  );
  const restore = () => b('POST', `/sandbox/world/snapshots/${snapshotIds[0]}/restore`);
  const { resources } = await restore();
  const restoreMs = median(await timings(restore, 5));
  // Each reset forgets the world of 1,000 resources, put back (untimed) before it.
  const resets: number[] = [];
  for (let round = 0; round < 5; round++) {
    await restore();
    resets.push(...(await timings(() => b('POST', '/sandbox/world/reset'), 1)));
  }
  await restore();
  const { forgotten } = await b('POST', '/sandbox/world/reset');
  return {
    duringMoves: {
      ...moved,
      reads: latencies.length,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      worstMs: Math.round(latencies.at(-1)!),
    },
    snapshots: {
      resources,
      rows: forgotten,
      takeMs: Math.round(takeMs),
      restoreMs: Math.round(restoreMs),
      resetMs: Math.round(median(resets)),
    },
    postgres: administrator ? await paymentsBesideMoves(administrator, servers, cleanUp) : null,
  };
}

/** A's payments with their approval (booked on its scenario account) on one PostgreSQL instance: quiet, then while B's moves run on another. */
async function paymentsBesideMoves(
  administrator: string,
  servers: Server[],
  cleanUp: (() => Promise<void>)[],
): Promise<NonNullable<WorldLife['postgres']>> {
  const database = newDatabaseUrl(administrator, 'sandbox_bench_worlds');
  await createPostgresDatabase(database, administrator);
  cleanUp.push(() => dropPostgresDatabase(database, administrator));
  const one = await start(productionArgs, strictSandbox({ DATABASE_URL: database }), '/health');
  servers.push(one);
  const two = await start(productionArgs, strictSandbox({ DATABASE_URL: database }), '/health');
  servers.push(two);
  const [a, b] = [await clientOf(one, 'sandbox-tpp', 'sandbox-secret'), await clientOf(two, 'sandbox-tpp-2', 'sandbox-secret-2')];
  const own = await saver(a, 'A Saver');
  const pay = async () => {
    const body = sepaPayment('1.00', { debtorAccount: { iban: (own.accounts as { iban: string }[])[0].iban } });
    const { paymentId } = await a('POST', '/v1/payments/sepa-credit-transfers', body);
    await a('POST', `/sandbox/sca/payments/${paymentId}`, { psuId: own.psuId, decision: 'approve' });
  };
  const quiet = await timings(pay, 50);
  const during: number[] = [];
  await fourMovesOf(b, async () => {
    during.push(...(await timings(pay, 1)));
  });
  during.sort((x, y) => x - y);
  return {
    quietP50Ms: percentile(quiet, 0.5),
    duringP50Ms: percentile(during, 0.5),
    duringP99Ms: percentile(during, 0.99),
    payments: during.length,
  };
}

/**
 * Given BENCH_POSTGRES_URL, the small-database scenarios again on PostgreSQL: on one instance, and
 * on two sharing its database; the signed ones on an instance of their own, each right after its twin.
 */
async function postgresScenarios(
  administrator: string | undefined,
  folder: string,
  servers: Server[],
  cleanUp: (() => Promise<void>)[],
): Promise<Scenario[]> {
  if (!administrator) return [];
  // Fresh databases in the cluster, whose user may create databases.
  const fresh = async (name: string) => {
    const url = newDatabaseUrl(administrator, name);
    await createPostgresDatabase(url, administrator);
    cleanUp.push(() => dropPostgresDatabase(url, administrator));
    return url;
  };
  const database = await fresh('sandbox_bench');
  const environment = { NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_URL: database };
  const databaseCpuUs = (await databaseCpu(administrator)) ?? undefined;
  const one = await start(productionArgs, environment, '/health');
  servers.push(one);
  const two = await start(productionArgs, environment, '/health');
  servers.push(two);
  const paymentId = await initiatePayment(one.base);
  const [signedList, signedPayment] = await signedScenarios(
    folder,
    servers,
    { DATABASE_URL: await fresh('sandbox_bench_signed') },
    ', PostgreSQL',
    databaseCpuUs,
  );
  return (
    [
      ['GET account list with balances', accountList, signedList],
      ['GET transactions (both)', transactionsBoth],
      ['GET payment status', paymentStatus(paymentId)],
      ['POST SEPA payment', sepaInitiation, signedPayment],
    ] as [string, Scenario['request'], Scenario?][]
  ).flatMap(([name, request, signed]) => [
    { name: `${name}, PostgreSQL`, servers: [one], request, databaseCpu: databaseCpuUs },
    ...(signed ? [signed] : []),
    { name: `${name}, PostgreSQL, two instances`, servers: [one, two], request, databaseCpu: databaseCpuUs },
  ]);
}

/** The world-life lines of the report. */
function printWorldLife({ duringMoves, snapshots, postgres }: WorldLife): void {
  console.log(
    `\nA's reads while B sends ${duringMoves.moves} moves of its clock by ten years at once (${duringMoves.refused} refused by the bound, ${duringMoves.instalments} instalments run, AUTH_MODE=strict; the moves took ${duringMoves.moveSeconds} s): ` +
      `${duringMoves.reads} reads, p50 ${duringMoves.p50Ms} ms, p99 ${duringMoves.p99Ms} ms, worst ${duringMoves.worstMs} ms`,
  );
  console.log(
    `a world of ${snapshots.resources} resources (${snapshots.rows} rows): snapshot ${snapshots.takeMs} ms, restore ${snapshots.restoreMs} ms, reset ${snapshots.resetMs} ms (wall time at the client, medians of 5)`,
  );
  if (postgres)
    console.log(
      `A's payment with its approval on one PostgreSQL instance: p50 ${postgres.quietP50Ms} ms quiet; while B's moves ran on another, ${postgres.payments} payments, p50 ${postgres.duringP50Ms} ms, p99 ${postgres.duringP99Ms} ms`,
    );
}

/** A scenario's server CPU µs a request, round by round. */
const cpuPerRound = (results: Measured[], name: string) => results.find((result) => result.name === name)!.cpuUsPerRequestPerRound;

/** The table of the rows measured, as the run prints it. */
function printTable(rows: Measured[]): void {
  console.log(
    '| scenario | req/s | p50 ms | p99 ms | ratio to baseline | server CPU µs a request | database CPU µs a request | non-2xx | errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.requestsPerSecond} | ${row.p50Ms} | ${row.p99Ms} | ${row.ratioToBaseline} | ${row.cpuUsPerRequest} | ${row.databaseCpuUsPerRequest ?? '–'} | ${row.non2xx} | ${row.errors} |`,
    );
  }
}

/** The row every ratio to the baseline is taken to. */
const baselineScenario = (baseline: Server): Scenario => ({
  name: 'baseline: minimal Nest app, static JSON',
  servers: [baseline],
  request: { method: 'GET', path: '/', headers: {} },
});

/** Each signed row's server CPU a request to its unsigned twin's, each round's ratio taken within the round (docs/benchmark.md, "Signed requests"). */
function printSignedRatios(results: Measured[], engines: string[]): void {
  const cpu = (name: string) => cpuPerRound(results, name);
  console.log("\nsigned to unsigned, the server's CPU a request (median of the rounds' ratios):");
  for (const engine of engines)
    for (const name of ['GET account list with balances', 'POST SEPA payment'].map((row) => `${row}${engine}`))
      console.log(`- ${name}: ${ratioInRounds(cpu(`${name}, signed (tpp.signatures: required)`), cpu(name))}`);
}

/** `BENCH_PART=signed`: the signed rows and their twins alone, on SQLite, in a few minutes (docs/benchmark.md). */
async function signedAlone(folder: string, servers: Server[]): Promise<void> {
  const baseline = await start(baselineArgs, {}, '/');
  servers.push(baseline);
  const sandbox = await start(productionArgs, sandboxOn(folder, 'small.sqlite'), '/health');
  servers.push(sandbox);
  const [signedList, signedPayment] = await signedScenarios(folder, servers, { DATABASE_PATH: join(folder, 'signed.sqlite') });
  const results = await measureInRounds(baselineScenario(baseline), [
    { name: 'GET account list with balances', servers: [sandbox], request: accountList },
    signedList,
    { name: 'POST SEPA payment', servers: [sandbox], request: sepaInitiation },
    signedPayment,
  ]);
  printTable(results);
  printSignedRatios(results, ['']);
}

/**
 * `BENCH_PART=flame`: the signed rows and their twins, each on a server under `node --cpu-prof`,
 * drawn as flame graphs into docs/flame/ (docs/benchmark.md, "Flame graphs"). A server's profile
 * covers its whole life; each graph is the time of its row's run alone, after a warm-up.
 */
async function flameGraphs(folder: string, servers: Server[]): Promise<void> {
  const profiled = (name: string) => {
    const directory = join(folder, name);
    return { directory, args: startedAs(productionArgs.at(-1)!, ['--cpu-prof', `--cpu-prof-dir=${directory}`]) };
  };
  const [plain, signed] = [profiled('plain'), profiled('signed')];
  const sandbox = await start(plain.args, sandboxOn(folder, 'small.sqlite'), '/health');
  servers.push(sandbox);
  const [signedList, signedPayment] = await signedScenarios(
    folder,
    servers,
    { DATABASE_PATH: join(folder, 'signed.sqlite') },
    '',
    undefined,
    signed.args,
  );
  const rows = [
    {
      file: 'account-list',
      scenario: { name: 'GET account list with balances', servers: [sandbox], request: accountList },
      profile: plain,
    },
    { file: 'account-list-signed', scenario: signedList, profile: signed },
    { file: 'sepa-payment', scenario: { name: 'POST SEPA payment', servers: [sandbox], request: sepaInitiation }, profile: plain },
    { file: 'sepa-payment-signed', scenario: signedPayment, profile: signed },
  ];
  const now = () => Number(process.hrtime.bigint() / 1000n);
  const windows = [];
  for (const row of rows) {
    await drive(row.scenario, WARM_UP_SECONDS);
    const from = now();
    const { answered, non2xx } = await drive(row.scenario, SECONDS);
    if (non2xx) throw new Error(`${row.scenario.name}: ${non2xx} answers not 2xx`);
    windows.push({ ...row, from, to: now(), requests: answered });
  }
  // A profile is written as its server exits.
  await Promise.all(servers.map(stop));
  const build = execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim();
  const day = new Date().toISOString().slice(0, 10);
  mkdirSync(join('docs', 'flame'), { recursive: true });
  for (const { file, scenario, profile, from, to, requests } of windows) {
    const [written] = readdirSync(profile.directory);
    const profileRead = JSON.parse(readFileSync(join(profile.directory, written), 'utf8')) as CpuProfile;
    const graph = flameGraph(profileRead, { title: `${scenario.name}, ${build}, ${day}`, from, to, requests });
    writeFileSync(join('docs', 'flame', `${file}.svg`), graph.svg);
    const parts = graph.byPackage.slice(0, 12).map(([name, us]) => `${name} ${us.toFixed(0)}`);
    console.log(
      `- ${scenario.name}: the main thread busy ${graph.busy.toFixed(0)} µs a request; ${parts.join(', ')} (docs/flame/${file}.svg)`,
    );
  }
}

/** A part of the bench alone (BENCH_PART), rather than the whole bench's hour. */
const PARTS: Record<string, (folder: string, servers: Server[], cleanUp: (() => Promise<void>)[]) => Promise<void>> = {
  'world-life': async (folder, servers, cleanUp) =>
    printWorldLife(await worldLife(folder, servers, process.env.BENCH_POSTGRES_URL, cleanUp)),
  signed: signedAlone,
  flame: flameGraphs,
};

async function main(): Promise<void> {
  execFileSync('npx', ['nest', 'build'], { stdio: 'inherit' });
  const folder = mkdtempSync(join(tmpdir(), 'psd2-sandbox-bench-'));
  const servers: Server[] = [];
  const cleanUp: (() => Promise<void>)[] = [];
  try {
    const part = process.env.BENCH_PART;
    if (part !== undefined) {
      if (!PARTS[part]) throw new Error(`BENCH_PART=${part}: the parts are ${Object.keys(PARTS).join(', ')}`);
      return await PARTS[part](folder, servers, cleanUp);
    }
    const baseline = await start(baselineArgs, {}, '/');
    servers.push(baseline);
    // Cold start varies most from run to run on a shared machine: the median of five fresh starts.
    const coldStarts: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const fresh = await start(productionArgs, sandboxOn(folder, `cold-${attempt}.sqlite`), '/health');
      coldStarts.push(fresh.coldStartMs);
      await stop(fresh);
    }
    const coldStartMs = median(coldStarts);
    const sandbox = await start(productionArgs, sandboxOn(folder, 'small.sqlite'), '/health');
    servers.push(sandbox);
    const paymentId = await initiatePayment(sandbox.base);
    const { asItComes: bare, classed: bareClassed } = await bareExpress(sandbox);
    servers.push(bare, bareClassed);

    // The large database: the fixtures plus BULK_PAYMENTS payments and a large account.
    const load = {
      payments: Number(process.env.BULK_PAYMENTS ?? 1_000_000),
      transactions: Number(process.env.BULK_TRANSACTIONS ?? 100_000),
    };
    const seeding = performance.now();
    const bulk = await loadBulk(
      { DATABASE_PATH: join(folder, 'large.sqlite') },
      load,
      new Date().toISOString().slice(0, 10),
      loadProfile('bank', SERVICES),
    );
    const seedSeconds = Math.round((performance.now() - seeding) / 100) / 10;
    console.error(`bulk seed: ${load.payments} payments, ${load.transactions} transactions in ${seedSeconds} s`);
    const large = await start(productionArgs, sandboxOn(folder, 'large.sqlite'), '/health');
    servers.push(large);
    const largePayment = await initiatePayment(large.base);
    const onLarge = `${load.payments.toLocaleString('en')} payments stored`;
    // Ten transactions a day go back from today: a month ago is one day well inside the history.
    const oneDay = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);

    const against = await againstBuild(process.env.BENCH_AGAINST, folder, servers, cleanUp);
    const againstPayment = against && (await initiatePayment(against.server.base));
    /** The scenario on the other build, right after this build's. */
    const twin = (name: string, request: Scenario['request']): Scenario[] =>
      against ? [{ name: `${name}, ${against.label}`, servers: [against.server], request }] : [];
    // A signed row right after its unsigned twin too: their ratio is what docs/benchmark.md reports.
    const [signedList, signedPayment] = await signedScenarios(folder, servers, { DATABASE_PATH: join(folder, 'signed.sqlite') });

    // Each scenario on the large database (or the other build) runs right after its twin on the small
    // one: the machine drifts within a round too, and the closer in time two measurements are, the less it moves their ratio.
    const results = await measureInRounds(baselineScenario(baseline), [
      { name: BARE_LIST, servers: [bare], request: accountList },
      { name: BARE_LIST + CLASSED, servers: [bareClassed], request: accountList },
      { name: 'GET account list with balances', servers: [sandbox], request: accountList },
      ...twin('GET account list with balances', accountList),
      signedList,
      { name: 'GET transactions (both)', servers: [sandbox], request: transactionsBoth },
      { name: `GET transactions (both), ${onLarge}`, servers: [large], request: transactionsBoth },
      { name: 'GET payment status', servers: [sandbox], request: paymentStatus(paymentId) },
      ...(againstPayment ? twin('GET payment status', paymentStatus(againstPayment)) : []),
      { name: `GET payment status, ${onLarge}`, servers: [large], request: paymentStatus(largePayment) },
      { name: BARE_PAYMENT, servers: [bare], request: sepaInitiation },
      { name: BARE_PAYMENT + CLASSED, servers: [bareClassed], request: sepaInitiation },
      { name: 'POST SEPA payment', servers: [sandbox], request: sepaInitiation },
      ...twin('POST SEPA payment', sepaInitiation),
      signedPayment,
      await strictPayment(folder, servers),
      { name: `POST SEPA payment, ${onLarge}`, servers: [large], request: sepaInitiation },
      {
        name: `GET transactions (both, one day), account of ${load.transactions.toLocaleString('en')}`,
        servers: [large],
        request: {
          method: 'GET',
          path: `/v1/accounts/${bulk.iban}/transactions?bookingStatus=both&dateFrom=${oneDay}&dateTo=${oneDay}`,
          headers: headers({ 'Consent-ID': bulk.consentId }),
        },
      },
      ...(await postgresScenarios(process.env.BENCH_POSTGRES_URL, folder, servers, cleanUp)),
    ]);

    const life = await worldLife(folder, servers, process.env.BENCH_POSTGRES_URL, cleanUp);
    const rounds = (name: string) => results.find((result) => result.name === name)!.requestsPerRound;
    /** A scenario's req/s on the large database to its twin's on the small one. */
    const largeToSmall = (name: string) => ratioInRounds(rounds(`${name}, ${onLarge}`), rounds(name));
    const report = {
      date: new Date().toISOString(),
      machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
      connections: CONNECTIONS,
      seconds: SECONDS,
      rounds: ROUNDS,
      scenarios: results,
      coldStartMs,
      coldStartsMs: coldStarts,
      peakRssMb: peakRssMb(sandbox.child),
      worldLife: life,
      scaling: {
        ...load,
        bulkSeedSeconds: seedSeconds,
        coldStartMs: large.coldStartMs,
        paymentStatusRatioToSmall: largeToSmall('GET payment status'),
        transactionsRatioToSmall: largeToSmall('GET transactions (both)'),
        paymentInitiationRatioToSmall: largeToSmall('POST SEPA payment'),
      },
    };
    writeFileSync(join('bench', 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    printTable(report.scenarios);
    const cpu = (name: string) => cpuPerRound(results, name);
    printSignedRatios(results, ['', ...(process.env.BENCH_POSTGRES_URL ? [', PostgreSQL'] : [])]);
    const ceilings = [
      ['', "to Express alone answering the same bytes (issue 75's ceiling)"],
      [CLASSED, "to Express alone with its requests of the app's classes (docs/benchmark.md)"],
    ];
    for (const [variant, title] of ceilings) {
      console.log(`\n${title}, req/s (median of the rounds' ratios):`);
      console.log(
        `- GET account list with balances: ${ratioInRounds(rounds('GET account list with balances'), rounds(BARE_LIST + variant))}`,
      );
      console.log(`- POST SEPA payment: ${ratioInRounds(rounds('POST SEPA payment'), rounds(BARE_PAYMENT + variant))}`);
    }
    console.log(
      `\na client's world (AUTH_MODE=strict) to the open one, server CPU a request (median of the rounds' ratios): POST SEPA payment ${ratioInRounds(cpu(STRICT_PAYMENT), cpu('POST SEPA payment'))}`,
    );
    if (process.env.BENCH_POSTGRES_URL) {
      // The app's CPU a request on PostgreSQL to its own on the SQLite file, each round's ratio taken within the round.
      console.log("\nPostgreSQL to SQLite, the app's CPU a request (median of the rounds' ratios):");
      for (const name of ['GET account list with balances', 'GET payment status', 'POST SEPA payment']) {
        console.log(
          `- ${name}: ${ratioInRounds(cpu(`${name}, PostgreSQL`), cpu(name))}, two instances ${ratioInRounds(cpu(`${name}, PostgreSQL, two instances`), cpu(name))}`,
        );
      }
    }
    console.log(
      `\ncold start (process start to first 200 on /health, fresh database, median of 5): ${report.coldStartMs} ms; peak RSS: ${report.peakRssMb} MB`,
    );
    if (against) {
      // The builds compared by the server's own CPU time a request, each round's ratio taken within the round.
      console.log(
        `\nagainst ${against.label} (server CPU µs a request, medians of the rounds; the ratio is this build's to ${against.label}'s within each round):`,
      );
      console.log(`| scenario | this build | ${against.label} | ratio |\n|---|---|---|---|`);
      for (const name of ['GET account list with balances', 'GET payment status', 'POST SEPA payment']) {
        const [mine, theirs] = [cpu(name), cpu(`${name}, ${against.label}`)];
        console.log(`| ${name} | ${median(mine)} | ${median(theirs)} | ${ratioInRounds(mine, theirs)} |`);
      }
    }
    printWorldLife(life);
    const { scaling } = report;
    console.log(
      `scaling: bulk seed ${scaling.bulkSeedSeconds} s; cold start on it ${scaling.coldStartMs} ms; ` +
        `GET payment status ${scaling.paymentStatusRatioToSmall}, GET transactions ${scaling.transactionsRatioToSmall} ` +
        `and POST SEPA payment ${scaling.paymentInitiationRatioToSmall} of their small-database req/s`,
    );
  } finally {
    await Promise.all(servers.map(stop));
    for (const step of cleanUp) await step();
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
