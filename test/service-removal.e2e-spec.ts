import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { servedPaths } from './support/served-paths';

jest.setTimeout(600_000);

const ROOT = join(__dirname, '..');
const run = promisify(execFile);
/** What a copy needs: no build output, no data, no dependencies (linked), no history. */
const LEFT_OUT = /^(node_modules|dist|data|coverage|\.git)(\/|$)/;
/** The whole project's served paths, once for both removals. */
let whole: Promise<Record<string, string[]>> | undefined;

/**
 * The removal proof (docs/development.md, "A service plugs in"): a copy of the project without a
 * service's folder and its lines in src/services.ts builds (tsc over src, seeds, tests, bench),
 * starts in every built-in profile serving every route but the service's, and passes the unit
 * specs. The whole suite against such a copy is measured in docs/development.md; CI runs this.
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
    const name = /^import \{ (\w+) \} from '\.\/([\w-]+)\//.exec(lines.find((line) => line.includes(`'./${folder}/`))!)![1];
    writeFileSync(registry, lines.filter((line) => !line.includes(`'./${folder}/`) && line.trim() !== `${name},`).join('\n'));
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

  it('passes the unit specs', async () => {
    const environment = { ...process.env, TEST_POSTGRES_URL: '' };
    await run(process.execPath, [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), 'src/', '--ci', '--selectProjects', 'bank'], { cwd: copy, env: environment, maxBuffer: 16 * 1024 * 1024 });
  });
});
