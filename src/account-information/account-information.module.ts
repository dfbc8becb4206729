import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ClockModule } from '../clock/clock.module';
import { ConsentModule } from '../consent/consent.module';
import { DatabaseModule } from '../database/database.module';
import { AccountInformationController } from './account-information.controller';
import { AccountInformationService } from './account-information.service';
import { AccessLimitService } from './access-limit.service';
import { AccountStore } from './account-store';

@Module({
  imports: [DatabaseModule, ClockModule, AuthModule, ConsentModule],
  controllers: [AccountInformationController],
  providers: [AccountInformationService, AccessLimitService, AccountStore],
})
export class AccountInformationModule {}
