import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { parseDocument, type YAMLMap } from 'yaml';
import type { SandboxService } from '../src/core/sandbox-service';
import { SERVICES } from '../src/services';
import { servedPaths } from './support/served-paths';

jest.setTimeout(600_000);

const ROOT = join(__dirname, '..');
const execute = promisify(execFile);
/** Runs a command of the copy; where it fails, the error says all it printed (tsc writes its errors to stdout). */
async function run(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ stdout: string; stderr: string }> {
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
const CROSSING = [
  'test/access.e2e-spec.ts',
  'test/collection.e2e-spec.ts',
  'test/scenarios.e2e-spec.ts',
  'test/events.e2e-spec.ts',
  'test/persistence.e2e-spec.ts',
];
/** The routes each service serves, by the start of their paths: what a copy without it no longer serves. */
const OWN_ROUTES: Record<string, RegExp> = {
  'funds-confirmation': /^\/(v1\/funds-confirmations|v2\/consents\/confirmation-of-funds)(\/|$)/,
  'trusted-beneficiaries': /^\/v1\/trusted-beneficiaries(\/|$)/,
  'card-accounts': /^\/v1\/card-accounts(\/|$)/,
  'signing-baskets': /^\/(v1|sandbox\/sca)\/signing-baskets(\/|$)/,
  'permission-dashboard': /^\/sandbox\/(psus\/\{psuId\}\/permissions(\/|$)|dashboard-links$)/,
};
/** Every service src/services.ts registers: its descriptor's name, its folder and the descriptor's file. */
const REGISTERED = [
  ...readFileSync(join(ROOT, 'src', 'services.ts'), 'utf8').matchAll(/^import \{ (\w+) \} from '\.\/(([\w-]+)\/[\w.-]+)';$/gm),
].map(([, name, descriptor, folder]) => ({ name, descriptor, folder }));
/** The whole project's served paths, once for every removal. */
let whole: Promise<Record<string, string[]>> | undefined;

/** Takes the keys (dotted paths) out of a profile.yaml, and a map they leave empty. */
function withoutKeys(file: string, keys: string[]): void {
  const document = parseDocument(readFileSync(file, 'utf8'));
  for (const path of keys.map((key) => key.split('.')).filter((path) => document.hasIn(path))) {
    document.deleteIn(path);
    if (path.length > 1 && (document.getIn(path.slice(0, -1)) as YAMLMap | undefined)?.items.length === 0)
      document.deleteIn(path.slice(0, -1));
  }
  writeFileSync(file, document.toString());
}

/** What a process of the copy must not inherit: this run's build, template databases and PostgreSQL. */
const NOT_INHERITED = ['TEST_BUILD', 'TEST_TEMPLATES', 'TEST_POSTGRES_URL', 'TEST_POSTGRES_SMALL_TABLESPACE'];
const copyEnvironment = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !NOT_INHERITED.includes(key))),
  ...extra,
});

it('covers every registered service', () => {
  expect(REGISTERED.map(({ folder }) => folder).sort()).toEqual(Object.keys(OWN_ROUTES).sort());
  expect(REGISTERED).toHaveLength(SERVICES.length);
});

type Registered = (typeof REGISTERED)[number];

/**
 * A copy of the project without the `removed` services, for the enclosing describe block: without
 * their folders, their lines in src/services.ts and their keys in the built-in profiles (a profile
 * naming a key of a service the build lacks is refused: docs/profiles.md). `build` is where the
 * copy's compilation puts what the next steps run.
 */
function useCopyWithout(removed: Registered[]): { copy: string; build: string } {
  const made = { copy: '', build: '' };
  beforeAll(async () => {
    made.copy = mkdtempSync(join(tmpdir(), `psd2-without-${removed.length === 1 ? removed[0].folder : 'services'}-`));
    made.build = join(made.copy, 'build');
    cpSync(ROOT, made.copy, { recursive: true, filter: (path) => !LEFT_OUT.test(relative(ROOT, path)) });
    symlinkSync(join(ROOT, 'node_modules'), join(made.copy, 'node_modules'), 'dir');
    const registry = join(made.copy, 'src', 'services.ts');
    let lines = readFileSync(registry, 'utf8').split('\n');
    for (const { name, descriptor, folder } of removed) {
      rmSync(join(made.copy, 'src', folder), { recursive: true });
      lines = lines.filter((line) => !line.includes(`'./${folder}/`) && line.trim() !== `${name},`);
      const { profileKeys } = (await import(join(ROOT, 'src', descriptor)))[name] as SandboxService;
      for (const profile of readdirSync(join(made.copy, 'profiles')))
        withoutKeys(join(made.copy, 'profiles', profile, 'profile.yaml'), Object.keys(profileKeys));
    }
    writeFileSync(registry, lines.join('\n'));
  });
  afterAll(() => rmSync(made.copy, { recursive: true, force: true }));
  return made;
}

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * The copy without all of the services is compiled as it is, type-checked (tsc over src, migrations,
 * seeds, test and bench), into `build`; the built-in profiles sit beside dist/, as in the project.
 */
async function compileChecked({ copy, build }: { copy: string; build: string }): Promise<void> {
  await run(process.execPath, [TSC, '-p', 'tsconfig.json', '--outDir', join(build, 'dist')], { cwd: copy });
  symlinkSync(join(copy, 'profiles'), join(build, 'profiles'));
}

/** The whole project emitted once, unchecked, for the copies without one service. */
let wholeEmit: Promise<string> | undefined;
const emitWhole = async (): Promise<string> => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-whole-emit-'));
  await run(process.execPath, [TSC, '-p', 'tsconfig.json', '--outDir', folder, '--noCheck'], { cwd: ROOT });
  return folder;
};
afterAll(async () => {
  if (wholeEmit) rmSync(await wholeEmit, { recursive: true, force: true });
});

/**
 * A copy without one service is built as its own unchecked emit would be: the whole project's
 * emit without the service's folder, and its src/services.ts emitted again. What could break such a
 * build is an import of the service from elsewhere: from another service the lint refuses it
 * (eslint-layers.js), from the core, test or bench the copy without all of them type-checks; and
 * tsconfig.json's isolatedModules makes each file's output its own, so a file that imports the
 * service keeps the require that fails the start. Five emits of the whole project were about 45 s
 * of a core (docs/development.md).
 */
async function emitWithout({ copy, build }: { copy: string; build: string }, { folder }: Registered): Promise<void> {
  const whole = await (wholeEmit ??= emitWhole());
  cpSync(whole, join(build, 'dist'), { recursive: true, filter: (path) => relative(whole, path) !== join('src', folder) });
  const { config } = ts.readConfigFile(join(copy, 'tsconfig.json'), (file) => readFileSync(file, 'utf8'));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, copy);
  const registry = join(copy, 'src', 'services.ts');
  const { outputText, sourceMapText } = ts.transpileModule(readFileSync(registry, 'utf8'), {
    compilerOptions: options,
    fileName: registry,
  });
  writeFileSync(join(build, 'dist', 'src', 'services.js'), outputText);
  if (sourceMapText) writeFileSync(join(build, 'dist', 'src', 'services.js.map'), sourceMapText);
  symlinkSync(join(copy, 'profiles'), join(build, 'profiles'));
}

/** The copy's build starts in every built-in profile and serves every route of the whole project but the removed services'. */
async function expectServedWithout({ copy, build }: { copy: string; build: string }, removed: Registered[]): Promise<void> {
  const full = await (whole ??= servedPaths());
  const theirs = (path: string) => removed.some(({ folder }) => OWN_ROUTES[folder].test(path));
  const { stdout } = await run(process.execPath, [join(build, 'dist', 'test', 'support', 'served-paths.js')], {
    cwd: copy,
    env: copyEnvironment({ NODE_PATH: join(ROOT, 'node_modules') }),
  });
  expect(JSON.parse(stdout)).toEqual(
    Object.fromEntries(Object.entries(full).map(([profile, paths]) => [profile, paths.filter((path) => !theirs(path))])),
  );
  for (const { folder } of removed)
    expect([
      folder,
      Object.values(full)
        .flat()
        .some((path) => OWN_ROUTES[folder].test(path)),
    ]).toEqual([folder, true]);
}

/**
 * The removal proof (docs/development.md, "A service plugs in"): the project without each service
 * builds and starts in every built-in profile, serving every route but the service's; without all of
 * them, the core alone, it also passes the unit specs that reach the registry and the suites that
 * cross every service (a suite's rows about a service exist where the service does, so there every
 * service's rows are absent at once). Each copy is compiled once: the build serves the start, the seed script and the
 * crossing suites' built server; the crossing suites run in one process of their own, transpiled as
 * the main run's are.
 */
describe.each(REGISTERED)('the project without src/$folder', (service) => {
  const made = useCopyWithout([service]);

  it('builds: the whole emit without its folder, src/services.ts emitted again', () => emitWithout(made, service));

  it('starts in every built-in profile, serving every route but its own', () => expectServedWithout(made, [service]));
});

describe('the project without any of the services, the core alone', () => {
  const made = useCopyWithout(REGISTERED);

  it('builds: tsc over src, migrations, seeds, test and bench, type-checked', () => compileChecked(made));

  it('starts in every built-in profile, serving every route but theirs', () => expectServedWithout(made, REGISTERED));

  it('passes the unit specs that reach the registry and the suites that cross every service', async () => {
    const environment = copyEnvironment({ TEST_PREBUILT: made.build });
    const jest = (...args: string[]) =>
      run(process.execPath, [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), ...args, '--ci', '--selectProjects', 'bank'], {
        cwd: made.copy,
        env: environment,
      });
    // A unit spec whose imports never reach src/services.ts runs the same files here as in the main
    // run: only those that do can tell the copy from the project (docs/development.md, "A service plugs in").
    const related = (await jest('--listTests', '--findRelatedTests', join('src', 'services.ts'))).stdout
      .split('\n')
      .filter((path) => path.startsWith(join(made.copy, 'src') + '/'));
    expect(related).toContain(join(made.copy, 'src', 'services.spec.ts'));
    await jest(...related.map((path) => relative(made.copy, path)), ...CROSSING, '--runInBand');
  });
});
