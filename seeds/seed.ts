import 'reflect-metadata';
import { validateEnvironment } from '../src/config/environment';
import { databaseName, dataSourceOptions, openDataSource } from '../src/database/data-source';
import { loadProfile, ProfileError } from '../src/profile/load-profile';
import { SERVICES } from '../src/services';
import { schemaOf } from '../src/schema/schema';
import { seeding } from '../src/schema/seed-fixtures';

/**
 * `npm run seed`: migrate and upsert the profile's fixtures. `npm run db:reset` (`--reset`): instead
 * delete everything TPPs created and every fixture, and seed the profile in force (also another
 * one than the database had). Both work on the server's database (DATABASE_URL, else DATABASE_PATH).
 */
async function main(): Promise<void> {
  const environment = validateEnvironment(process.env);
  const options = dataSourceOptions(environment, schemaOf(SERVICES));
  const profile = loadProfile(environment.PROFILE, SERVICES);
  const reseed = process.argv.includes('--reset');
  // Opening migrates and seeds, as the server does when it starts.
  const dataSource = await openDataSource(options, seeding(profile, { reseed }));
  try {
    console.log(
      reseed
        ? `Reset ${databaseName(options)}: everything deleted, the fixtures of profile ${profile.source} loaded.`
        : `Seeded the fixtures of profile ${profile.source} into ${databaseName(options)}.`,
    );
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  // A bad setting or profile is told in its lines, not as a stack trace.
  console.error(
    error instanceof ProfileError || (error instanceof Error && error.message.startsWith('Invalid configuration')) ? error.message : error,
  );
  process.exit(1);
});
