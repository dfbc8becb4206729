import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import findBrowser from './find-browser';
import { buildServer, builtIn } from './server-process';
import { createPostgresDatabase, newDatabaseUrl } from './engine';
import { builtInProfiles } from '../../src/profile/load-profile';

const run = promisify(execFile);

/**
 * Jest's global setup, once for every project and worker of a run (docs/development.md, "How a run
 * is put together"): finds the browser; builds the server once unless given a build (the built
 * server's, the server process's and persistence's suites run it: `TEST_BUILD`); and makes each
 * built-in profile's database once on each engine of the run, as `npm run seed` makes it
 * (`TEST_TEMPLATES`). A sandbox a test starts begins from a copy of it (startSandbox), so that a run
 * migrates and seeds a few databases instead of hundreds.
 */
export default async function globalSetup(): Promise<void> {
  findBrowser();
  // TEST_PREBUILT: a build made already, as the removal proof makes its copy's (test/service-removal.e2e-spec.ts).
  const build = process.env.TEST_PREBUILT ? builtIn(process.env.TEST_PREBUILT) : buildServer();
  process.env.TEST_BUILD = build.folder;
  const folder = mkdtempSync(join(tmpdir(), 'psd2-templates-'));
  const administrator = process.env.TEST_POSTGRES_URL;
  const templates: Templates = { folder, sqlite: {}, postgres: {} };
  const seed = (settings: Record<string, string>) =>
    run(process.execPath, [build.script('seeds/seed.js')], { env: { ...process.env, NODE_PATH: build.nodePath, ...settings } });
  await Promise.all(
    builtInProfiles().flatMap((profile) => [
      (async () => {
        templates.sqlite[profile] = join(folder, `${profile}.sqlite`);
        await seed({ PROFILE: profile, DATABASE_PATH: templates.sqlite[profile] });
      })(),
      ...(administrator
        ? [
            (async () => {
              const database = newDatabaseUrl(administrator, `sandbox_template_${profile.replace(/\W/g, '_')}`);
              await createPostgresDatabase(database, administrator);
              await seed({ PROFILE: profile, DATABASE_URL: database });
              templates.postgres[profile] = database;
            })(),
          ]
        : []),
    ]),
  );
  process.env.TEST_TEMPLATES = JSON.stringify(templates);
}

/** Where each built-in profile's migrated and seeded database is kept for the run, on each engine. */
export interface Templates {
  folder: string;
  sqlite: Record<string, string>;
  postgres: Record<string, string>;
}
