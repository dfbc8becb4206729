import { Module } from '@nestjs/common';
import { AccountInformationModule } from '../account-information/account-information.module';
import { BankModule } from '../bank/bank.module';
import { ConsentModule } from '../consent/consent.module';
import { DatabaseModule } from '../database/database.module';
import { OAuthModule } from '../oauth/oauth.module';
import { CardAccountStore } from './card-account-store';
import { CardAccountsCockpit } from './card-accounts-cockpit';
import { CardAccountsController } from './card-accounts.controller';
import { CardAccountsService } from './card-accounts.service';

/** GET /v1/card-accounts and its reads, and cards as an account kind of consents (AccountKinds): where the profile shows card accounts (src/services.ts). */
@Module({
  imports: [DatabaseModule, BankModule, OAuthModule, ConsentModule, AccountInformationModule],
  controllers: [CardAccountsController],
  providers: [CardAccountStore, CardAccountsService, CardAccountsCockpit],
})
export class CardAccountsModule {}
