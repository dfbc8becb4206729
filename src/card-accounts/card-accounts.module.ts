import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { BankModule } from '../bank/bank.module';
import { CardAccountStore } from './card-account-store';

/** The card accounts each holder holds: SCA asks it whose cards a consent may name, in every profile (none where the profile shows none). */
@Module({
  imports: [DatabaseModule, BankModule],
  providers: [CardAccountStore],
  exports: [CardAccountStore],
})
export class CardAccountsModule {}
