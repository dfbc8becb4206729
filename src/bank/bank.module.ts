import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { AccountStore } from './account-store';
import { Ledger } from './ledger';

/** The bank's ledger: PSUs, accounts, balances and transactions, which every feature reads. */
@Module({
  imports: [DatabaseModule],
  providers: [AccountStore, Ledger],
  exports: [AccountStore, Ledger],
})
export class BankModule {}
