import { Injectable, MiddlewareConsumer, Module, NestMiddleware, NestModule } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { Store } from '../database/store';
import { ClockService } from './clock.service';

/**
 * Before each request: the clock as stored, where instances on one database move one clock
 * (docs/operations.md), then the time rules, once for each new date.
 */
@Injectable()
class ClockCatchUp implements NestMiddleware {
  constructor(
    private readonly clock: ClockService,
    private readonly store: Store,
  ) {}

  async use(_request: unknown, _response: unknown, next: () => void): Promise<void> {
    // Only where another instance may move the clock: reading it costs every request about 40 µs of CPU (docs/benchmark.md).
    if (this.store.sharedByInstances) await this.clock.refresh();
    await this.clock.catchUp();
    next();
  }
}

@Module({
  imports: [DatabaseModule],
  providers: [ClockService, ClockCatchUp],
  exports: [ClockService],
})
export class ClockModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(ClockCatchUp).forRoutes('*');
  }
}
