import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { BankModule } from '../bank/bank.module';
import { CardAccountStore } from './card-account-store';
import { ConsentModule } from '../consent/consent.module';

/** The card accounts each holder holds, known to consents and their SCA as an account kind (AccountKinds). */
@Module({
  imports: [DatabaseModule, BankModule, ConsentModule],
  providers: [CardAccountStore],
  exports: [CardAccountStore],
})
export class CardAccountsModule {}
