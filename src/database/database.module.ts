import { applyDecorators, Controller, DynamicModule, Get, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TppErrorResponse } from '../http/error-response.dto';
import { COMMON_ERRORS } from '../http/request.guard';
import { Environment } from '../config/environment';
import { BankProfile } from '../profile/bank-profile';
import { dataSourceOptions, openDataSource } from './data-source';
import type { SandboxService } from '../core/sandbox-service';
import { GroupCommit } from './group-commit';
import { Store } from './store';
import { PooledTransactions, WriteStrategy } from './write-strategy';
import { Access } from '../http/route-access';

class HealthProfile {
  @ApiProperty({ example: 'bank', description: 'PROFILE: a built-in name or a folder' })
  source: string;

  @ApiProperty({ example: 'PSD2 Sandbox Bank' })
  name: string;

  @ApiProperty({ enum: ['bank', 'berlin-group'] })
  answers: string;
}

class HealthResponse {
  @ApiProperty({ example: 'ok' })
  status: 'ok';

  @ApiProperty({ type: HealthProfile, description: 'the bank profile in force (docs/profiles.md)' })
  profile: HealthProfile;
}

@ApiTags('Health')
@Controller('health')
@Access({ role: null, audience: 'public' })
class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly profile: BankProfile,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Answers 200 once the database is migrated and seeded (the server listens only then)' })
  @ApiOkResponse({ type: HealthResponse })
  @ApiResponse({ status: 500, type: TppErrorResponse, description: 'the database cannot be reached' })
  @applyDecorators(...COMMON_ERRORS)
  async check(): Promise<HealthResponse> {
    await this.dataSource.query('SELECT 1');
    const { source, name, answers } = this.profile;
    return { status: 'ok', profile: { source, name, answers } };
  }
}

/**
 * The connection, for AppModule alone: opened, migrated and seeded with the profile in force before
 * anything is served. TypeORM registers its DataSource for the whole app.
 */
export function connectDatabase(profile: BankProfile, services: readonly SandboxService[]): DynamicModule {
  return TypeOrmModule.forRootAsync({
    inject: [ConfigService],
    useFactory: (config: ConfigService<Environment, true>) => ({
      ...dataSourceOptions({ DATABASE_PATH: config.get('DATABASE_PATH', { infer: true }), DATABASE_URL: config.get('DATABASE_URL', { infer: true }) }, services),
      // SQLite: how long a write of the server waits for another process's write lock (a seed, a second
      // server on the file). better-sqlite3 waits synchronously, so the driver's 5 s froze every
      // request; after 100 ms the write answers 503 (group-commit.ts) and the rest goes on being
      // served. The seed scripts and the CLI keep the driver's 5 s: they have no one else to serve.
      timeout: 100,
      // openDataSource fails for good reasons only: retrying (10 times, 3 s apart) only delayed the message.
      retryAttempts: 0,
    }),
    dataSourceFactory: (options) => openDataSource(options!, profile),
  });
}

/** The database, reached through Store only: every module that reads or writes imports this one. */
@Module({
  controllers: [HealthController],
  providers: [
    Store,
    // SQLite has one connection and fsyncs each commit: writes that arrive together share one.
    { provide: WriteStrategy, inject: [DataSource], useFactory: (dataSource: DataSource) => (dataSource.options.type === 'postgres' ? new PooledTransactions(dataSource) : new GroupCommit(dataSource)) },
  ],
  exports: [Store],
})
export class DatabaseModule {}
