import { ChildProcess, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort, spawnServer, waitForHealth } from '../test/support/server-process';

/**
 * `npm run bench`: builds the sandbox, starts it on a fresh database file and a minimal Nest app
 * beside it, and drives both with autocannon on loopback. Prints a table; writes bench/latest.json.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = 2;
const CONNECTIONS = 50;
const CONSENT = 'e6151d43-dca8-4fe1-b139-3a89bfeb57a2';
const MARIANNE = 'AT099900000000001511';
const PAYMENT = {
  debtorAccount: { iban: MARIANNE },
  instructedAmount: { currency: 'EUR', amount: '1.00' },
  creditorAccount: { iban: 'AT439900000000010017' },
  creditorName: 'Georg Mustermann',
};
const headers = (extra: Record<string, string> = {}) => ({ Authorization: 'Bearer bench', 'X-Request-ID': randomUUID(), ...extra });

interface Server {
  child: ChildProcess;
  base: string;
  coldStartMs: number;
}

/** Spawns `node <args>` and waits for the first 2xx on `path`: the time until then is the cold start. */
async function start(args: string[], environment: Record<string, string>, path: string): Promise<Server> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const { child, output } = spawnServer(args, { ...environment, PORT: String(port) });
  try {
    await waitForHealth(base, path);
  } catch (error) {
    child.kill();
    throw new Error(`${(error as Error).message}; it wrote:\n${output()}`);
  }
  return { child, base, coldStartMs: Math.round(performance.now() - started) };
}

/** Peak resident set size of a process so far, in MB (Linux). */
function peakRssMb(child: ChildProcess): number {
  const line = readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB$/m)!;
  return Math.round(Number(line[1]) / 1024);
}

interface Scenario {
  name: string;
  server: Server;
  request: { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };
}

interface Measured {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

async function drive({ server, request }: Scenario, duration: number): Promise<autocannon.Result> {
  return autocannon({ url: `${server.base}${request.path}`, method: request.method, headers: request.headers, body: request.body, connections: CONNECTIONS, duration });
}

async function measure(scenario: Scenario): Promise<Measured> {
  await drive(scenario, WARM_UP_SECONDS);
  const result = await drive(scenario, SECONDS);
  return {
    name: scenario.name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function main(): Promise<void> {
  execFileSync('npx', ['nest', 'build'], { stdio: 'inherit' });
  const folder = mkdtempSync(join(tmpdir(), 'psd2-sandbox-bench-'));
  const servers: Server[] = [];
  try {
    const baseline = await start(['-r', 'ts-node/register/transpile-only', 'bench/baseline.ts'], {}, '/');
    servers.push(baseline);
    const sandbox = await start(['dist/src/main.js'], { NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_PATH: join(folder, 'bench.sqlite') }, '/health');
    servers.push(sandbox);

    const created = await fetch(`${sandbox.base}/v1/payments/sepa-credit-transfers`, {
      method: 'POST',
      headers: headers({ 'Content-Type': 'application/json', 'PSU-IP-Address': '192.0.2.10' }),
      body: JSON.stringify(PAYMENT),
    });
    const { paymentId } = (await created.json()) as { paymentId: string };

    const scenarios: Scenario[] = [
      { name: 'baseline: minimal Nest app, static JSON', server: baseline, request: { method: 'GET', path: '/', headers: {} } },
      { name: 'GET account list with balances', server: sandbox, request: { method: 'GET', path: '/v1/accounts?withBalance=true', headers: headers({ 'Consent-ID': CONSENT }) } },
      { name: 'GET transactions (both)', server: sandbox, request: { method: 'GET', path: `/v1/accounts/${MARIANNE}/transactions?bookingStatus=both`, headers: headers({ 'Consent-ID': CONSENT }) } },
      {
        name: 'POST SEPA payment',
        server: sandbox,
        request: { method: 'POST', path: '/v1/payments/sepa-credit-transfers', headers: headers({ 'Content-Type': 'application/json', 'PSU-IP-Address': '192.0.2.10' }), body: JSON.stringify(PAYMENT) },
      },
      { name: 'GET payment status', server: sandbox, request: { method: 'GET', path: `/v1/payments/sepa-credit-transfers/${paymentId}/status`, headers: headers() } },
    ];
    const results: Measured[] = [];
    for (const scenario of scenarios) {
      results.push(await measure(scenario));
      console.error(`measured: ${scenario.name}`);
    }
    const ceiling = results[0].requestsPerSecond;
    const report = {
      date: new Date().toISOString(),
      machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
      connections: CONNECTIONS,
      seconds: SECONDS,
      scenarios: results.map((result) => ({ ...result, ratioToBaseline: Number((result.requestsPerSecond / ceiling).toFixed(2)) })),
      coldStartMs: sandbox.coldStartMs,
      peakRssMb: peakRssMb(sandbox.child),
    };
    writeFileSync(join('bench', 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log('| scenario | req/s | p50 ms | p99 ms | ratio to baseline | non-2xx | errors |');
    console.log('|---|---|---|---|---|---|---|');
    for (const row of report.scenarios) {
      console.log(`| ${row.name} | ${row.requestsPerSecond} | ${row.p50Ms} | ${row.p99Ms} | ${row.ratioToBaseline} | ${row.non2xx} | ${row.errors} |`);
    }
    console.log(`\ncold start (process start to first 200 on /health, fresh database): ${report.coldStartMs} ms; peak RSS: ${report.peakRssMb} MB`);
  } finally {
    for (const { child } of servers) child.kill('SIGTERM');
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
