import 'reflect-metadata';
import { validateEnvironment } from '../src/config/environment';
import { databaseName, dataSourceOptions, openDataSource } from '../src/database/data-source';
import { resetSandbox } from '../src/database/seed-fixtures';

/**
 * `npm run seed`: migrate and upsert the fixtures. `npm run db:reset` (`--reset`): also delete
 * everything TPPs created. Both work on the server's database (DATABASE_URL, else DATABASE_PATH).
 */
async function main(): Promise<void> {
  const options = dataSourceOptions(validateEnvironment(process.env));
  // Opening migrates and upserts the fixtures, as the server does when it starts.
  const dataSource = await openDataSource(options);
  try {
    if (process.argv.includes('--reset')) {
      await resetSandbox(dataSource);
      console.log(`Reset ${databaseName(options)}: TPP-created data deleted, fixtures reloaded.`);
    } else {
      console.log(`Seeded the fixtures into ${databaseName(options)}.`);
    }
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
