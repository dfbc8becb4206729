import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import type { Authorisation } from '../../authorisation/authorisation.entity';
import { nextStepLinks, psuMessageOf, ScaLinks } from '../../authorisation/authorisation-response.dto';
import { href, Href } from '../../common/links';
import type { AnswerHabits } from '../../common/answer-style';
import { Consent, CONSENT_PATHS, ConsentedAccount, ConsentPurpose } from '../consent.entity';
import { ConsentStatus, isAwaitingSca } from '../consent.machine';

export const CONSENT_STATUSES = ['received', 'valid', 'rejected', 'expired', 'terminatedByTpp', 'revokedByPsu'];

export class ConsentLinks extends OmitType(ScaLinks, ['scaRedirect']) {
  @ApiPropertyOptional({
    type: Href,
    description: "redirect (the bank's answer): the SCA page",
    example: {
      href: 'http://localhost:3000/sca/consents?consent_id=e6151d43-dca8-4fe1-b139-3a89bfeb57a2&redirectBackUrl=https%3A%2F%2Ftpp.example%2Fcallback',
    },
  })
  scaRedirect?: Href;

  // Only where the bank offers signing baskets (signing-baskets-document.ts).
  @ApiPropertyOptional({
    type: Href,
    example: { href: '/v1/consents/e6151d43-dca8-4fe1-b139-3a89bfeb57a2/authorisations' },
    description: 'TPP-Explicit-Authorisation-Preferred: true: POST here to start the authorisation, or put the consent in a signing basket',
  })
  startAuthorisation?: Href;

  @ApiProperty({ type: Href, example: { href: '/v1/consents/e6151d43-dca8-4fe1-b139-3a89bfeb57a2' } })
  self: Href;

  @ApiProperty({ type: Href, example: { href: '/v1/consents/e6151d43-dca8-4fe1-b139-3a89bfeb57a2/status' } })
  status: Href;
}

export class ConsentCreatedResponse {
  @ApiProperty({ enum: CONSENT_STATUSES, example: 'received' })
  consentStatus: ConsentStatus;

  @ApiProperty({ format: 'uuid', example: 'e6151d43-dca8-4fe1-b139-3a89bfeb57a2' })
  consentId: string;

  @ApiProperty({ type: Object, nullable: true, example: null })
  scaMethods: null;

  @ApiProperty({ type: Object, nullable: true, example: null })
  chosenScaMethod: null;

  @ApiProperty({ type: Object, nullable: true, example: null })
  challengeData: null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'decoupled: what the TPP shows the holder' })
  psuMessage: string | null;

  @ApiProperty({ type: ConsentLinks })
  _links: ConsentLinks;
}

export class ConsentStatusResponse {
  @ApiProperty({ enum: CONSENT_STATUSES, example: 'valid' })
  consentStatus: ConsentStatus;
}

export class AccountReferenceResponse {
  @ApiProperty({ type: String, nullable: true, example: 'AT099900000000001511' })
  iban: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  bban: null;

  @ApiProperty({ type: String, nullable: true, example: null })
  pan: null;

  @ApiProperty({ type: String, nullable: true, example: null })
  maskedPan: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  msisdn: null;

  @ApiProperty({ type: String, nullable: true, example: 'EUR' })
  currency: string | null;
}

export class ConsentAccessResponse {
  @ApiProperty({ type: [AccountReferenceResponse] })
  accounts: AccountReferenceResponse[];

  @ApiProperty({ type: [AccountReferenceResponse] })
  balances: AccountReferenceResponse[];

  @ApiProperty({ type: [AccountReferenceResponse] })
  transactions: AccountReferenceResponse[];

  // Where the bank lists trusted beneficiaries and the consent asks for them: {"trustedBeneficiaries": [account references]}.
  @ApiProperty({ type: Object, nullable: true, example: null })
  additionalInformation: { trustedBeneficiaries: AccountReferenceResponse[] } | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: "the seed bank's rules: `allAccounts` until the account holder has chosen the accounts; Berlin Group's: as asked",
  })
  availableAccounts: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: "Berlin Group's rules: allAccounts or allAccountsWithOwnerName, as asked",
  })
  availableAccountsWithBalance: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: "Berlin Group's rules: allAccounts or allAccountsWithOwnerName, as asked",
  })
  allPsd2: string | null;

  @ApiProperty({ type: [String], nullable: true, example: null })
  restrictedTo: null;
}

export class ConsentResponse {
  @ApiProperty({ type: ConsentAccessResponse })
  access: ConsentAccessResponse;

  @ApiProperty({ example: true })
  recurringIndicator: boolean;

  @ApiProperty({ example: '9999-12-31' })
  validUntil: string;

  @ApiProperty({ example: 4 })
  frequencyPerDay: number;

  @ApiProperty({ example: '2019-03-06' })
  lastActionDate: string;

  @ApiProperty({ enum: CONSENT_STATUSES, example: 'valid' })
  consentStatus: ConsentStatus;

  @ApiProperty({ type: Object, nullable: true, example: null })
  _links: null;
}

/** A payment account by its IBAN, a card account by its masked PAN (docs/card-accounts.md). */
export function toAccountReferenceResponse(reference: ConsentedAccount): AccountReferenceResponse {
  const [iban, maskedPan] = 'iban' in reference ? [reference.iban, null] : [null, reference.maskedPan];
  return { iban, bban: null, pan: null, maskedPan, msisdn: null, currency: reference.currency };
}

/**
 * The bank's answer, with the redirect page; for an embedded or decoupled authorisation, the link
 * to its next step instead, and (decoupled) what the holder is told (docs/sca-approaches.md).
 */
export function toConsentCreatedResponse(
  purpose: ConsentPurpose,
  consentId: string,
  consentStatus: ConsentStatus,
  authorisation: Authorisation | null,
  scaRedirect: Href,
  habits: AnswerHabits,
  explicit = false,
): ConsentCreatedResponse {
  const path = `${CONSENT_PATHS[purpose]}/${consentId}`;
  const self = { self: href(path), status: href(`${path}/status`) };
  // The TPP starts the authorisation itself (docs/signing-baskets.md).
  if (explicit && isAwaitingSca(consentStatus)) {
    return {
      consentStatus,
      consentId,
      scaMethods: null,
      chosenScaMethod: null,
      challengeData: null,
      psuMessage: null,
      _links: { startAuthorisation: href(`${path}/authorisations`), ...self },
    };
  }
  const other = authorisation !== null && authorisation.approach !== 'REDIRECT';
  // Valid at creation (SCA_MODE=auto): nothing is left to authorise.
  const sca = isAwaitingSca(consentStatus) || habits.scaLinkWhenDone;
  return {
    consentStatus,
    consentId,
    scaMethods: null,
    chosenScaMethod: null,
    challengeData: null,
    psuMessage: (other && psuMessageOf(authorisation).psuMessage) || null,
    _links: !sca
      ? self
      : other
        ? { ...nextStepLinks(authorisation, `${path}/authorisations/${authorisation.id}`), ...self }
        : { scaRedirect, ...self },
  };
}

/**
 * The consent as its access rules read it (docs/behaviour.md, "Consent access"): the seed bank's
 * lists; under Berlin Group's, as it was asked (its `accounts` are the details it grants, a request
 * for every account stays that request once the holder chose them). The empty lists are the seed
 * bank's, which Berlin Group's answers leave out (inBerlinGroupShape).
 */
export function toConsentResponse(consent: Consent): ConsentResponse {
  const { accounts, details = [], balances, transactions, availableAccounts, allAccounts } = consent.access;
  const asked = allAccounts ? { [allAccounts.kind]: allAccounts.value } : {};
  const listed = (list: ConsentedAccount[]) => (allAccounts ? [] : list.map(toAccountReferenceResponse));
  return {
    access: {
      accounts: listed([...accounts, ...details]),
      balances: listed(balances),
      transactions: listed(transactions),
      additionalInformation: consent.access.trustedBeneficiaries
        ? { trustedBeneficiaries: consent.access.trustedBeneficiaries.map(toAccountReferenceResponse) }
        : null,
      availableAccounts: allAccounts ? null : availableAccounts,
      availableAccountsWithBalance: null,
      allPsd2: null,
      restrictedTo: null,
      ...asked,
    },
    recurringIndicator: consent.recurringIndicator,
    validUntil: consent.validUntil,
    frequencyPerDay: consent.frequencyPerDay,
    lastActionDate: consent.lastActionDate,
    consentStatus: consent.status,
    _links: null,
  };
}
