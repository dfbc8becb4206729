import { Global, Module } from '@nestjs/common';
import { ClockModule } from '../clock/clock.module';
import { DatabaseModule } from '../database/database.module';
import { EventHistory } from './event-history.service';

/** Global: every feature that changes a status records it (docs/events.md). */
@Global()
@Module({
  imports: [DatabaseModule, ClockModule],
  providers: [EventHistory],
  exports: [EventHistory],
})
export class EventsModule {}
