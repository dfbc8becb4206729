import { SERVICES } from '../../src/services';
import { PROFILE } from './profile';

/** The bank's fixture IDs (README, "Fixtures"), written out here so that a change to profiles/bank/fixtures/ cannot hide from the tests. */
export const VALID_CONSENT = 'e6151d43-dca8-4fe1-b139-3a89bfeb57a2';
export const SECOND_VALID_CONSENT = '58bf4a5e-11e8-46d4-a3e2-8372cdfcd023';
export const EXPIRED_CONSENT = 'baf31bce-34b2-437a-b9c3-4e044c0bfb04';
export const UNKNOWN_CONSENT = 'ca2636e6-02f6-4c9d-ae29-051b23a61c11';
/** The ID the sandbox gives a consent, payment or authorisation it stores: a time-ordered UUID (version 7). */
export const NEW_RESOURCE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const MARIANNE = 'AT099900000000001511';
export const GEORG = 'AT439900000000010017';
export const SUSANNE = 'AT959900000000012476';
export const FRANZ = 'AT079900000000070029';
export const ERWIN = 'AT419900000000916809';

/** The smallest SEPA credit transfer body: Marianne pays Georg `amount` EUR; `extra` adds or overrides fields. */
/** A consent to Georg's balances, recurring, four reads a day: what a test that needs a consent of its own sends. */
export const balancesConsent = (extra: object = {}) => ({
  access: { balances: [{ iban: GEORG }] },
  recurringIndicator: true,
  combinedServiceIndicator: false,
  validUntil: '2026-06-30',
  frequencyPerDay: 4,
  ...extra,
});

export const sepaPayment = (amount: string, extra: object = {}) => ({
  debtorAccount: { iban: MARIANNE },
  instructedAmount: { currency: 'EUR', amount },
  creditorAccount: { iban: GEORG },
  creditorName: 'Georg Mustermann',
  ...extra,
});

export const reference = (iban: string | null, currency: string | null = 'EUR') => ({
  iban,
  bban: null,
  pan: null,
  maskedPan: null,
  msisdn: null,
  currency,
});

/** A card account named by its masked PAN, as the bank answers a reference (docs/card-accounts.md). */
export const cardReference = (maskedPan: string, currency = 'EUR') => ({ ...reference(null, currency), maskedPan });

/** The transaction object with every field; `fields` sets the typed ones. */
export const transaction = (fields: Record<string, unknown>) => ({
  transactionId: null,
  entryReference: null,
  endToEndId: null,
  mandateId: null,
  checkId: null,
  creditorId: '',
  bookingDate: null,
  valueDate: null,
  transactionAmount: null,
  currencyExchange: null,
  creditorName: null,
  creditorAccount: null,
  creditorAgent: null,
  ultimateCreditor: null,
  debtorName: null,
  debtorAccount: null,
  debtorAgent: null,
  ultimateDebtor: null,
  remittanceInformationUnstructured: null,
  remittanceInformationUnstructuredArray: null,
  remittanceInformationStructured: null,
  remittanceInformationStructuredArray: null,
  additionalInformation: null,
  additionalInformationStructured: null,
  purposeCode: null,
  bankTransactionCode: null,
  proprietaryBankTransactionCode: null,
  balanceAfterTransaction: null,
  _links: null,
  ...fields,
});

/** The masked PANs of the fixture card accounts each PSU holds (docs/card-accounts.md): berlin-group's two; the bank shows none, nor a sandbox built without the card service (the removal proof). */
const CARDS = PROFILE === 'berlin-group' && SERVICES.some(({ name }) => name === 'cardAccounts');
export const FIXTURE_CARDS: Record<string, string[]> = CARDS
  ? { 'georg.mustermann': ['492950xxxxxx4711'], 'susanne.mustermann': ['545454xxxxxx2476'] }
  : {};
