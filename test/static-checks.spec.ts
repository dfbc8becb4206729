import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

// Each takes a quarter of a minute of one core, more on a loaded machine.
jest.setTimeout(300_000);

/**
 * What the compiler and the linter say of the whole project, once a run: jest itself only transpiles
 * (jest.config.js), so a type error fails the run here, as a lint error does (docs/development.md).
 */
describe('the project', () => {
  it('type-checks: tsc --noEmit over src, migrations, seeds, test and bench', async () => {
    await expect(
      run(process.execPath, [require.resolve('typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json'], {
        cwd: ROOT,
        maxBuffer: 16 * 1024 * 1024,
      }),
    ).resolves.toEqual({ stdout: '', stderr: '' });
  });

  it('passes npm run lint (eslint, the layers included)', async () => {
    await expect(
      run(process.execPath, [join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js'), '.'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }),
    ).resolves.toEqual({ stdout: '', stderr: '' });
  });

  it('is formatted as npm run format leaves it (Prettier)', async () => {
    const prettier = join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
    await expect(
      run(process.execPath, [prettier, '--check', '--log-level', 'warn', '{src,test,seeds,bench,migrations}/**/*.ts'], {
        cwd: ROOT,
        maxBuffer: 16 * 1024 * 1024,
      }),
    ).resolves.toEqual({ stdout: '', stderr: '' });
  });
});
