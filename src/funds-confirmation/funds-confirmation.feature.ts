import type { SandboxService } from '../core/sandbox-service';
import { documentFundsConfirmation } from './funds-document';
import { FundsConfirmationModule } from './funds-confirmation.module';

/** The confirmation of funds, where the bank offers it (docs/funds-confirmation.md): whether its PIIS consents are the API's or managed outside it. */
export interface FundsConfirmationSettings {
  consent: 'api' | 'outside';
}

declare module '../profile/bank-profile' {
  interface ProfileSettings {
    fundsConfirmation?: FundsConfirmationSettings;
  }
}

/** The confirmation of funds (docs/funds-confirmation.md), where the profile sets fundsConfirmation. */
export const fundsConfirmationService: SandboxService = {
  name: 'fundsConfirmation',
  profileKeys: {
    fundsConfirmation: {
      description: 'The confirmation of funds (PIIS, docs/funds-confirmation.md): POST /v1/funds-confirmations. Absent: not offered.',
      type: 'object',
      additionalProperties: false,
      required: ['consent'],
      properties: {
        consent: {
          description:
            "api: a TPP asks the holder's consent with POST /v2/consents/confirmation-of-funds and names it in Consent-ID on every check; outside: the bank manages PIIS consents outside the API, and a check carries no Consent-ID.",
          enum: ['api', 'outside'],
        },
      },
    },
  },
  offeredBy: (settings) => settings.fundsConfirmation !== undefined,
  module: (profile) => FundsConfirmationModule.forProfile(profile.settings.fundsConfirmation!),
  entities: [],
  document: documentFundsConfirmation,
  summary: ({ settings }) => {
    const consent = settings.fundsConfirmation!.consent === 'api' ? 'under a consent of POST /v2/consents/confirmation-of-funds named in Consent-ID' : 'its consents managed outside the API (no Consent-ID)';
    return [`Confirmation of funds: offered, ${consent}.`];
  },
};
