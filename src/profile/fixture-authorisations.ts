import type { Authorisation, AuthorisationKind } from '../authorisation/authorisation.entity';
import type { ScaStatus } from '../authorisation/authorisation.machine';
import { fixtureAuthorisationId } from '../common/resource-id';
import type { BankProfile } from './bank-profile';

/**
 * The record of an SCA the holder `psuId` went through, long ago, for one of the bank's fixture
 * resources: the bank's default approach, decided; a TPP can read it and change nothing.
 */
export function fixtureAuthorisation(
  profile: BankProfile,
  kind: AuthorisationKind,
  resourceId: string,
  { status, psuId, createdAt }: { status: Extract<ScaStatus, 'finalised' | 'failed'>; psuId: string | null; createdAt: string },
): Authorisation {
  return {
    id: fixtureAuthorisationId(kind, resourceId),
    kind,
    resourceId,
    status,
    approach: profile.defaultApproach,
    psuId,
    scaMethodId: null,
    failedAttempts: status === 'failed' ? 3 : 0,
    polls: 0,
    tppRedirectUri: null,
    tppNokRedirectUri: null,
    ownerId: null,
    createdAt,
  };
}

/** Each fixture consent was authorised by the holder of its first account (docs/profiles.md, "Fixtures"). */
export function fixtureConsentAuthorisations(profile: BankProfile): Authorisation[] {
  const holder = new Map(profile.rows.accounts.map(({ iban, psuId }) => [iban, psuId]));
  return profile.rows.consents.map(({ id, access, lastActionDate }) => {
    const first = access.accounts.find((account) => 'iban' in account);
    return fixtureAuthorisation(profile, 'consent', id, {
      status: 'finalised',
      psuId: (first && 'iban' in first ? holder.get(first.iban) : null) ?? null,
      createdAt: `${lastActionDate}T09:00:00.000Z`,
    });
  });
}
