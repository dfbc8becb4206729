import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConsentModule } from '../consent/consent.module';
import { AccountInformationController } from './account-information.controller';
import { AccountInformationService } from './account-information.service';
import { AccessLimitService } from './access-limit.service';
import { AccountStore } from './account-store';
import { Account, Transaction } from './account.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Account, Transaction]), ConsentModule],
  controllers: [AccountInformationController],
  providers: [AccountInformationService, AccessLimitService, AccountStore],
})
export class AccountInformationModule {}
