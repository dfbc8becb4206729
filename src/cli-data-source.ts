import { DataSource } from 'typeorm';
import { validateEnvironment } from './config/environment';
import { dataSourceOptions } from './database/data-source';
import { SERVICES } from './services';
import { schemaOf } from './schema/schema';

/** For the TypeORM CLI (`npm run typeorm -- migration:show`), on the server's database. Apart, so that importing the app's data source reads no setting. */
export default new DataSource(dataSourceOptions(validateEnvironment(process.env), schemaOf(SERVICES)));
