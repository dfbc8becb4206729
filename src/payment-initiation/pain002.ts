import { iso20022Document } from '../http/xml';
import type { Payment } from './payment.entity';
import type { PaymentStatus } from './payment.machine';
import type { Pain001Reference } from './pain001';
import { rejectionMessage } from './refusals';

/**
 * Each status as pain.002.001.03 can say it (TransactionGroupStatus3Code), and the reason where its
 * code is not Berlin Group's (docs/formats.md, "pain.002"): the payee check's statuses are still
 * received; a cancelled payment is rejected as cancelled (DS02, ISO 20022's "order cancelled").
 */
const GROUP_STATUS: Record<PaymentStatus, { code: string; reason?: { Cd: string } | { Prtry: string } }> = {
  RCVD: { code: 'RCVD' },
  RCVC: { code: 'RCVD', reason: { Prtry: 'RCVC' } },
  RVCM: { code: 'RCVD', reason: { Prtry: 'RVCM' } },
  RVNC: { code: 'RCVD', reason: { Prtry: 'RVNC' } },
  PDNG: { code: 'PDNG' },
  ACSP: { code: 'ACSP' },
  RJCT: { code: 'RJCT' },
  CANC: { code: 'RJCT', reason: { Cd: 'DS02' } },
};

/**
 * The pain.002 of a payment initiated as a pain.001: its group, its payment information block and
 * each transaction, all with the status the JSON read gives (`transactionStatus`), which the
 * reason's additional information names in Berlin Group's words.
 */
export function pain002Of(
  payment: Pick<Payment, 'id' | 'status' | 'reasonCode'>,
  reference: Pain001Reference,
  bank: { name: string; bic: string },
  now: Date,
): string {
  const { code, reason } = GROUP_STATUS[payment.status];
  const rejected = payment.status === 'RJCT' && payment.reasonCode !== null;
  const statusReason =
    reason || rejected
      ? {
          StsRsnInf: {
            Rsn: rejected ? { Cd: payment.reasonCode } : reason,
            AddtlInf: rejected ? rejectionMessage(payment.reasonCode!).slice(0, 105) : `transactionStatus ${payment.status}`,
          },
        }
      : {};
  return iso20022Document('pain.002.001.03', {
    CstmrPmtStsRpt: {
      GrpHdr: {
        MsgId: payment.id.replace(/-/g, ''),
        CreDtTm: now.toISOString().slice(0, 19),
        // The party that reports: the bank (ISO 20022's pain.002 usage of InitgPty).
        InitgPty: { Nm: bank.name, Id: { OrgId: { BICOrBEI: bank.bic } } },
        DbtrAgt: { FinInstnId: { BIC: bank.bic } },
      },
      OrgnlGrpInfAndSts: {
        OrgnlMsgId: reference.messageId,
        OrgnlMsgNmId: 'pain.001.001.03',
        OrgnlCreDtTm: reference.createdAt,
        OrgnlNbOfTxs: reference.transactions,
        OrgnlCtrlSum: reference.controlSum,
        GrpSts: code,
        ...statusReason,
      },
      OrgnlPmtInfAndSts: {
        OrgnlPmtInfId: reference.paymentInformationId,
        OrgnlNbOfTxs: reference.transactions,
        OrgnlCtrlSum: reference.controlSum,
        PmtInfSts: code,
        ...statusReason,
        // A transaction's status has no RCVD (TransactionIndividualStatus3Code): the transactions are listed once they have one.
        ...(code === 'RCVD'
          ? {}
          : { TxInfAndSts: reference.endToEndIds.map((endToEndId) => ({ OrgnlEndToEndId: endToEndId, TxSts: code })) }),
      },
    },
  });
}
