import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { WorldPurge } from './world-purge';
import { WorldQuota } from './world-quota';

/** A world's life (docs/security.md, "A world's life"): what forgets, bounds and keeps its rows, read from the entities' declarations. */
@Module({
  imports: [DatabaseModule],
  providers: [WorldPurge, WorldQuota],
  exports: [WorldPurge, WorldQuota],
})
export class WorldModule {}
