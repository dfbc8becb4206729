import { fromThousandths, toThousandths } from '../common/amount';
import type { TransactionBody } from '../bank/account.entity';
import { iso20022Document } from '../http/xml';

/**
 * An account's transaction list as a bank's statement formats write it (docs/formats.md,
 * "Transaction reports"): camt.052 (with pending entries), camt.053 or camt.054 (booked only), and
 * MT940 (booked) or MT942 (with pending entries). The entries are those of the JSON list's page, in
 * the order of the day they were booked; the balances are the account's booked balance around them.
 */
export interface Report {
  iban: string;
  currency: string;
  bic: string;
  /** What the list was asked for. */
  bookingStatus: 'booked' | 'pending' | 'both';
  /** The period: the query's dates, else the first entry's date and today. */
  from: string;
  to: string;
  /** When it is written (the sandbox's today, the time of day the server's), ISO 8601 without zone. */
  createdAt: string;
  page: number;
  lastPage: number;
  /** The page's entries, newest first as the JSON list holds them. */
  entries: { status: 'booked' | 'pending'; body: TransactionBody }[];
  /** The booked balance before the page's booked entries and after them. */
  opening: string;
  closing: string;
}

export type CamtMessage = 'camt.052' | 'camt.053' | 'camt.054';

/** The camt message of a report: a booked one the profile's (camt.053 or camt.054), one with pending entries camt.052. */
export const camtMessageOf = (report: Report, booked: 'camt.053' | 'camt.054'): CamtMessage =>
  report.bookingStatus === 'booked' ? booked : 'camt.052';

const CAMT_ROOT: Record<CamtMessage, [string, string]> = {
  'camt.052': ['BkToCstmrAcctRpt', 'Rpt'],
  'camt.053': ['BkToCstmrStmt', 'Stmt'],
  'camt.054': ['BkToCstmrDbtCdtNtfctn', 'Ntfctn'],
};

const chronological = (report: Report) => [...report.entries].reverse();
const magnitude = (amount: string) => amount.replace(/^-/, '');
const isDebit = (amount: string) => amount.startsWith('-');
const reportId = (report: Report) => `${report.iban}-${report.to.replace(/-/g, '')}-${report.page}`.slice(0, 35);

/** The report as a camt message (version .001.02, the one pain.001.001.03 goes with). */
export function camtOf(report: Report, message: CamtMessage): string {
  const [root, block] = CAMT_ROOT[message];
  const amount = (value: string) => ({ '#text': magnitude(value), '@Ccy': report.currency });
  const balance = (code: string, value: string, date: string) => ({
    Tp: { CdOrPrtry: { Cd: code } },
    Amt: amount(value),
    CdtDbtInd: isDebit(value) ? 'DBIT' : 'CRDT',
    Dt: { Dt: date },
  });
  const balances =
    message === 'camt.054'
      ? {}
      : {
          Bal: [balance('OPBD', report.opening, report.from), balance(message === 'camt.053' ? 'CLBD' : 'ITBD', report.closing, report.to)],
        };
  return iso20022Document(`${message}.001.02`, {
    [root]: {
      GrpHdr: {
        MsgId: reportId(report),
        CreDtTm: report.createdAt,
        MsgPgntn: { PgNb: report.page, LastPgInd: report.page === report.lastPage },
      },
      [block]: {
        Id: reportId(report),
        ElctrncSeqNb: report.page,
        CreDtTm: report.createdAt,
        FrToDt: { FrDtTm: `${report.from}T00:00:00`, ToDtTm: `${report.to}T23:59:59` },
        Acct: { Id: { IBAN: report.iban }, Ccy: report.currency, Svcr: { FinInstnId: { BIC: report.bic } } },
        ...balances,
        Ntry: chronological(report).map(({ status, body }) => camtEntry(status, body, amount)),
      },
    },
  });
}

function camtEntry(status: 'booked' | 'pending', body: TransactionBody, amount: (value: string) => object): object {
  const value = body.transactionAmount.amount;
  const [domain, family, subFamily] = typeof body.bankTransactionCode === 'string' ? body.bankTransactionCode.split('-') : [];
  const remittance = remittanceOf(body);
  return present({
    NtryRef: body.transactionId,
    Amt: amount(value),
    CdtDbtInd: isDebit(value) ? 'DBIT' : 'CRDT',
    Sts: status === 'booked' ? 'BOOK' : 'PDNG',
    BookgDt: body.bookingDate ? { Dt: body.bookingDate } : undefined,
    ValDt: typeof body.valueDate === 'string' ? { Dt: body.valueDate } : undefined,
    AcctSvcrRef: body.transactionId,
    BkTxCd:
      subFamily !== undefined
        ? { Domn: { Cd: domain, Fmly: { Cd: family, SubFmlyCd: subFamily } } }
        : { Prtry: { Cd: 'NTRF', Issr: 'SWIFT' } },
    NtryDtls: {
      TxDtls: present({
        Refs: { AcctSvcrRef: body.transactionId, EndToEndId: typeof body.endToEndId === 'string' ? body.endToEndId : 'NOTPROVIDED' },
        RltdPties: present({
          Dbtr: nameOf(body.debtorName),
          DbtrAcct: accountOf(body.debtorAccount),
          Cdtr: nameOf(body.creditorName),
          CdtrAcct: accountOf(body.creditorAccount),
        }),
        RmtInf: remittance ? { Ustrd: remittance.slice(0, 140) } : undefined,
      }),
    },
  });
}

/** The object without its undefined members: an element left out. */
const present = (members: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(members).filter(([, member]) => member !== undefined));

const nameOf = (name: unknown) => (typeof name === 'string' && name !== '' ? { Nm: name.slice(0, 140) } : undefined);

const ibanOf = (account: unknown): string | undefined =>
  account !== null && typeof account === 'object' && typeof (account as { iban?: unknown }).iban === 'string'
    ? (account as { iban: string }).iban
    : undefined;

const accountOf = (account: unknown) => (ibanOf(account) === undefined ? undefined : { Id: { IBAN: ibanOf(account) } });

const remittanceOf = (body: TransactionBody): string | undefined =>
  typeof body.remittanceInformationUnstructured === 'string' && body.remittanceInformationUnstructured !== ''
    ? body.remittanceInformationUnstructured
    : undefined;

/**
 * The report as SWIFT MT940 (booked) or MT942 (with pending entries), as German banks deliver
 * them over FinTS: the fields of block 4, lines ending in CR LF, the statement ending in `-`.
 * Text outside SWIFT's character set X is spelt in it (diacritics dropped, the rest a space).
 */
export function mt94xOf(report: Report): string {
  const lines = [`:20:${swift(reportId(report)).slice(0, 16)}`, `:25:${report.iban}`, `:28C:1/${report.page}`];
  const entries = chronological(report).flatMap(({ body }) => mtEntry(body));
  if (report.bookingStatus === 'booked') {
    const last = report.page === report.lastPage;
    lines.push(`:60${report.page === 1 ? 'F' : 'M'}:${mtBalance(report.opening, report.from, report.currency)}`);
    lines.push(...entries);
    lines.push(`:62${last ? 'F' : 'M'}:${mtBalance(report.closing, report.to, report.currency)}`);
  } else {
    const time = report.createdAt.replace(/\D/g, '').slice(2, 12);
    lines.push(`:34F:${report.currency}0,`, `:13D:${time}+0000`, ...entries);
    const debits = report.entries.filter(({ body }) => isDebit(body.transactionAmount.amount));
    const credits = report.entries.filter(({ body }) => !isDebit(body.transactionAmount.amount));
    lines.push(`:90D:${debits.length}${report.currency}${mtAmount(total(debits))}`);
    lines.push(`:90C:${credits.length}${report.currency}${mtAmount(total(credits))}`);
  }
  return `${[...lines, '-'].join('\r\n')}\r\n`;
}

const total = (entries: Report['entries']) =>
  fromThousandths(entries.reduce((sum, { body }) => sum + toThousandths(magnitude(body.transactionAmount.amount)), 0n));

/** A date as YYMMDD. */
const yymmdd = (date: string) => date.slice(2).replace(/-/g, '');
/** An amount as SWIFT writes it: a comma for the point, no sign. */
const mtAmount = (amount: string) => magnitude(amount).replace('.', ',');
const mtBalance = (amount: string, date: string, currency: string) =>
  `${isDebit(amount) ? 'D' : 'C'}${yymmdd(date)}${currency}${mtAmount(amount)}`;

function mtEntry(body: TransactionBody): string[] {
  const amount = body.transactionAmount.amount;
  const valueDate = typeof body.valueDate === 'string' ? body.valueDate : (body.bookingDate ?? '');
  const entryDate = body.bookingDate ? body.bookingDate.slice(5).replace('-', '') : '';
  const reference = typeof body.endToEndId === 'string' ? swift(body.endToEndId).replace(/\/\//g, '/').slice(0, 16) : 'NONREF';
  const statementLine = `:61:${yymmdd(valueDate)}${entryDate}${isDebit(amount) ? 'D' : 'C'}${mtAmount(amount)}NTRF${reference}//${swift(body.transactionId).slice(0, 16)}`;
  const counterparty = isDebit(amount) ? [body.creditorName, body.creditorAccount] : [body.debtorName, body.debtorAccount];
  const details = [remittanceOf(body), counterparty[0], ibanOf(counterparty[1])]
    .filter((part): part is string => typeof part === 'string' && part !== '')
    .join(' ');
  if (details === '') return [statementLine];
  const detailLines = (swift(details).match(/.{1,65}/g) ?? []).slice(0, 6).map((line) => line.replace(/^[:-]/, '.'));
  return [statementLine, `:86:${detailLines[0]}`, ...detailLines.slice(1)];
}

/** Text in SWIFT's character set X: letters, digits, / - ? : ( ) . , ' + and the space. */
const swift = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, ' ');
