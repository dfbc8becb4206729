import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { parseDocument, type YAMLMap } from 'yaml';
import type { SandboxService } from '../src/core/sandbox-service';
import { servedPaths } from './support/served-paths';

jest.setTimeout(600_000);

const ROOT = join(__dirname, '..');
const run = promisify(execFile);
/** What a copy needs: no build output, no data, no dependencies (linked), no history. */
const LEFT_OUT = /^(node_modules|dist|data|coverage|\.git)(\/|$)/;
/** The e2e suites that reach into every service: the isolation matrix, the Postman walks, scenarios, the event history, the migrations. */
const CROSSING = ['test/access.e2e-spec.ts', 'test/collection.e2e-spec.ts', 'test/scenarios.e2e-spec.ts', 'test/events.e2e-spec.ts', 'test/persistence.e2e-spec.ts'];
/** The whole project's served paths, once for both removals. */
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

/**
 * The removal proof (docs/development.md, "A service plugs in"): a copy of the project without a
 * service's folder, its lines in src/services.ts and its keys in the built-in profiles builds (tsc
 * over src, seeds, tests, bench), starts in every built-in profile serving every route but the
 * service's, and passes the unit specs and the suites that cross every service. CI runs this; the
 * whole suite against such a copy is measured in docs/development.md.
 */
describe.each([
  { folder: 'card-accounts', routes: '/v1/card-accounts' },
  { folder: 'trusted-beneficiaries', routes: '/v1/trusted-beneficiaries' },
])('the project without src/$folder', ({ folder, routes }) => {
  let copy: string;
  let full: Record<string, string[]>;

  beforeAll(async () => {
    full = await (whole ??= servedPaths());
    copy = mkdtempSync(join(tmpdir(), `psd2-without-${folder}-`));
    cpSync(ROOT, copy, { recursive: true, filter: (path) => !LEFT_OUT.test(relative(ROOT, path)) });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    rmSync(join(copy, 'src', folder), { recursive: true });
    const registry = join(copy, 'src', 'services.ts');
    const lines = readFileSync(registry, 'utf8').split('\n');
    const [, name, descriptor] = /^import \{ (\w+) \} from '\.\/([\w./-]+)';/.exec(lines.find((line) => line.includes(`'./${folder}/`))!)!;
    writeFileSync(registry, lines.filter((line) => !line.includes(`'./${folder}/`) && line.trim() !== `${name},`).join('\n'));
    // A profile naming a key of a service the build lacks is refused (docs/profiles.md): the built-in ones lose its keys.
    const { profileKeys } = (await import(join(ROOT, 'src', descriptor)))[name] as SandboxService;
    for (const profile of readdirSync(join(copy, 'profiles'))) withoutKeys(join(copy, 'profiles', profile, 'profile.yaml'), Object.keys(profileKeys));
  });

  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('builds', async () => {
    await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json'], { cwd: copy });
  });

  it('starts in every built-in profile, serving every route but its own', async () => {
    const { stdout } = await run(process.execPath, [join(ROOT, 'node_modules', 'ts-node', 'dist', 'bin.js'), '--transpile-only', 'test/support/served-paths.ts'], { cwd: copy, maxBuffer: 16 * 1024 * 1024 });
    const without = Object.fromEntries(Object.entries(full).map(([profile, paths]) => [profile, paths.filter((path) => !path.startsWith(routes))]));
    expect(JSON.parse(stdout)).toEqual(without);
    expect(Object.values(full).flat().some((path) => path.startsWith(routes))).toBe(true);
  });

  it('passes the unit specs and the suites that cross every service', async () => {
    const environment = { ...process.env, TEST_POSTGRES_URL: '' };
    await run(process.execPath, [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), 'src/', ...CROSSING, '--ci', '--selectProjects', 'bank'], { cwd: copy, env: environment, maxBuffer: 16 * 1024 * 1024 });
  });
});
