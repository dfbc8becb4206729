import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockService } from './clock.service';
import { SandboxClock } from './sandbox-clock.entity';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([SandboxClock])],
  providers: [ClockService],
  exports: [ClockService],
})
export class CommonModule {}
