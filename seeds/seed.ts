import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { validateEnvironment } from '../src/config/environment';
import { dataSourceOptions } from '../src/database/data-source';
import { resetSandbox, seedFixtures } from './fixtures';

/**
 * `npm run seed`: migrate and upsert the fixtures. `npm run db:reset` (`--reset`): also delete
 * everything TPPs created. Both work on DATABASE_PATH, like the server.
 */
async function main(): Promise<void> {
  const { DATABASE_PATH } = validateEnvironment(process.env);
  const dataSource = await new DataSource(dataSourceOptions(DATABASE_PATH)).initialize();
  try {
    await dataSource.runMigrations({ transaction: 'all' });
    if (process.argv.includes('--reset')) {
      await resetSandbox(dataSource);
      console.log(`Reset ${DATABASE_PATH}: TPP-created data deleted, fixtures reloaded.`);
    } else {
      await dataSource.transaction((manager) => seedFixtures(manager));
      console.log(`Seeded the fixtures into ${DATABASE_PATH}.`);
    }
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
