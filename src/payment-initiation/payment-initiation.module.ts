import { NotificationsModule } from '../notifications/notifications.module';
import { Module } from '@nestjs/common';
import { OAuthModule } from '../oauth/oauth.module';
import { AuthorisationModule } from '../authorisation/authorisation.module';
import { BankModule } from '../bank/bank.module';
import { ClockModule } from '../clock/clock.module';
import { DatabaseModule } from '../database/database.module';
import { PaymentInitiationController } from './payment-initiation.controller';
import { PaymentExecutionService } from './payment-execution.service';
import { PaymentInitiationService } from './payment-initiation.service';
import { VerificationOfPayeeModule } from '../verification-of-payee/verification-of-payee.module';
import { ScaExemptions } from './sca-exemptions.service';

@Module({
  imports: [DatabaseModule, ClockModule, BankModule, OAuthModule, AuthorisationModule, NotificationsModule, VerificationOfPayeeModule],
  controllers: [PaymentInitiationController],
  providers: [PaymentInitiationService, PaymentExecutionService, ScaExemptions],
  exports: [PaymentInitiationService, ScaExemptions],
})
export class PaymentInitiationModule {}
