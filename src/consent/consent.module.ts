import { NotificationsModule } from '../notifications/notifications.module';
import { Module } from '@nestjs/common';
import { OAuthModule } from '../oauth/oauth.module';
import { AuthorisationModule } from '../authorisation/authorisation.module';
import { BankModule } from '../bank/bank.module';
import { ClockModule } from '../clock/clock.module';
import { DatabaseModule } from '../database/database.module';
import { ConsentController } from './consent.controller';
import { ConsentGuard } from './consent.guard';
import { ConsentService } from './consent.service';
import { AccountKinds } from './account-kinds.service';

@Module({
  imports: [DatabaseModule, BankModule, ClockModule, OAuthModule, AuthorisationModule, NotificationsModule],
  controllers: [ConsentController],
  providers: [ConsentService, ConsentGuard, AccountKinds],
  exports: [ConsentService, ConsentGuard, AccountKinds],
})
export class ConsentModule {}
