import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './support/server-process';
import { removeDatabase, startSandbox } from './support/sandbox';

const run = promisify(execFile);

/** The README's walk with curl, its shell blocks in order, as a reader pastes them. */
function walk(): string {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Walk-through with curl'), readme.indexOf('## Read on'));
  return [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map(([, block]) => block).join('\n');
}

/**
 * The README's walk runs as written (docs/development.md, "Tests"): pasted into bash against a
 * sandbox of each profile it names, every command succeeds, every answer is one the served
 * document lists (the contract check of startSandbox), and the answers its comments quote come.
 */
describe.each(['bank', 'berlin-group'])("the README's walk with curl, PROFILE=%s", (profile) => {
  it('runs as written', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const sandbox = await startSandbox({ PROFILE: profile, PUBLIC_BASE_URL: base, SANDBOX_DATE: undefined });
    try {
      await sandbox.app.listen(port, '127.0.0.1');
      const script = walk().replace('S=http://localhost:3000', `S=${base}`);
      expect(script).toContain(`S=${base}`);
      const { stdout, stderr } = await run('bash', ['-euo', 'pipefail', '-c', script], { maxBuffer: 16 * 1024 * 1024 });
      const answers = `${stdout}${stderr}`;
      expect(answers).toContain('{"consentStatus":"valid"}');
      expect(answers).toContain('{"transactionStatus":"ACSP"}');
      expect(answers).toContain('{"transactionStatus":"PDNG"}');
      expect(stdout).toMatch(/}204\n/); // the DELETE of the consent the walk made (curl -w)
      expect(answers).not.toMatch(/"code":"INTERNAL_SERVER_ERROR"/);
    } finally {
      await sandbox.close();
      await removeDatabase(sandbox.database);
    }
  }, 60_000);
});
