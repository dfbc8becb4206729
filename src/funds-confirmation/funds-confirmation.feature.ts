import type { SandboxService } from '../core/sandbox-service';
import { documentFundsConfirmation } from './funds-document';
import { FundsConfirmationModule } from './funds-confirmation.module';

/** The confirmation of funds (docs/funds-confirmation.md), where the profile sets fundsConfirmation. */
export const fundsConfirmationService: SandboxService = {
  name: 'fundsConfirmation',
  offeredBy: (settings) => settings.fundsConfirmation !== undefined,
  module: (profile) => FundsConfirmationModule.forProfile(profile.settings.fundsConfirmation!),
  entities: [],
  document: documentFundsConfirmation,
  summary: ({ settings }) => {
    const consent = settings.fundsConfirmation!.consent === 'api' ? 'under a consent of POST /v2/consents/confirmation-of-funds named in Consent-ID' : 'its consents managed outside the API (no Consent-ID)';
    return [`Confirmation of funds: offered, ${consent}.`];
  },
};
