import type { SandboxService } from '../core/sandbox-service';
import { documentFundsConfirmation } from './funds-document';
import { FundsConfirmationModule } from './funds-confirmation.module';
import { fixtureFundsConsent } from './fixture-consent';

/** The confirmation of funds, where the bank offers it (docs/funds-confirmation.md): whether its PIIS consents are the API's or managed outside it. */
export interface FundsConfirmationSettings {
  consent: 'api' | 'outside';
}

declare module '../common/error-catalogue' {
  interface ServiceMessages {
    XS2A052E: 'fundsConsentExpired';
    XS2A053E: 'noPiisActivation';
    XS2A054E: 'cardInvalid';
    XS2A055E: 'currencyInconsistent';
    XS2A056E: 'fundsAccountUnknown';
  }
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
  messages: {
    XS2A052E: {
      name: 'fundsConsentExpired',
      status: 401,
      code: 'CONSENT_EXPIRED',
      when: "confirmation of funds: the consent has expired (the day after its card's expiry date)",
    },
    XS2A053E: {
      name: 'noPiisActivation',
      status: 400,
      code: 'NO_PIIS_ACTIVATION',
      when: 'confirmation of funds: the account is not the one the consent in `Consent-ID` was given for',
    },
    XS2A054E: {
      name: 'cardInvalid',
      status: 400,
      code: 'CARD_INVALID',
      when: 'confirmation of funds: `cardNumber` is not the card the consent was given for',
    },
    XS2A055E: {
      name: 'currencyInconsistent',
      status: 400,
      code: 'PARAMETER_NOT_CONSISTENT',
      when: "confirmation of funds: the amount's (or the account reference's) currency is not the account's",
    },
    XS2A056E: {
      name: 'fundsAccountUnknown',
      status: 404,
      code: 'RESOURCE_UNKNOWN',
      when: 'confirmation of funds: the bank holds no such account (or, its consents managed outside the API, none this client may ask about)',
    },
  },
  derivedFixtures: fixtureFundsConsent,
  document: documentFundsConfirmation,
  tag: { name: 'Confirmation of funds', description: 'Whether an amount is available on an account (PIIS), under a consent of its own.' },
  summary: ({ settings }) => {
    const consent =
      settings.fundsConfirmation!.consent === 'api'
        ? 'under a consent of POST /v2/consents/confirmation-of-funds named in Consent-ID'
        : 'its consents managed outside the API (no Consent-ID)';
    return [`Confirmation of funds: offered, ${consent}.`];
  },
};
