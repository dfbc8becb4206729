import { Global, Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { ClockService } from './clock.service';

/** Global: the request guard of every TPP controller enters the request's world (ClockService.enter), whichever feature declares it. */
@Global()
@Module({
  imports: [DatabaseModule],
  providers: [ClockService],
  exports: [ClockService],
})
export class ClockModule {}
