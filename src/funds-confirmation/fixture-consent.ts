import type { OpenAPIObject } from '@nestjs/swagger';
import { fixtureAuthorisationId } from '../common/resource-id';
import { exampleParametersWhere, exampleValues } from '../common/document-examples';
import { derivedConsentId, derivedFixtureConsent } from '../consent/derived-fixture-consent';
import type { DerivedFixtures } from '../core/sandbox-service';
import type { BankProfile } from '../profile/bank-profile';

/** The fixture consent for the confirmation of funds. */
const FIXTURE_FUNDS_CONSENT_ID = derivedConsentId('funds confirmation');

/** The card the served document's examples name (CreateFundsConsentDto, FundsConfirmationDto). */
export const EXAMPLE_CARD_NUMBER = '1234567891234';

/**
 * Where a TPP asks consents for the confirmation of funds through the API, one every world sees
 * (docs/profiles.md, "Fixtures"): on the account the served document's examples name, for the
 * example card, not limited (a check is no read of the account).
 */
export function fixtureFundsConsent(profile: BankProfile): DerivedFixtures {
  const { iban, psuId } = exampleValues(profile);
  const account = profile.rows.accounts.find((candidate) => candidate.iban === iban);
  if (profile.settings.fundsConfirmation?.consent !== 'api' || !account) return [];
  return derivedFixtureConsent(profile, 'funds confirmation', psuId, {
    access: { accounts: [{ iban, currency: account.currency }], balances: [], transactions: [], availableAccounts: null },
    frequencyPerDay: 0,
    card: {
      cardNumber: EXAMPLE_CARD_NUMBER,
      cardExpiryDate: null,
      cardInformation: 'MyMerchant Loyalty Card',
      registrationInformation: null,
    },
  });
}

/** The served document's examples name the fixture consent: in a check's Consent-ID, and in the consent's paths. */
export function documentFixtureFundsConsent(document: OpenAPIObject): void {
  exampleParametersWhere(document, (path) => path === '/v1/funds-confirmations' || path.startsWith('/v2/consents/confirmation-of-funds/'), {
    'Consent-ID': FIXTURE_FUNDS_CONSENT_ID,
    consentId: FIXTURE_FUNDS_CONSENT_ID,
    authorisationId: fixtureAuthorisationId('consent', FIXTURE_FUNDS_CONSENT_ID),
  });
}
