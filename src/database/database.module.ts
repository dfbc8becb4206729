import { applyDecorators, Controller, Get, Global, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { seedFixtures } from '../../seeds/fixtures';
import { TppErrorResponse } from '../common/error-response.dto';
import { COMMON_ERRORS } from '../common/tpp-request.guard';
import { Environment } from '../config/environment';
import { dataSourceOptions, openDataSource } from './data-source';
import { GroupCommit } from './group-commit';

/** Upserts the fixtures once the migrations have run, before the server accepts a request. */
@Injectable()
class FixtureLoader implements OnModuleInit {
  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.transaction((manager) => seedFixtures(manager));
  }
}

class HealthResponse {
  @ApiProperty({ example: 'ok' })
  status: 'ok';
}

@ApiTags('Health')
@Controller('health')
class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Get()
  @ApiOperation({ summary: 'Answers 200 once the database is migrated and seeded (the server listens only then)' })
  @ApiOkResponse({ type: HealthResponse })
  @ApiResponse({ status: 500, type: TppErrorResponse, description: 'the database cannot be reached' })
  @applyDecorators(...COMMON_ERRORS)
  async check(): Promise<HealthResponse> {
    await this.dataSource.query('SELECT 1');
    return { status: 'ok' };
  }
}

/** Global: the one GroupCommit takes the transactions of every context. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<Environment, true>) => ({
        ...dataSourceOptions(config.get('DATABASE_PATH', { infer: true })),
        migrationsRun: true,
        migrationsTransactionMode: 'all',
        // How long a write of the server waits for another process's write lock (a seed, a second
        // server on the file). better-sqlite3 waits synchronously, so the driver's 5 s froze every
        // request; after 100 ms the write answers 503 (group-commit.ts) and the rest goes on being
        // served. The seed scripts and the CLI keep the driver's 5 s: they have no one else to serve.
        timeout: 100,
        // openDataSource fails for good reasons only: retrying (10 times, 3 s apart) only delayed the message.
        retryAttempts: 0,
      }),
      dataSourceFactory: (options) => openDataSource(options!),
    }),
  ],
  controllers: [HealthController],
  providers: [FixtureLoader, GroupCommit],
  exports: [GroupCommit],
})
export class DatabaseModule {}
