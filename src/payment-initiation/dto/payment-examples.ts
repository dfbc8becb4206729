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

/** A pain.001.001.03 of these transactions from the example's account, executed today: what Try it out sends to a pain.001 product (docs/formats.md). */
function pain001Example(amounts: string[]): string {
  const sum = amounts.reduce((total, amount) => total + Number(amount), 0).toFixed(2);
  const transactions = amounts.map(
    (amount, index) => `
      <CdtTrfTxInf>
        <PmtId><EndToEndId>TRY-IT-OUT-${index + 1}</EndToEndId></PmtId>
        <Amt><InstdAmt Ccy="EUR">${amount}</InstdAmt></Amt>
        <Cdtr><Nm>${EXAMPLE.creditorName}</Nm><PstlAdr><TwnNm>Wien</TwnNm><Ctry>AT</Ctry></PstlAdr></Cdtr>
        <CdtrAcct><Id><IBAN>${EXAMPLE.creditorIban}</IBAN></Id></CdtrAcct>
        <RmtInf><Ustrd>Try it out</Ustrd></RmtInf>
      </CdtTrfTxInf>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03">
  <CstmrCdtTrfInitn>
    <GrpHdr>
      <MsgId>TRY-IT-OUT</MsgId>
      <CreDtTm>${EXAMPLE.date(0)}T09:00:00</CreDtTm>
      <NbOfTxs>${amounts.length}</NbOfTxs>
      <CtrlSum>${sum}</CtrlSum>
      <InitgPty><Nm>Try it out</Nm></InitgPty>
    </GrpHdr>
    <PmtInf>
      <PmtInfId>TRY-IT-OUT-PMTINF</PmtInfId>
      <PmtMtd>TRF</PmtMtd>
      <NbOfTxs>${amounts.length}</NbOfTxs>
      <CtrlSum>${sum}</CtrlSum>
      <PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf>
      <ReqdExctnDt>${EXAMPLE.date(0)}</ReqdExctnDt>
      <Dbtr><Nm>Try it out</Nm></Dbtr>
      <DbtrAcct><Id><IBAN>${EXAMPLE.iban}</IBAN></Id></DbtrAcct>
      <ChrgBr>SLEV</ChrgBr>${transactions.join('')}
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>
`;
}

export const PAIN_001_EXAMPLES = { payment: pain001Example(['12.50']), bulk: pain001Example(['10.00', '5.25']) };
