import { EXAMPLE } from '../../common/document-examples';

/**
 * What Swagger UI's Try it out sends to each initiation endpoint (docs/development.md, "The served
 * document"): from the first account of the profile's first valid fixture consent to another of
 * its accounts, small enough to be covered, executed at once (no date), so that it reads ACSP.
 */
const debtorAccount = { iban: EXAMPLE.iban, currency: 'EUR' };
const transfer = {
  debtorAccount,
  instructedAmount: { currency: 'EUR', amount: '12.50' },
  creditorAccount: { iban: EXAMPLE.creditorIban },
  creditorName: EXAMPLE.creditorName,
  remittanceInformationUnstructured: 'Try it out',
};

export const PAYMENT_EXAMPLES = {
  sepa: transfer,
  instant: transfer,
  crossBorder: { ...transfer, creditorAddress: { townName: 'Wien', country: 'AT' } },
  bulk: {
    batchBookingPreferred: 'true',
    debtorAccount,
    payments: [
      {
        instructedAmount: { currency: 'EUR', amount: '10.00' },
        creditorAccount: { iban: EXAMPLE.creditorIban },
        creditorName: EXAMPLE.creditorName,
      },
      {
        instructedAmount: { currency: 'EUR', amount: '5.25' },
        creditorAccount: { iban: EXAMPLE.creditorIban },
        creditorName: EXAMPLE.creditorName,
      },
    ],
  },
  periodic: { ...transfer, startDate: EXAMPLE.date(0), frequency: 'Monthly', dayOfExecution: '1' },
};
