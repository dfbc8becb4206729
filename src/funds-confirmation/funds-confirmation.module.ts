import { DynamicModule, Module } from '@nestjs/common';
import type { FundsConfirmationSettings } from './funds-confirmation.feature';
import { AuthorisationModule } from '../authorisation/authorisation.module';
import { BankModule } from '../bank/bank.module';
import { ConsentModule } from '../consent/consent.module';
import { DatabaseModule } from '../database/database.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { OAuthModule } from '../oauth/oauth.module';
import { FundsConsentAuthorisationController } from './funds-consent-authorisation.controller';
import { ScaModule } from '../sca/sca.module';
import { FundsConfirmationController, FundsConsentController } from './funds-confirmation.controller';
import { FundsConfirmationService } from './funds-confirmation.service';

/**
 * The confirmation of funds: imported only where the profile offers it (AppModule), so that no
 * other bank serves a route of it; its consents' routes only where they are the API's.
 */
@Module({})
export class FundsConfirmationModule {
  static forProfile({ consent }: FundsConfirmationSettings): DynamicModule {
    return {
      module: FundsConfirmationModule,
      imports: [DatabaseModule, OAuthModule, BankModule, ConsentModule, AuthorisationModule, NotificationsModule, ScaModule],
      controllers: [
        FundsConfirmationController,
        ...(consent === 'api' ? [FundsConsentController, FundsConsentAuthorisationController] : []),
      ],
      providers: [FundsConfirmationService],
    };
  }
}
