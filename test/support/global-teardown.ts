import { rmSync } from 'node:fs';
import { dropPostgresDatabase } from './engine';
import type { Templates } from './global-setup';

/** Jest's global teardown: removes what the global setup made, the build and the template databases. */
export default async function globalTeardown(): Promise<void> {
  if (process.env.TEST_BUILD && process.env.TEST_BUILD !== process.env.TEST_PREBUILT)
    rmSync(process.env.TEST_BUILD, { recursive: true, force: true });
  if (!process.env.TEST_TEMPLATES) return;
  const templates = JSON.parse(process.env.TEST_TEMPLATES) as Templates;
  rmSync(templates.folder, { recursive: true, force: true });
  for (const database of Object.values(templates.postgres)) await dropPostgresDatabase(database, process.env.TEST_POSTGRES_URL!);
}
