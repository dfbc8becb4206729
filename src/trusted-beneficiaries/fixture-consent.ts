import type { OpenAPIObject } from '@nestjs/swagger';
import { exampleParametersWhere, exampleValues } from '../common/document-examples';
import type { AccountReference } from '../consent/consent.entity';
import { derivedConsentId, derivedFixtureConsent } from '../consent/derived-fixture-consent';
import type { DerivedFixtures } from '../core/sandbox-service';
import type { BankProfile } from '../profile/bank-profile';

const NAME = 'trusted beneficiaries';

/**
 * A consent every world sees over the accounts of the PSU the served document's examples name,
 * granting their trusted beneficiaries (docs/profiles.md, "Fixtures").
 */
export function fixtureTrustedBeneficiariesConsent(profile: BankProfile): DerivedFixtures {
  const { psuId } = exampleValues(profile);
  const held: AccountReference[] = profile.rows.accounts
    .filter((account) => account.psuId === psuId)
    .map(({ iban, currency }) => ({ iban, currency }));
  if (!held.length) return [];
  return derivedFixtureConsent(profile, NAME, psuId, {
    access: { accounts: held, balances: held, transactions: held, availableAccounts: null, trustedBeneficiaries: [] },
    frequencyPerDay: 4,
  });
}

/** The list's example names that consent in Consent-ID. */
export function documentFixtureTrustedBeneficiariesConsent(document: OpenAPIObject): void {
  exampleParametersWhere(document, (path) => path === '/v1/trusted-beneficiaries', { 'Consent-ID': derivedConsentId(NAME) });
}
