import { SigningBaskets1796700000000 } from '../../migrations/1796700000000-SigningBaskets';
import { SigningBasketOwners1797300000001 } from '../../migrations/1797300000001-SigningBasketOwners';
import type { SandboxService } from '../core/sandbox-service';
import { SigningBasket } from './signing-basket.entity';
import { SigningBasketsModule } from './signing-baskets.module';
import { documentSigningBaskets } from './signing-baskets-document';
import { fixtureBasket } from './fixture-basket';
import { SigningBasketsCockpit } from './signing-baskets-cockpit';
import { SigningBasketService } from './signing-basket.service';
import { basketMachine } from './signing-basket.machine';
import { finalStatuses } from '../common/state-machine';

declare module '../common/error-catalogue' {
  interface ServiceMessages {
    XS2A058E: 'basketMemberUnknown';
    XS2A059E: 'basketMemberInvalid';
    XS2A060E: 'basketUnknown';
    XS2A061E: 'basketClosed';
  }
}

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
    signingBaskets: {
      description:
        'Signing baskets (docs/signing-baskets.md): POST /v1/signing-baskets and its authorisations. Absent or false: not offered.',
      type: 'boolean',
    },
  },
  offeredBy: (settings) => settings.signingBaskets === true,
  module: (profile, environment) => SigningBasketsModule.forSandbox(environment.SANDBOX_CONTROL === 'true'),
  entities: [SigningBasket],
  migrations: [SigningBaskets1796700000000, SigningBasketOwners1797300000001],
  messages: {
    XS2A058E: {
      name: 'basketMemberUnknown',
      status: 400,
      code: 'RESOURCE_UNKNOWN',
      when: 'signing basket: a `paymentIds` or `consentIds` entry names no payment or consent of this client',
    },
    XS2A059E: {
      name: 'basketMemberInvalid',
      status: 409,
      code: 'REFERENCE_STATUS_INVALID',
      when: 'signing basket: a member is not waiting for SCA (authorised, rejected, cancelled, a fixture) or is in another open basket',
    },
    XS2A060E: { name: 'basketUnknown', status: 404, code: 'RESOURCE_UNKNOWN', when: 'no signing basket with this ID (of this client)' },
    XS2A061E: {
      name: 'basketClosed',
      status: 409,
      code: 'STATUS_INVALID',
      when: 'signing basket: it is no longer open (ACTC, RJCT, CANC), so it is neither authorised nor deleted',
    },
  },
  eventKinds: ['basket'],
  ports: {
    authorisable: (get) => get(SigningBasketService).authorisable(),
    notified: { kind: 'basket', lastStatuses: finalStatuses(basketMachine), naming: { resource: 'basketId', status: 'transactionStatus' } },
    // One authorisation covers its members: a TPP may start each member's itself (docs/signing-baskets.md).
    explicitStart: true,
  },
  cockpit: SigningBasketsCockpit,
  derivedFixtures: fixtureBasket,
  document: documentSigningBaskets,
  tag: { name: 'Signing baskets', description: 'Several payments and consents authorised with one SCA (PISP, AISP).' },
  summary: () => ['Signing baskets: offered; one SCA authorises every payment and consent of a basket.'],
};
