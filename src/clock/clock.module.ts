import { Injectable, MiddlewareConsumer, Module, NestMiddleware, NestModule } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { Store } from '../database/store';
import { ClockService } from './clock.service';

/** Before each request, the clock as stored: instances on one database move one clock (docs/operations.md). */
@Injectable()
class ClockRefresh implements NestMiddleware {
  constructor(private readonly clock: ClockService) {}

  async use(_request: unknown, _response: unknown, next: () => void): Promise<void> {
    await this.clock.refresh();
    next();
  }
}

@Module({
  imports: [DatabaseModule],
  providers: [ClockService, ClockRefresh],
  exports: [ClockService],
})
export class ClockModule implements NestModule {
  constructor(private readonly store: Store) {}

  /** Only where another instance may move the clock: reading it costs every request about 40 µs of CPU (docs/benchmark.md). */
  configure(consumer: MiddlewareConsumer): void {
    if (this.store.sharedByInstances) consumer.apply(ClockRefresh).forRoutes('*');
  }
}
