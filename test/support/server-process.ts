import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServerProcess {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** What it wrote to stderr alone. */
  errors(): string;
  /** Resolves when the process has ended, with its exit code or signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `node <args>` with the sandbox's settings in `environment`, on top of the test's own environment. */
export function spawnServer(args: string[], environment: Record<string, string>): ServerProcess {
  let output = '';
  let errors = '';
  const child = spawn(process.execPath, args, { env: { ...process.env, ...environment }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    errors += chunk.toString();
  });
  // 'close', not 'exit': by then everything the process wrote has been read.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, errors: () => errors, exited };
}

/** Polls `path` until it answers 2xx; often, so that the moment it first does is a fair cold-start time. */
export async function waitForHealth(base: string, path = '/health'): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}${path}`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the server did not answer ${path}`);
}

/** A free loopback port, so that PUBLIC_BASE_URL can name the port before the app listens on it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Compiles the server as `npm run build` emits it, into a temporary folder beside a link to the built-in profiles (the project's dist/ stays
 * untouched). Answers its entry point, the NODE_PATH it needs to find the project's
 * node_modules from there, and the folder to delete afterwards. Jest's global setup builds once a run (builtServer).
 */
export function buildServer(): Built {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-sandbox-build-'));
  // --noCheck: the same files as a checked build, in half the time; the run type-checks once (test/static-checks.spec.ts).
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', join(folder, 'dist'), '--noCheck'],
    { stdio: 'inherit' },
  );
  // The built-in profiles sit beside dist/, as in the project and the image.
  symlinkSync(join(process.cwd(), 'profiles'), join(folder, 'profiles'));
  return builtIn(folder);
}

export interface Built {
  /** The server's entry point, dist/src/main.js. */
  main: string;
  /** What NODE_PATH must hold for the build to find the project's node_modules. */
  nodePath: string;
  folder: string;
  /** A built script of the project (`seeds/seed.js`). */
  script(path: string): string;
}

/** The build in `folder` (its dist/ beside the built-in profiles). */
export const builtIn = (folder: string): Built => ({
  main: join(folder, 'dist', 'src', 'main.js'),
  nodePath: join(process.cwd(), 'node_modules'),
  folder,
  script: (path) => join(folder, 'dist', path),
});

/** The build jest's global setup made for this run (test/support/global-setup.ts). */
export function builtServer(): Built {
  const folder = process.env.TEST_BUILD;
  if (!folder) throw new Error("TEST_BUILD is unset: the build is made by jest's global setup (jest.config.js)");
  return builtIn(folder);
}
