import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { ChangeFeed } from './change-feed';
import { GroupCommit } from './group-commit';
import { Store } from './store';
import { PooledTransactions, WriteStrategy } from './write-strategy';
import { WorldPurge } from './world-purge';
import { WorldQuota } from './world-quota';
import { WorldRows } from './world-rows';
import { WorldSnapshots } from './world-snapshots';

/**
 * The connection, for AppModule alone: opened (`open`: migrated and seeded with the profile in
 * force, src/schema/seed-fixtures.ts) before anything is served. TypeORM registers its DataSource
 * for the whole app.
 */
export function connectDatabase(options: DataSourceOptions, open: (options: DataSourceOptions) => Promise<DataSource>): DynamicModule {
  return TypeOrmModule.forRootAsync({
    useFactory: () => ({
      ...options,
      // SQLite: how long a write of the server waits for another process's write lock (a seed, a second
      // server on the file). better-sqlite3 waits synchronously, so the driver's 5 s froze every
      // request; after 100 ms the write answers 503 (group-commit.ts) and the rest goes on being
      // served. The seed scripts and the CLI keep the driver's 5 s: they have no one else to serve.
      timeout: 100,
      // openDataSource fails for good reasons only: retrying (10 times, 3 s apart) only delayed the message.
      retryAttempts: 0,
    }),
    dataSourceFactory: (resolved) => open(resolved!),
  });
}

/**
 * The database, reached through Store only: every module that reads or writes imports this one.
 * With it, a world's life (docs/security.md, "A world's life"): what forgets, bounds, keeps and puts
 * back a world's rows, read from the entities' declarations (src/world/world-scope.ts).
 */
@Module({
  providers: [
    Store,
    WorldRows,
    WorldPurge,
    WorldQuota,
    WorldSnapshots,
    { provide: ChangeFeed, inject: [DataSource], useFactory: (dataSource: DataSource) => ChangeFeed.of(dataSource) },
    // SQLite has one connection and fsyncs each commit: writes that arrive together share one.
    {
      provide: WriteStrategy,
      inject: [DataSource],
      useFactory: (dataSource: DataSource) =>
        dataSource.options.type === 'postgres' ? new PooledTransactions(dataSource) : new GroupCommit(dataSource),
    },
  ],
  exports: [Store, WorldPurge, WorldQuota, WorldSnapshots],
})
export class DatabaseModule {}
