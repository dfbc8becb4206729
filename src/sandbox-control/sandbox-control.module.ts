import { Module } from '@nestjs/common';
import { OAuthModule } from '../oauth/oauth.module';
import { ClockModule } from '../clock/clock.module';
import { ConsentModule } from '../consent/consent.module';
import { DatabaseModule } from '../database/database.module';
import { PaymentInitiationModule } from '../payment-initiation/payment-initiation.module';
import { ScaModule } from '../sca/sca.module';
import { SandboxControlController } from './sandbox-control.controller';
import { SandboxControlService } from './sandbox-control.service';
import { ScenarioService } from './scenario.service';

@Module({
  imports: [DatabaseModule, ClockModule, OAuthModule, ScaModule, ConsentModule, PaymentInitiationModule],
  controllers: [SandboxControlController],
  providers: [SandboxControlService, ScenarioService],
})
export class SandboxControlModule {}
