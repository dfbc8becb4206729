import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { AccountStore } from './account-store';
import { Fixtures } from './fixtures';
import { Ledger } from './ledger';

/** The bank's ledger: PSUs, accounts, balances and transactions, which every feature reads. */
@Module({
  imports: [DatabaseModule],
  providers: [AccountStore, Fixtures, Ledger],
  exports: [AccountStore, Fixtures, Ledger],
})
export class BankModule {}
