import { Injectable, MiddlewareConsumer, Module, NestMiddleware, NestModule } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { ClockService } from './clock.service';

/**
 * Before each request: the clock as stored, where instances on one database move one clock
 * (docs/operations.md), then the time rules, once for each new date.
 */
@Injectable()
class ClockCatchUp implements NestMiddleware {
  constructor(private readonly clock: ClockService) {}

  async use(_request: unknown, _response: unknown, next: () => void): Promise<void> {
    await this.clock.refresh();
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
