import { Authorisation } from '../authorisation/authorisation.entity';
import { fixtureAuthorisation } from '../profile/fixture-authorisations';
import { fixtureResourceId } from '../common/resource-id';
import type { DerivedFixtures } from '../core/sandbox-service';
import type { BankProfile } from '../profile/bank-profile';
import { Consent, ConsentAccess } from './consent.entity';

/** The ID of a consent a service derives (`name` tells it from the others): the same on every start. */
export const derivedConsentId = (name: string): string => fixtureResourceId(`consent ${name}`);

/**
 * A fixture consent a service derives from the profile's fixtures (docs/profiles.md, "Fixtures"),
 * so that its operations' examples name a consent that grants them: valid for good, authorised
 * long ago by `psuId`, shared by every world and changed by none, as the profile's own are.
 */
export function derivedFixtureConsent(
  profile: BankProfile,
  name: string,
  psuId: string,
  terms: { access: ConsentAccess; frequencyPerDay: number; card?: Consent['card'] },
): DerivedFixtures {
  const consent: Consent = {
    id: derivedConsentId(name),
    status: 'valid',
    access: terms.access,
    recurringIndicator: true,
    validUntil: '9999-12-31',
    frequencyPerDay: terms.frequencyPerDay,
    lastActionDate: '2019-03-01',
    fixture: true,
    scenarioId: null,
    ownerId: null,
    card: terms.card ?? null,
  };
  const authorisation = fixtureAuthorisation(profile, 'consent', consent.id, {
    status: 'finalised',
    psuId,
    createdAt: '2019-03-01T09:00:00.000Z',
  });
  return [
    [Consent, [consent]],
    [Authorisation, [authorisation]],
  ];
}
