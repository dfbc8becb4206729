import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockService } from './clock.service';
import { GracefulStop } from './graceful-stop';
import { SandboxClock } from './sandbox-clock.entity';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([SandboxClock])],
  providers: [ClockService, GracefulStop],
  exports: [ClockService],
})
export class CommonModule {}
