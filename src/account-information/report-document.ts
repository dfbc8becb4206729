import type { OpenAPIObject } from '@nestjs/swagger';
import type { BankProfile } from '../profile/bank-profile';
import { camtMessageOf, camtOf, mt94xOf, type Report } from './transaction-reports';

const LIST = '/v1/accounts/{accountId}/transactions';
const DOWNLOAD = '/v1/accounts/{accountId}/transactions/download/{downloadId}';

/** A report of two entries, written by the sandbox's own writers: the served examples of the camt and MT94x answers. */
const SAMPLE: Report = {
  iban: 'AT099900000000001511',
  currency: 'EUR',
  bic: 'TESTAT99',
  bookingStatus: 'booked',
  from: '2026-03-01',
  to: '2026-03-15',
  createdAt: '2026-03-15T09:30:00',
  page: 1,
  lastPage: 1,
  entries: [
    {
      status: 'booked',
      body: {
        transactionId: '1511-B02',
        endToEndId: 'E2E-RENT-03',
        bookingDate: '2026-03-05',
        valueDate: '2026-03-05',
        transactionAmount: { currency: 'EUR', amount: '-100.25' },
        creditorName: 'Georg Mustermann',
        creditorAccount: { iban: 'AT439900000000010017' },
        debtorAccount: { iban: 'AT099900000000001511' },
        remittanceInformationUnstructured: 'Rent March',
        bankTransactionCode: 'PMNT-ICDT-ESCT',
      },
    },
    {
      status: 'booked',
      body: {
        transactionId: '1511-B01',
        bookingDate: '2026-03-02',
        valueDate: '2026-03-02',
        transactionAmount: { currency: 'EUR', amount: '2500.00' },
        debtorName: 'Muster Handel GmbH',
        debtorAccount: { iban: 'AT611904300234573201' },
        creditorAccount: { iban: 'AT099900000000001511' },
        remittanceInformationUnstructured: 'Salary',
        bankTransactionCode: 'PMNT-RCDT-ESCT',
      },
    },
  ],
  opening: '1000.00',
  closing: '3399.75',
};

type Content = Record<string, { schema?: object; example?: unknown }>;
type Operation = { responses: Record<string, { content?: Content }> };

/**
 * The transaction list's answers as the profile offers them (docs/formats.md): camt and MT94x
 * beside JSON, and the download link and route where a report may be too large; in a JSON-only
 * profile neither the download route nor its schemas.
 */
export function documentTransactionReports(document: OpenAPIObject, profile: BankProfile): void {
  const { formats, booked } = profile.transactionReports;
  const schemas = document.components!.schemas!;
  if (formats.length === 1) {
    delete document.paths[DOWNLOAD];
    delete schemas.DownloadResponse;
    delete schemas.DownloadLinks;
    return;
  }
  const list = (document.paths[LIST].get as Operation).responses['200'].content!;
  list['application/json'].schema = {
    oneOf: [list['application/json'].schema, { $ref: '#/components/schemas/DownloadResponse' }],
  };
  const reports: Content = {};
  if (formats.includes('application/xml'))
    reports['application/xml'] = {
      schema: {
        type: 'string',
        description: `camt.052.001.02 with pending entries, ${booked}.001.02 with booked ones only (docs/formats.md)`,
      },
      example: camtOf(SAMPLE, camtMessageOf(SAMPLE, booked)),
    };
  if (formats.includes('text/plain'))
    reports['text/plain'] = {
      schema: { type: 'string', description: 'MT940 with booked entries only, MT942 with pending ones (docs/formats.md)' },
      example: mt94xOf(SAMPLE),
    };
  Object.assign(list, reports);
  (document.paths[DOWNLOAD].get as Operation).responses['200'] = {
    ...(document.paths[DOWNLOAD].get as Operation).responses['200'],
    content: reports,
  };
}
