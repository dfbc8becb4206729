import type { OpenAPIObject } from '@nestjs/swagger';
import { fixtureAuthorisationId } from '../common/resource-id';
import { fixtureAuthorisation } from '../profile/fixture-authorisations';
import { Authorisation } from '../authorisation/authorisation.entity';
import { exampleParametersWhere, exampleValues } from '../common/document-examples';
import { fixtureResourceId } from '../common/resource-id';
import type { DerivedFixtures } from '../core/sandbox-service';
import { fixturePaymentId } from '../payment-initiation/fixture-payments';
import type { BankProfile } from '../profile/bank-profile';
import { SigningBasket } from './signing-basket.entity';

/** The fixture signing basket: the same ID in every profile, on every start. */
export const FIXTURE_BASKET_ID = fixtureResourceId('signing basket');

/**
 * A signing basket every world sees (docs/profiles.md, "Fixtures"): the fixture single payment's,
 * authorised (ACTC) long ago by its payer. None where the bank offers no single payments.
 */
export function fixtureBasket(profile: BankProfile): DerivedFixtures {
  const { psuId } = exampleValues(profile);
  if (!profile.settings.paymentProducts.payments?.length || psuId === '') return [];
  const basket: SigningBasket = {
    id: FIXTURE_BASKET_ID,
    status: 'ACTC',
    paymentIds: [fixturePaymentId('payments')],
    consentIds: [],
    ownerId: null,
  };
  return [
    [SigningBasket, [basket]],
    [
      Authorisation,
      [fixtureAuthorisation(profile, 'basket', basket.id, { status: 'finalised', psuId, createdAt: '2019-03-01T09:00:00.000Z' })],
    ],
  ];
}

/** The basket operations' examples (the SCA page's too) name the fixture basket and its authorisation. */
export function documentFixtureBasket(document: OpenAPIObject): void {
  exampleParametersWhere(document, (path) => path.includes('/signing-baskets/'), {
    basketId: FIXTURE_BASKET_ID,
    authorisationId: fixtureAuthorisationId('basket', FIXTURE_BASKET_ID),
  });
}
