import { Module } from '@nestjs/common';
import { ConsentModule } from '../consent/consent.module';
import { OAuthModule } from '../oauth/oauth.module';
import { PaymentInitiationModule } from '../payment-initiation/payment-initiation.module';
import { ScaModule } from '../sca/sca.module';
import { AuthorisationModule } from './authorisation.module';
import { ConsentAuthorisationController } from './consent-authorisation.controller';
import { PaymentAuthorisationController } from './payment-authorisation.controller';

/**
 * The authorisation sub-resources of consents and payments (docs/sca-approaches.md); a service's
 * own are its module's, with the same route decorators and flow (AuthorisationFlow). Apart from AuthorisationModule,
 * which the features below SCA import.
 */
@Module({
  imports: [OAuthModule, AuthorisationModule, ConsentModule, PaymentInitiationModule, ScaModule],
  controllers: [ConsentAuthorisationController, PaymentAuthorisationController],
})
export class AuthorisationRoutesModule {}
