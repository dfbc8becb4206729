import { openApiDocument } from '../../src/app.factory';
import { builtInProfiles } from '../../src/profile/load-profile';
import { removeDatabase, startSandbox } from './sandbox';

/** Each built-in profile's served paths (control API on): what the removal proof compares (test/service-removal.e2e-spec.ts). */
export async function servedPaths(): Promise<Record<string, string[]>> {
  const paths: Record<string, string[]> = {};
  for (const profile of builtInProfiles()) {
    const sandbox = await startSandbox({ PROFILE: profile, SANDBOX_CONTROL: 'true' });
    paths[profile] = Object.keys(openApiDocument(sandbox.app).paths);
    await sandbox.app.close();
    await removeDatabase(sandbox.database);
  }
  return paths;
}

// Run in a copy of the project, it prints them: the copy starts in every profile or this fails.
if (require.main === module) {
  servedPaths().then(
    (paths) => process.stdout.write(JSON.stringify(paths)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
