import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { parseDocument, type YAMLMap } from 'yaml';
import type { SandboxService } from '../src/core/sandbox-service';
import { SERVICES } from '../src/services';
import { servedPaths } from './support/served-paths';

jest.setTimeout(600_000);

const ROOT = join(__dirname, '..');
const execute = promisify(execFile);
/** Runs a command of the copy; where it fails, the error says all it printed (tsc writes its errors to stdout). */
async function run(file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execute(file, args, { maxBuffer: 16 * 1024 * 1024, encoding: 'utf8', ...options });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${(error as Error).message.split('\n')[0]}\n${stdout}${stderr}`);
  }
}
/** What a copy needs: no build output, no data, no dependencies (linked), no history. */
const LEFT_OUT = /^(node_modules|dist|data|coverage|\.git)(\/|$)/;
/** The e2e suites that reach into every service: the isolation matrix, the Postman walks, scenarios, the event history, the migrations and the seed. */
const CROSSING = ['test/access.e2e-spec.ts', 'test/collection.e2e-spec.ts', 'test/scenarios.e2e-spec.ts', 'test/events.e2e-spec.ts', 'test/persistence.e2e-spec.ts'];
/** The routes each service serves, by the start of their paths: what a copy without it no longer serves. */
const OWN_ROUTES: Record<string, RegExp> = {
  'funds-confirmation': /^\/(v1\/funds-confirmations|v2\/consents\/confirmation-of-funds)(\/|$)/,
  'trusted-beneficiaries': /^\/v1\/trusted-beneficiaries(\/|$)/,
  'card-accounts': /^\/v1\/card-accounts(\/|$)/,
  'signing-baskets': /^\/(v1|sandbox\/sca)\/signing-baskets(\/|$)/,
  'permission-dashboard': /^\/sandbox\/psus\/\{psuId\}\/permissions(\/|$)/,
};
/** Every service src/services.ts registers: its descriptor's name, its folder and the descriptor's file. */
const REGISTERED = [...readFileSync(join(ROOT, 'src', 'services.ts'), 'utf8').matchAll(/^import \{ (\w+) \} from '\.\/(([\w-]+)\/[\w.-]+)';$/gm)].map(([, name, descriptor, folder]) => ({ name, descriptor, folder }));
/** The whole project's served paths, once for every removal. */
let whole: Promise<Record<string, string[]>> | undefined;

/** Takes the keys (dotted paths) out of a profile.yaml, and a map they leave empty. */
function withoutKeys(file: string, keys: string[]): void {
  const document = parseDocument(readFileSync(file, 'utf8'));
  for (const path of keys.map((key) => key.split('.')).filter((path) => document.hasIn(path))) {
    document.deleteIn(path);
    if (path.length > 1 && (document.getIn(path.slice(0, -1)) as YAMLMap | undefined)?.items.length === 0) document.deleteIn(path.slice(0, -1));
  }
  writeFileSync(file, document.toString());
}

/** What a process of the copy must not inherit: this run's build, template databases and PostgreSQL. */
const NOT_INHERITED = ['TEST_BUILD', 'TEST_TEMPLATES', 'TEST_POSTGRES_URL', 'TEST_POSTGRES_SMALL_TABLESPACE'];
const copyEnvironment = (extra: Record<string, string>): NodeJS.ProcessEnv => ({ ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !NOT_INHERITED.includes(key))), ...extra });

it('covers every registered service', () => {
  expect(REGISTERED.map(({ folder }) => folder).sort()).toEqual(Object.keys(OWN_ROUTES).sort());
  expect(REGISTERED).toHaveLength(SERVICES.length);
});

/**
 * The removal proof (docs/development.md, "A service plugs in"): a copy of the project without a
 * service's folder, its lines in src/services.ts and its keys in the built-in profiles builds (tsc
 * over src, migrations, seeds, test and bench), starts in every built-in profile serving every route
 * but the service's, and passes the unit specs and the suites that cross every service. The copy is
 * compiled once: the build serves the start, the seed script and the crossing suites' built server;
 * the crossing suites run in one process of their own, transpiled as the main run's are.
 */
describe.each(REGISTERED)('the project without src/$folder', ({ name, descriptor, folder }) => {
  let copy: string;
  let build: string;

  beforeAll(async () => {
    copy = mkdtempSync(join(tmpdir(), `psd2-without-${folder}-`));
    build = join(copy, 'build');
    cpSync(ROOT, copy, { recursive: true, filter: (path) => !LEFT_OUT.test(relative(ROOT, path)) });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    rmSync(join(copy, 'src', folder), { recursive: true });
    const registry = join(copy, 'src', 'services.ts');
    const lines = readFileSync(registry, 'utf8').split('\n');
    writeFileSync(registry, lines.filter((line) => !line.includes(`'./${folder}/`) && line.trim() !== `${name},`).join('\n'));
    // A profile naming a key of a service the build lacks is refused (docs/profiles.md): the built-in ones lose its keys.
    const { profileKeys } = (await import(join(ROOT, 'src', descriptor)))[name] as SandboxService;
    for (const profile of readdirSync(join(copy, 'profiles'))) withoutKeys(join(copy, 'profiles', profile, 'profile.yaml'), Object.keys(profileKeys));
  });

  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('builds: tsc over src, migrations, seeds, test and bench', async () => {
    // One compilation type-checks it all and emits what the next steps run; the built-in profiles sit beside dist/, as in the project.
    await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--outDir', join(build, 'dist')], { cwd: copy });
    symlinkSync(join(copy, 'profiles'), join(build, 'profiles'));
  });

  it('starts in every built-in profile, serving every route but its own', async () => {
    const full = await (whole ??= servedPaths());
    const served = join(build, 'dist', 'test', 'support', 'served-paths.js');
    const { stdout } = await run(process.execPath, [served], { cwd: copy, env: copyEnvironment({ NODE_PATH: join(ROOT, 'node_modules') }) });
    const without = Object.fromEntries(Object.entries(full).map(([profile, paths]) => [profile, paths.filter((path) => !OWN_ROUTES[folder].test(path))]));
    expect(JSON.parse(stdout)).toEqual(without);
    expect(Object.values(full).flat().some((path) => OWN_ROUTES[folder].test(path))).toBe(true);
  });

  it('passes the unit specs and the suites that cross every service', async () => {
    const environment = copyEnvironment({ TEST_PREBUILT: build });
    await run(process.execPath, [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), 'src/', ...CROSSING, '--ci', '--runInBand', '--selectProjects', 'bank'], { cwd: copy, env: environment });
  });
});
