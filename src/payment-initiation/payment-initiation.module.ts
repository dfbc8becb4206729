import { Module } from '@nestjs/common';
import { OAuthModule } from '../oauth/oauth.module';
import { AuthorisationModule } from '../authorisation/authorisation.module';
import { ClockModule } from '../clock/clock.module';
import { DatabaseModule } from '../database/database.module';
import { PaymentInitiationController } from './payment-initiation.controller';
import { PaymentInitiationService } from './payment-initiation.service';

@Module({
  imports: [DatabaseModule, ClockModule, OAuthModule, AuthorisationModule],
  controllers: [PaymentInitiationController],
  providers: [PaymentInitiationService],
  exports: [PaymentInitiationService],
})
export class PaymentInitiationModule {}
