import { Module } from '@nestjs/common';
import { BankModule } from '../bank/bank.module';
import { OAuthModule } from '../oauth/oauth.module';
import { ClockModule } from '../clock/clock.module';
import { ConsentModule } from '../consent/consent.module';
import { DatabaseModule } from '../database/database.module';
import { AccountInformationController } from './account-information.controller';
import { AccountInformationService } from './account-information.service';
import { AccessLimitService } from './access-limit.service';

@Module({
  imports: [DatabaseModule, ClockModule, OAuthModule, ConsentModule, BankModule],
  controllers: [AccountInformationController],
  providers: [AccountInformationService, AccessLimitService],
  exports: [AccessLimitService],
})
export class AccountInformationModule {}
