import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** Where Debian, Ubuntu and Google's packages put a Chromium; CHROMIUM_PATH comes first. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'];

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * Part of jest's global setup (global-setup.ts): finds a browser for the browser tests before any test runs, and hands its
 * path to every test file as CHROMIUM_PATH. Where there is none and the machine can (root, with
 * apt-get), it installs Debian's `chromium` first; elsewhere the run fails at once saying how to
 * get one. Never a browser downloaded by a test tool (docs/development.md).
 */
export default function findBrowser(): void {
  const given = process.env.CHROMIUM_PATH;
  if (given) {
    if (!executable(given)) throw new Error(`CHROMIUM_PATH=${given} is not an executable browser`);
    return;
  }
  let found = CANDIDATES.find(executable);
  if (!found && process.getuid?.() === 0 && executable('/usr/bin/apt-get')) {
    process.stdout.write(
      "\nNo Chromium on this machine: installing Debian's chromium for the browser tests (apt-get install chromium)...\n",
    );
    const quiet = { stdio: 'ignore' as const, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } };
    execFileSync('apt-get', ['update', '-qq'], quiet);
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], quiet);
    found = CANDIDATES.find(executable);
  }
  if (!found) {
    throw new Error(
      "No Chromium for the browser tests: install Debian's package (sudo apt-get install chromium), or set CHROMIUM_PATH to a Chrome or Chromium binary",
    );
  }
  process.env.CHROMIUM_PATH = found;
}
