import type { OpenAPIObject } from '@nestjs/swagger';
import { exampleParametersWhere, exampleValues } from '../common/document-examples';
import type { CardAccountReference } from '../consent/consent.entity';
import { derivedConsentId, derivedFixtureConsent } from '../consent/derived-fixture-consent';
import type { DerivedFixtures } from '../core/sandbox-service';
import type { BankProfile } from '../profile/bank-profile';
import { CardAccount } from './card-account.entity';

const NAME = 'card accounts';

/** The fixture card accounts of the PSU the served document's examples name. */
const exampleCards = (profile: BankProfile): readonly CardAccount[] =>
  profile.fixturesOf(CardAccount).filter(({ psuId }) => psuId === exampleValues(profile).psuId);

/** A consent every world sees over those cards (docs/profiles.md, "Fixtures"): none where the PSU holds none. */
export function fixtureCardConsent(profile: BankProfile): DerivedFixtures {
  const cards: CardAccountReference[] = exampleCards(profile).map(({ maskedPan, currency }) => ({ maskedPan, currency }));
  if (!cards.length) return [];
  return derivedFixtureConsent(profile, NAME, exampleValues(profile).psuId, {
    access: { accounts: cards, balances: cards, transactions: cards, availableAccounts: null },
    frequencyPerDay: 4,
  });
}

/** The card operations' examples name that consent in Consent-ID, and the PSU's first card. */
export function documentFixtureCardConsent(document: OpenAPIObject, profile: BankProfile): void {
  const [card] = exampleCards(profile);
  if (card)
    exampleParametersWhere(document, (path) => path.startsWith('/v1/card-accounts'), {
      'Consent-ID': derivedConsentId(NAME),
      cardAccountId: card.resourceId,
    });
}
