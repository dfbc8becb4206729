import { DynamicModule, Module } from '@nestjs/common';
import { AuthorisationModule } from '../authorisation/authorisation.module';
import { OAuthModule } from '../oauth/oauth.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { BasketAuthorisationController } from './signing-basket-authorisation.controller';
import { ScaModule } from '../sca/sca.module';
import { SigningBasketController } from './signing-basket.controller';
import { SigningBasketControlController, SigningBasketPageController } from './signing-basket-sca.controller';
import { SigningBasketsModule } from './signing-baskets.module';
import { SigningBasketsCockpit } from './signing-baskets-cockpit';
import { DatabaseModule } from '../database/database.module';

/** The signing basket routes and its SCA page: imported only where the profile offers baskets (AppModule); its control route with the control API. */
@Module({})
export class SigningBasketsApiModule {
  static forSandbox(control: boolean): DynamicModule {
    return {
      module: SigningBasketsApiModule,
      imports: [DatabaseModule, OAuthModule, AuthorisationModule, NotificationsModule, ScaModule, SigningBasketsModule],
      controllers: [SigningBasketController, BasketAuthorisationController, SigningBasketPageController, ...(control ? [SigningBasketControlController] : [])],
      providers: [SigningBasketsCockpit],
    };
  }
}
