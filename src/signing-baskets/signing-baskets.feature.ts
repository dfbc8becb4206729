import { SigningBaskets1796700000000 } from '../../migrations/1796700000000-SigningBaskets';
import type { SandboxService } from '../core/sandbox-service';
import { SigningBasket } from './signing-basket.entity';
import { SigningBasketsModule } from './signing-baskets.module';
import { documentSigningBaskets } from './signing-baskets-document';
import { SigningBasketsCockpit } from './signing-baskets-cockpit';

declare module '../profile/bank-profile' {
  interface ProfileSettings {
    signingBaskets?: boolean;
  }
}

declare module '../events/sandbox-event.entity' {
  interface EventKinds {
    basket: true;
  }
}

declare module '../authorisation/authorisation.entity' {
  interface AuthorisationKinds {
    basket: true;
  }
}

/** Signing baskets (docs/signing-baskets.md), where the profile sets signingBaskets: true. */
export const signingBasketsService: SandboxService = {
  name: 'signingBaskets',
  profileKeys: {
    signingBaskets: { description: 'Signing baskets (docs/signing-baskets.md): POST /v1/signing-baskets and its authorisations. Absent or false: not offered.', type: 'boolean' },
  },
  offeredBy: (settings) => settings.signingBaskets === true,
  module: (profile, environment) => SigningBasketsModule.forSandbox(environment.SANDBOX_CONTROL === 'true'),
  entities: [SigningBasket],
  migrations: [SigningBaskets1796700000000],
  eventKinds: ['basket'],
  cockpit: SigningBasketsCockpit,
  document: documentSigningBaskets,
  summary: () => ['Signing baskets: offered; one SCA authorises every payment and consent of a basket.'],
};
