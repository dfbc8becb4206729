import type { SandboxService } from '../core/sandbox-service';
import { SigningBasket } from './signing-basket.entity';
import { SigningBasketsApiModule } from './signing-baskets-api.module';
import { documentSigningBaskets } from './signing-baskets-document';

/** Signing baskets (docs/signing-baskets.md), where the profile sets signingBaskets: true. */
export const signingBasketsService: SandboxService = {
  name: 'signingBaskets',
  offeredBy: (settings) => settings.signingBaskets === true,
  module: (profile, environment) => SigningBasketsApiModule.forSandbox(environment.SANDBOX_CONTROL === 'true'),
  entities: [SigningBasket],
  eventKinds: ['basket'],
  document: documentSigningBaskets,
  summary: () => ['Signing baskets: offered; one SCA authorises every payment and consent of a basket.'],
};
