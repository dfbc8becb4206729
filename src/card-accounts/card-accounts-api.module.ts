import { Module } from '@nestjs/common';
import { AccountInformationModule } from '../account-information/account-information.module';
import { ConsentModule } from '../consent/consent.module';
import { OAuthModule } from '../oauth/oauth.module';
import { CardAccountsController } from './card-accounts.controller';
import { CardAccountsModule } from './card-accounts.module';
import { CardAccountsService } from './card-accounts.service';
import { CardAccountsCockpit } from './card-accounts-cockpit';
import { DatabaseModule } from '../database/database.module';

/** GET /v1/card-accounts and its reads: imported only where the profile shows card accounts (AppModule). */
@Module({
  imports: [DatabaseModule, OAuthModule, ConsentModule, AccountInformationModule, CardAccountsModule],
  controllers: [CardAccountsController],
  providers: [CardAccountsService, CardAccountsCockpit],
})
export class CardAccountsApiModule {}
