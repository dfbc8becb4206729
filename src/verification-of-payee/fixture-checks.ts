import type { OpenAPIObject } from '@nestjs/swagger';
import { exampleParametersWhere, exampleValues } from '../common/document-examples';
import { fixtureResourceId } from '../common/resource-id';
import type { BankProfile } from '../profile/bank-profile';
import { matchName } from './name-match';
import type { PayeeCheck } from './payee-check.entity';

/** The fixture bulk payee check's vopBulkId: the same in every profile, on every start. */
const FIXTURE_VOP_BULK_ID = fixtureResourceId('bulk payee check');

/**
 * A bulk payee check every world sees (docs/profiles.md, "Fixtures"), so that the served
 * document's bulk examples name one: the account the examples pay to, once with its registered
 * name and once with the name's last letter missing, answered by the sandbox's own name matching.
 * None where the bank checks no payee.
 */
export function fixturePayeeChecks(profile: BankProfile): PayeeCheck[] {
  const { creditorIban, creditorName } = exampleValues(profile);
  if (profile.vop.mode === 'off' || creditorName === '') return [];
  return [creditorName, creditorName.slice(0, -1)].map((name, position): PayeeCheck => {
    const nameMatch = matchName(name, creditorName, profile.vop.closeMatch);
    return {
      id: fixtureResourceId(`payee check ${position}`),
      requestId: FIXTURE_VOP_BULK_ID,
      ownerId: null,
      iban: creditorIban,
      request: { uetr: fixtureResourceId(`payee check uetr ${position}`), partyAccount: { iban: creditorIban }, party: { name } },
      nameMatch,
      idMatch: null,
      matchedName: nameMatch === 'CMTC' ? creditorName : null,
      bulkId: FIXTURE_VOP_BULK_ID,
      position,
    };
  });
}

/** The bulk check operations' examples name the fixture bulk. */
export function documentFixturePayeeCheck(document: OpenAPIObject): void {
  exampleParametersWhere(document, (path) => path.startsWith('/v1/bulk-payee-verifications/'), { vopBulkId: FIXTURE_VOP_BULK_ID });
}
