import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import SEPA from 'sepa';
import { CashManagementEndOfDayReport, PaymentStatusReport } from 'iso20022.js';
import { Parser as Mt940Parser } from 'mt940js';
import { XMLParser } from 'fast-xml-parser';
import { GEORG, MARIANNE, NEW_RESOURCE_ID, sepaPayment } from './support/fixtures';
import { Sandbox, tppHeaders, useSandbox } from './support/sandbox';

/**
 * The formats Berlin Group defines besides JSON (docs/formats.md): pain.001 initiations, pain.002
 * and pain.001 reads, camt and MT94x transaction reports. The documents are made and read by
 * libraries nobody here wrote: `sepa` writes the pain.001, `iso20022.js` reads the pain.002 and the
 * camt.053, `mt940js` the MT940.
 */

const PSU_IP = { 'PSU-IP-Address': '192.0.2.10' };
const XML = { 'Content-Type': 'application/xml' };

interface Transfer {
  creditorIban: string;
  creditorName: string;
  amount: number;
  endToEndId: string;
  remittance?: string;
}

/** A pain.001.001.03 written by the `sepa` library: one payment information block of these transfers. */
function pain001(debtorIban: string, transfers: Transfer[], executionDate = '2026-03-15', messageId = 'MSG-FORMATS-1'): string {
  const document = new SEPA.Document('pain.001.001.03');
  document.grpHdr.id = messageId;
  document.grpHdr.created = new Date('2026-03-15T10:00:00Z');
  document.grpHdr.initiatorName = 'Formats TPP';
  const information = document.createPaymentInfo();
  information.requestedExecutionDate = new Date(executionDate);
  information.debtorIBAN = debtorIban;
  information.debtorName = 'Holder 1';
  document.addPaymentInfo(information);
  for (const transfer of transfers) {
    const transaction = information.createTransaction();
    transaction.creditorName = transfer.creditorName;
    transaction.creditorIBAN = transfer.creditorIban;
    transaction.amount = transfer.amount;
    transaction.end2endId = transfer.endToEndId;
    transaction.remittanceInfo = transfer.remittance ?? 'Formats';
    information.addTransaction(transaction);
  }
  return document.toString();
}

const toGeorg = (amount: number, endToEndId = 'E2E-FORMATS-1'): Transfer => ({
  creditorIban: GEORG,
  creditorName: 'Georg Mustermann',
  amount,
  endToEndId,
});

/** The Berlin Group error body with one message: its text the message number's and `text`, or what `text` matches. */
const bgError = (code: string, messageId: string, text: string | RegExp, path?: string) => ({
  tppMessages: [
    {
      category: 'ERROR',
      code,
      ...(path ? { path } : {}),
      text:
        typeof text === 'string'
          ? `{sensitive} ${messageId}: ${text}`
          : expect.stringMatching(new RegExp(`^\\{sensitive\\} ${messageId}: ${text.source}`)),
    },
  ],
});

function client(sandbox: Sandbox) {
  const http = () => request(sandbox.http);
  return {
    http,
    initiate: (path: string, xml: string, headers: Record<string, string> = {}) =>
      http()
        .post(path)
        .set(tppHeaders({ ...PSU_IP, ...XML, ...headers }))
        .send(xml),
    get: (path: string, headers: Record<string, string> = {}) => http().get(path).set(tppHeaders(headers)),
    payments: async () => Number((await sandbox.dataSource.query('SELECT COUNT(*) AS count FROM payments'))[0].count),
  };
}

describe('pain.001 initiation and its XML reads (PROFILE=berlin-group, SCA_MODE=auto)', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'auto' });
  const tpp = client(sandbox);

  it("a pain.001 made by a third-party SEPA library is a payment: 201, the JSON twin's answer, read back as the twin's payment", async () => {
    const created = await tpp.initiate('/v1/payments/pain.001-sepa-credit-transfers', pain001(MARIANNE, [toGeorg(12.5)])).expect(201);
    const twin = await tpp
      .http()
      .post('/v1/payments/sepa-credit-transfers')
      .set(tppHeaders(PSU_IP))
      .send(
        sepaPayment('12.50', {
          endToEndIdentification: 'E2E-FORMATS-1',
          remittanceInformationUnstructured: 'Formats',
          requestedExecutionDate: '2026-03-15',
          debtorAccount: { iban: MARIANNE },
        }),
      )
      .expect(201);
    const { paymentId } = created.body;
    expect(paymentId).toMatch(NEW_RESOURCE_ID);
    const path = `/v1/payments/pain.001-sepa-credit-transfers/${paymentId}`;
    // The same answer as the JSON twin's, under the pain.001 product's paths, with its own IDs.
    const authorisationOf = (body: { _links: { scaStatus: { href: string } } }) => body._links.scaStatus.href.split('/').pop()!;
    const asTwin = JSON.stringify(twin.body)
      .split(twin.body.paymentId)
      .join(paymentId)
      .split(authorisationOf(twin.body))
      .join(authorisationOf(created.body))
      .split('sepa-credit-transfers')
      .join('pain.001-sepa-credit-transfers');
    expect(created.body).toEqualBody(JSON.parse(asTwin));
    expect(created.headers.location).toBe(`http://localhost:3000${path}`);
    const read = await tpp.get(path).expect(200);
    const twinRead = await tpp.get(`/v1/payments/sepa-credit-transfers/${twin.body.paymentId}`).expect(200);
    expect(read.body).toEqualBody(twinRead.body);
  });

  it('its status in XML is a pain.002 a third-party ISO 20022 parser reads, with the status of the JSON read', async () => {
    const { paymentId } = (
      await tpp
        .initiate(
          '/v1/payments/pain.001-sepa-credit-transfers',
          pain001(MARIANNE, [toGeorg(3.2, 'E2E-STATUS')], '2026-03-15', 'MSG-STATUS'),
        )
        .expect(201)
    ).body;
    const path = `/v1/payments/pain.001-sepa-credit-transfers/${paymentId}`;
    const json = await tpp.get(`${path}/status`).expect(200);
    expect(json.body).toEqualBody({ transactionStatus: 'ACSP' });
    const xml = await tpp.get(`${path}/status`, { Accept: 'application/xml' }).expect(200);
    expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
    const report = PaymentStatusReport.fromXML(xml.text);
    expect(report.originalMessageId).toBe('MSG-STATUS');
    expect(report.statusInformations.map(({ type, status }) => [type, status])).toEqual([
      ['group', 'ACSP'],
      ['payment', 'ACSP'],
      ['transaction', 'ACSP'],
    ]);
    // The payment itself in XML: the pain.001 as it was sent.
    const sent = pain001(MARIANNE, [toGeorg(3.2, 'E2E-STATUS')], '2026-03-15', 'MSG-STATUS');
    const document = await tpp.get(path, { Accept: 'application/xml' }).expect(200);
    expect(document.text).toBe(sent);
  });
});

describe('pain.001 refusals: nothing stored, the element named (PROFILE=berlin-group)', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'auto' });
  const tpp = client(sandbox);
  const SINGLE = '/v1/payments/pain.001-sepa-credit-transfers';
  const valid = pain001(MARIANNE, [toGeorg(12.5)]);

  /** Sends the document to `path`, expects `status` and `body`, and that no payment was stored. */
  async function refused(xml: string, status: number, body: object, path = SINGLE, headers: Record<string, string> = {}): Promise<void> {
    const before = await tpp.payments();
    const answer = await tpp.initiate(path, xml, headers).expect(status);
    expect(answer.body).toEqualBody(body);
    expect(await tpp.payments()).toBe(before);
  }

  it.each([
    [
      'not well-formed',
      valid.replace('</Cdtr>', '</Creditor>'),
      /malformed XML at line 1, column \d+: Expected closing tag 'Cdtr' \(opened in line 1, col \d+\) instead of closing tag 'Creditor'\.$/,
    ],
    [
      'a DTD (an external entity)',
      valid.replace('<Document', '<!DOCTYPE Document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Document').replace('Formats<', '&xxe;<'),
      /malformed request: the body holds a DTD \(<!DOCTYPE or <!ENTITY\), which the sandbox does not read$/,
    ],
    [
      'a billion laughs',
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>`,
      /malformed request: the body holds a DTD \(<!DOCTYPE or <!ENTITY\), which the sandbox does not read$/,
    ],
    ['nesting 33 deep', `${'<a>'.repeat(33)}${'</a>'.repeat(33)}`, /malformed request: the body nests deeper than 32 levels$/],
    ['10,001 elements', `<a>${'<b/>'.repeat(10_000)}</a>`, /malformed request: the body holds more than 10000 elements$/],
  ])('%s: 400 FORMAT_ERROR', async (_, xml, text) => {
    await refused(xml, 400, bgError('FORMAT_ERROR', 'XS2A002E', text));
  });

  it('another pain.001 version: 400 naming the document', async () => {
    const newer = valid.split('pain.001.001.03').join('pain.001.001.09');
    await refused(
      newer,
      400,
      bgError(
        'FORMAT_ERROR',
        'XS2A001E',
        'the document must be a pain.001.001.03, in the namespace urn:iso:std:iso:20022:tech:xsd:pain.001.001.03',
        'Document',
      ),
    );
  });

  it.each([
    [
      'a creditor left out',
      valid.replace(/<Cdtr>.*<\/Cdtr>/, ''),
      'Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/Cdtr',
      'Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/Cdtr is missing (pain.001.001.03)',
    ],
    [
      'an amount without its currency',
      valid.replace('<InstdAmt Ccy="EUR">', '<InstdAmt>'),
      'Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/Amt/InstdAmt',
      'Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/Amt/InstdAmt must be an element with content (pain.001.001.03)',
    ],
    [
      'an IBAN of another shape',
      valid.replace(`<IBAN>${GEORG}</IBAN>`, '<IBAN>AT43 9900</IBAN>'),
      'Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/CdtrAcct/Id/IBAN',
      'Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/CdtrAcct/Id/IBAN is not of its ISO 20022 data type (pain.001.001.03)',
    ],
    [
      'a count that disagrees',
      valid.replace('<NbOfTxs>1</NbOfTxs>', '<NbOfTxs>2</NbOfTxs>'),
      'Document/CstmrCdtTrfInitn/GrpHdr/NbOfTxs',
      'NbOfTxs 2 is not what the transactions add up to (1 transactions, 12.50)',
    ],
    [
      'a creditor name longer than the JSON field takes',
      valid.replace('<Nm>Georg Mustermann</Nm>', `<Nm>${'G'.repeat(71)}</Nm>`),
      'Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/Cdtr/Nm',
      'Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/Cdtr/Nm must be shorter than or equal to 70 characters',
    ],
    [
      'two transactions for a single payment',
      pain001(MARIANNE, [toGeorg(1), toGeorg(2, 'E2E-2')]),
      'Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[2]',
      'a single payment holds one transaction: send several as a bulk payment (bulk-payments)',
    ],
  ])('%s: 400 FORMAT_ERROR naming the element', async (_, xml, path, text) => {
    await refused(xml, 400, bgError('FORMAT_ERROR', 'XS2A001E', text, path));
  });

  it('a JSON body to a pain.001 product, or a pain.001 to a JSON one: 400 naming Content-Type', async () => {
    const before = await tpp.payments();
    const json = await tpp.http().post(SINGLE).set(tppHeaders(PSU_IP)).send(sepaPayment('1.00')).expect(400);
    expect(json.body).toEqualBody(
      bgError('FORMAT_ERROR', 'XS2A001E', 'the body must be a pain.001 document, sent with Content-Type: application/xml', 'Content-Type'),
    );
    const xml = await tpp.initiate('/v1/payments/sepa-credit-transfers', valid).expect(400);
    expect(xml.body).toEqualBody(
      bgError('FORMAT_ERROR', 'XS2A001E', 'the body must be JSON, sent with Content-Type: application/json', 'Content-Type'),
    );
    expect(await tpp.payments()).toBe(before);
  });

  it("Accept: XML where only JSON is answered is 406 REQUESTED_FORMATS_INVALID; a client's usual Accept lists get JSON", async () => {
    const { paymentId } = (
      await tpp.http().post('/v1/payments/sepa-credit-transfers').set(tppHeaders(PSU_IP)).send(sepaPayment('1.00')).expect(201)
    ).body;
    const status = await tpp.get(`/v1/payments/sepa-credit-transfers/${paymentId}/status`, { Accept: 'application/xml' }).expect(406);
    expect(status.body).toEqualBody(
      bgError(
        'REQUESTED_FORMATS_INVALID',
        'XS2A081E',
        'Accept application/xml names no media type this operation answers in: application/json',
        'Accept',
      ),
    );
    const consents = await tpp.get('/v1/consents/e6151d43-dca8-4fe1-b139-3a89bfeb57a2/status', { Accept: 'text/plain' }).expect(406);
    expect(consents.body).toEqualBody(
      bgError(
        'REQUESTED_FORMATS_INVALID',
        'XS2A081E',
        'Accept text/plain names no media type this operation answers in: application/json',
        'Accept',
      ),
    );
    for (const accept of ['application/json, text/plain, */*', '*/*', 'application/*', 'text/html,application/xhtml+xml,*/*;q=0.8'])
      expect((await tpp.get(`/v1/payments/sepa-credit-transfers/${paymentId}/status`, { Accept: accept }).expect(200)).body).toEqualBody({
        transactionStatus: 'ACSP',
      });
  });

  it('a bulk payment of two transactions in one pain.001: one bulk payment holding both, its pain.002 naming each', async () => {
    const xml = pain001(
      MARIANNE,
      [toGeorg(10, 'E2E-BULK-1'), { ...toGeorg(5.25, 'E2E-BULK-2'), remittance: 'Second' }],
      '2026-03-15',
      'MSG-BULK',
    );
    const { paymentId } = (await tpp.initiate('/v1/bulk-payments/pain.001-sepa-credit-transfers', xml).expect(201)).body;
    const path = `/v1/bulk-payments/pain.001-sepa-credit-transfers/${paymentId}`;
    const read = await tpp.get(path).expect(200);
    expect(read.body).toEqualBody({
      batchBookingPreferred: false,
      debtorAccount: { iban: MARIANNE },
      requestedExecutionDate: '2026-03-15',
      payments: [
        {
          endToEndIdentification: 'E2E-BULK-1',
          instructedAmount: { currency: 'EUR', amount: '10.00' },
          creditorName: 'Georg Mustermann',
          creditorAccount: { iban: GEORG },
          remittanceInformationUnstructured: 'Formats',
        },
        {
          endToEndIdentification: 'E2E-BULK-2',
          instructedAmount: { currency: 'EUR', amount: '5.25' },
          creditorName: 'Georg Mustermann',
          creditorAccount: { iban: GEORG },
          remittanceInformationUnstructured: 'Second',
        },
      ],
      transactionStatus: 'ACSP',
    });
    const report = PaymentStatusReport.fromXML((await tpp.get(`${path}/status`, { Accept: 'application/xml' }).expect(200)).text);
    expect(report.statusInformations.map((information) => [information.type, information.status])).toEqual([
      ['group', 'ACSP'],
      ['payment', 'ACSP'],
      ['transaction', 'ACSP'],
      ['transaction', 'ACSP'],
    ]);
    expect(
      report.statusInformations.flatMap((information) => (information.type === 'transaction' ? [information.originalEndToEndId] : [])),
    ).toEqual(['E2E-BULK-1', 'E2E-BULK-2']);
  });
});

describe('transaction reports from the living ledger: camt and MT94x (PROFILE=berlin-group, SCA_MODE=redirect)', () => {
  const sandbox = useSandbox({ PROFILE: 'berlin-group', SCA_MODE: 'redirect' });
  const tpp = client(sandbox);
  let scenario: { psuId: string; consentId: string; accounts: { iban: string }[] };
  let paymentId: string;
  const list = (query: string, accept: string) =>
    tpp.get(`/v1/accounts/${scenario.accounts[0].iban}/transactions?${query}`, {
      'Consent-ID': scenario.consentId,
      ...PSU_IP,
      Accept: accept,
    });

  beforeAll(async () => {
    await tpp.http().put('/sandbox/clock').send({ today: '2026-04-01' }).expect(200);
    const accounts = [
      { name: 'Holder 1', balances: { interimAvailable: '1000.00', forwardAvailable: '1000.00' } },
      { name: 'Holder 2', balances: { interimAvailable: '50.00', forwardAvailable: '50.00' } },
    ];
    scenario = (await tpp.http().post('/sandbox/scenarios').send({ accounts }).expect(201)).body;
    const transfer: Transfer = {
      creditorIban: scenario.accounts[1].iban,
      creditorName: 'Holder 2',
      amount: 100.25,
      endToEndId: 'E2E-RENT-04',
      remittance: 'Rent April',
    };
    paymentId = (
      await tpp
        .initiate('/v1/payments/pain.001-sepa-credit-transfers', pain001(scenario.accounts[0].iban, [transfer], '2026-04-01', 'MSG-RENT'))
        .expect(201)
    ).body.paymentId;
  });

  /** The payment's status read as JSON and as pain.002 (GrpSts and the reason the pain.002 gives). */
  async function statuses(): Promise<[string, string, string | undefined]> {
    const path = `/v1/payments/pain.001-sepa-credit-transfers/${paymentId}/status`;
    const json = (await tpp.get(path).expect(200)).body.transactionStatus;
    const xml = (await tpp.get(path, { Accept: 'application/xml' }).expect(200)).text;
    const group = new XMLParser().parse(xml).Document.CstmrPmtStsRpt.OrgnlGrpInfAndSts;
    return [json, group.GrpSts, group.StsRsnInf?.Rsn?.Prtry];
  }

  it("its pain.002 says the JSON read's status at each step: received, then executed", async () => {
    expect(await statuses()).toEqual(['RCVD', 'RCVD', undefined]);
    await tpp.http().post(`/sandbox/sca/payments/${paymentId}`).send({ psuId: scenario.psuId, decision: 'approve' }).expect(200);
    expect(await statuses()).toEqual(['ACSP', 'ACSP', undefined]);
  });

  it('the booked transactions as camt.053, read by a third-party ISO 20022 parser: the amount, the end-to-end ID, the balances', async () => {
    const answer = await list('bookingStatus=booked', 'application/xml').expect(200);
    expect(answer.headers['content-type']).toBe('application/xml; charset=utf-8');
    const [statement] = CashManagementEndOfDayReport.fromXML(answer.text).statements;
    expect(statement.account).toEqual(expect.objectContaining({ iban: scenario.accounts[0].iban }));
    expect(statement.entries).toHaveLength(1);
    const [entry] = statement.entries;
    expect([entry.creditDebitIndicator, entry.amount, entry.currency, entry.bookingDate.toISOString().slice(0, 10)]).toEqual([
      'debit',
      10025,
      'EUR',
      '2026-04-01',
    ]);
    expect(entry.transactions).toEqual([
      expect.objectContaining({ creditor: expect.objectContaining({ name: 'Holder 2' }), remittanceInformation: 'Rent April' }),
    ]);
    expect(answer.text).toContain('<EndToEndId>E2E-RENT-04</EndToEndId>');
    expect(statement.balances.map(({ type, amount, creditDebitIndicator }) => [type, amount, creditDebitIndicator])).toEqual([
      ['OPBD', 100000, 'credit'],
      ['CLBD', 89975, 'credit'],
    ]);
    // The same entries as the JSON list.
    const json = (await list('bookingStatus=booked', 'application/json').expect(200)).body.transactions.booked;
    expect(json.map((booking: { transactionId: string }) => booking.transactionId)).toEqual([entry.referenceId]);
  });

  it('the booked transactions as MT940, read by a third-party MT940 parser: the amount, opening plus turnover the closing balance', async () => {
    const answer = await list('bookingStatus=booked', 'text/plain').expect(200);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    const [statement] = new Mt940Parser().parse(answer.text);
    expect([statement.accountIdentification, statement.currency, statement.openingBalance, statement.closingBalance]).toEqual([
      scenario.accounts[0].iban,
      'EUR',
      1000,
      899.75,
    ]);
    expect(statement.transactions.map(({ amount, reference, details }) => [amount, reference, details])).toEqual([
      [-100.25, 'E2E-RENT-04', `Rent April Holder 2 ${scenario.accounts[1].iban}`],
    ]);
  });

  it('booked and pending: a camt.052 and an MT942; a period honoured; standing orders only in JSON (406)', async () => {
    const camt052 = new XMLParser({ isArray: (name) => name === 'Ntry' }).parse(
      (await list('bookingStatus=both', 'application/xml').expect(200)).text,
    );
    const report = camt052.Document.BkToCstmrAcctRpt.Rpt;
    expect(report.Ntry.map((entry: { Sts: string; Amt: number }) => [entry.Sts, entry.Amt])).toEqual([['BOOK', 100.25]]);
    const mt942 = (await list('bookingStatus=both', 'text/plain').expect(200)).text;
    expect(mt942).toMatch(
      /^:20:.*\r\n:25:AT\d+\r\n:28C:1\/1\r\n:34F:EUR0,\r\n:13D:260401\d{4}\+0000\r\n:61:2604010401D100,25NTRFE2E-RENT-04\/\/.*\r\n:86:Rent April Holder 2 AT\d+\r\n:90D:1EUR100,25\r\n:90C:0EUR0,00\r\n-\r\n$/,
    );
    const before = CashManagementEndOfDayReport.fromXML(
      (await list('bookingStatus=booked&dateTo=2026-03-31', 'application/xml').expect(200)).text,
    );
    expect(before.statements[0].entries).toEqual([]);
    expect(before.statements[0].balances.map(({ amount }) => amount)).toEqual([100000, 100000]);
    const information = await list('bookingStatus=information', 'application/xml').expect(406);
    expect(information.body).toEqualBody(
      bgError(
        'REQUESTED_FORMATS_INVALID',
        'XS2A081E',
        'standing orders (bookingStatus=information) are listed in JSON only, not in application/xml',
        'Accept',
      ),
    );
  });
});

describe('a report too large to inline: its download link (a profile with transactionReports.downloadFrom)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'formats-profile-'));
  writeFileSync(
    join(folder, 'profile.yaml'),
    'extends: berlin-group\ntransactionReports:\n  formats: [application/json, application/xml, text/plain]\n  booked: camt.054\n  downloadFrom: 200\n',
  );
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const sandbox = useSandbox({ PROFILE: folder, SCA_MODE: 'auto' });
  const tpp = client(sandbox);
  const READ = { 'Consent-ID': 'e6151d43-dca8-4fe1-b139-3a89bfeb57a2', ...PSU_IP };

  it('the list answers its download link; the link answers the report (a camt.054 here), in the format asked for', async () => {
    const linked = await tpp
      .get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`, { ...READ, Accept: 'application/xml' })
      .expect(200);
    expect(linked.body).toEqualBody({
      account: { iban: MARIANNE },
      _links: { download: { href: expect.stringMatching(new RegExp(`^/v1/accounts/${MARIANNE}/transactions/download/[A-Za-z0-9_-]+$`)) } },
    });
    const download = await tpp.get(linked.body._links.download.href, { ...READ, Accept: 'application/xml' }).expect(200);
    const notification = new XMLParser().parse(download.text).Document.BkToCstmrDbtCdtNtfctn.Ntfctn;
    const json = (await tpp.get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`, READ).expect(200)).body.transactions.booked;
    expect([notification.Acct.Id.IBAN, [notification.Ntry].flat().length]).toEqual([MARIANNE, json.length]);
    expect((await tpp.get(linked.body._links.download.href, { ...READ, Accept: 'text/plain' }).expect(406)).body.tppMessages[0].code).toBe(
      'REQUESTED_FORMATS_INVALID',
    );
    const unknown = await tpp.get(`/v1/accounts/${MARIANNE}/transactions/download/not-a-download`, READ).expect(404);
    expect(unknown.body).toEqualBody(bgError('RESOURCE_UNKNOWN', 'XS2A082E', 'download not-a-download unknown', 'downloadId'));
  });
});

describe('the bank profile: JSON only, as before', () => {
  const sandbox = useSandbox({ SCA_MODE: 'auto' });
  const tpp = client(sandbox);

  it("no pain.001 product (404 PRODUCT_UNKNOWN), and a transaction list in XML is 406 in the bank's error shape", async () => {
    const product = await tpp.initiate('/v1/payments/pain.001-sepa-credit-transfers', pain001(MARIANNE, [toGeorg(1)])).expect(404);
    expect(product.body.tppMessages[0].code).toBe('PRODUCT_UNKNOWN');
    const report = await tpp
      .get(`/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked`, {
        'Consent-ID': 'e6151d43-dca8-4fe1-b139-3a89bfeb57a2',
        Accept: 'application/xml',
      })
      .expect(406);
    expect(report.body).toEqualBody({
      tppMessages: [
        {
          category: 'ERROR',
          code: 'REQUESTED_FORMATS_INVALID',
          path: 'Accept',
          text: '{sensitive} XS2A081E: Accept application/xml names no media type this operation answers in: application/json',
        },
      ],
      _links: null,
    });
  });
});
