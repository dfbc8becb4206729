import { DynamicModule, Module } from '@nestjs/common';
import { AuthorisationModule } from '../authorisation/authorisation.module';
import { BankModule } from '../bank/bank.module';
import { ConsentModule } from '../consent/consent.module';
import { DatabaseModule } from '../database/database.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { OAuthModule } from '../oauth/oauth.module';
import { PaymentInitiationModule } from '../payment-initiation/payment-initiation.module';
import { ScaModule } from '../sca/sca.module';
import { BasketAuthorisationController } from './signing-basket-authorisation.controller';
import { SigningBasketControlController, SigningBasketPageController } from './signing-basket-sca.controller';
import { SigningBasketController } from './signing-basket.controller';
import { SigningBasketService } from './signing-basket.service';
import { SigningBasketsCockpit } from './signing-baskets-cockpit';

/**
 * Signing baskets (docs/signing-baskets.md): their routes, their SCA page, and how one SCA
 * authorises their members, where the profile offers them (src/services.ts); the control route
 * with the control API.
 */
@Module({})
export class SigningBasketsModule {
  static forSandbox(control: boolean): DynamicModule {
    return {
      module: SigningBasketsModule,
      imports: [
        DatabaseModule,
        BankModule,
        OAuthModule,
        AuthorisationModule,
        ConsentModule,
        PaymentInitiationModule,
        NotificationsModule,
        ScaModule,
      ],
      controllers: [
        SigningBasketController,
        BasketAuthorisationController,
        SigningBasketPageController,
        ...(control ? [SigningBasketControlController] : []),
      ],
      providers: [SigningBasketService, SigningBasketsCockpit],
    };
  }
}
