import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { DomainError, detail, FormatError, type ErrorDetail } from '../common/error-catalogue';
import { readXml } from '../http/xml';
import { sumAmounts, toThousandths } from '../common/amount';
import type { PaymentServiceName } from './payment-products';

/**
 * A pain.001.001.03 customer credit transfer initiation read as the JSON body of its twin product
 * (docs/formats.md, "pain.001"): the elements a Berlin Group payment has a field for are checked
 * against the message's definition (cardinality, ISO 20022 data types) and mapped onto the field;
 * the others a bank's file may hold (purpose, regulatory reporting, …) are accepted unread. From
 * there on it is the JSON twin's payment: its validation, its machine, its ledger.
 */
export const PAIN_001_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03';

/** German banks' "as soon as possible" date (DK rules): no requested execution date. */
const AS_SOON_AS_POSSIBLE = '1999-01-01';

const ROOT = 'Document.CstmrCdtTrfInitn';
const REPEATING = new Set([`${ROOT}.PmtInf`, `${ROOT}.PmtInf.CdtTrfTxInf`, `${ROOT}.PmtInf.CdtTrfTxInf.RmtInf.Ustrd`]);

// ISO 20022 data types of pain.001.001.03, as its message definition gives them.
const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength });
const IBAN = { type: 'string', pattern: '^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}$' };
const BIC = { type: 'string', pattern: '^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$' };
const ISO_DATE = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' };
const ISO_DATE_TIME = {
  type: 'string',
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$',
};
const COUNT = { type: 'string', pattern: '^[0-9]{1,15}$' };
// A sum of Berlin Group amounts: at most three decimals that are not zero.
const DECIMAL = { type: 'string', pattern: '^[0-9]{1,18}(\\.[0-9]{1,3}0*)?$' };
const element = (properties: Record<string, object>, required: string[] = []) => ({ type: 'object', properties, required });
const account = element({ Id: element({ IBAN }, ['IBAN']), Ccy: { type: 'string', pattern: '^[A-Z]{3}$' } }, ['Id']);
const agent = element({ FinInstnId: element({ BIC }) }, ['FinInstnId']);
const address = element({
  StrtNm: text(70),
  BldgNb: text(16),
  PstCd: text(16),
  TwnNm: text(35),
  Ctry: { type: 'string', pattern: '^[A-Z]{2}$' },
});
const party = element({ Nm: text(140), PstlAdr: address });

const SCHEMA = element(
  {
    Document: element(
      {
        CstmrCdtTrfInitn: element(
          {
            GrpHdr: element({ MsgId: text(35), CreDtTm: ISO_DATE_TIME, NbOfTxs: COUNT, CtrlSum: DECIMAL, InitgPty: party }, [
              'MsgId',
              'CreDtTm',
              'NbOfTxs',
              'InitgPty',
            ]),
            PmtInf: {
              type: 'array',
              minItems: 1,
              items: element(
                {
                  PmtInfId: text(35),
                  PmtMtd: { enum: ['TRF', 'CHK', 'TRA'] },
                  BtchBookg: { enum: ['true', 'false', '1', '0'] },
                  NbOfTxs: COUNT,
                  CtrlSum: DECIMAL,
                  ReqdExctnDt: ISO_DATE,
                  Dbtr: party,
                  DbtrAcct: account,
                  DbtrAgt: agent,
                  ChrgBr: { enum: ['DEBT', 'CRED', 'SHAR', 'SLEV'] },
                  CdtTrfTxInf: {
                    type: 'array',
                    minItems: 1,
                    items: element(
                      {
                        PmtId: element({ InstrId: text(35), EndToEndId: text(35) }, ['EndToEndId']),
                        Amt: element(
                          {
                            InstdAmt: element(
                              {
                                // ISO 20022 allows five decimals; a Berlin Group amount has three at most.
                                '#text': { type: 'string', pattern: '^[0-9]{1,14}(\\.[0-9]{1,3})?$' },
                                '@Ccy': { type: 'string', pattern: '^[A-Z]{3}$' },
                              },
                              ['#text', '@Ccy'],
                            ),
                          },
                          ['InstdAmt'],
                        ),
                        ChrgBr: { enum: ['DEBT', 'CRED', 'SHAR', 'SLEV'] },
                        CdtrAgt: agent,
                        Cdtr: party,
                        CdtrAcct: account,
                        RmtInf: element({ Ustrd: { type: 'array', items: text(140) } }),
                      },
                      ['PmtId', 'Amt', 'Cdtr', 'CdtrAcct'],
                    ),
                  },
                },
                ['PmtInfId', 'PmtMtd', 'ReqdExctnDt', 'Dbtr', 'DbtrAcct', 'CdtTrfTxInf'],
              ),
            },
          },
          ['GrpHdr', 'PmtInf'],
        ),
      },
      ['CstmrCdtTrfInitn'],
    ),
  },
  ['Document'],
);

/**
 * Compiled at the first pain.001 a server reads, not when it loads: most starts (a test file's, a
 * TPP's that sends JSON) never read one, and the compile is a tenth of a second of each.
 */
let validate: ValidateFunction | undefined;

type Xml = Record<string, unknown>;
type Amount = { '#text': string; '@Ccy': string };
interface Party {
  Nm?: string;
  PstlAdr?: { StrtNm?: string; BldgNb?: string; PstCd?: string; TwnNm?: string; Ctry?: string };
}
interface Transaction {
  PmtId: { EndToEndId: string };
  Amt: { InstdAmt: Amount };
  CdtrAgt?: { FinInstnId: { BIC?: string } };
  Cdtr: Party;
  CdtrAcct: { Id: { IBAN: string } };
  RmtInf?: { Ustrd?: string[] };
}
interface PaymentInformation {
  PmtInfId: string;
  BtchBookg?: string;
  NbOfTxs?: string;
  CtrlSum?: string;
  ReqdExctnDt: string;
  DbtrAcct: { Id: { IBAN: string }; Ccy?: string };
  CdtTrfTxInf: Transaction[];
}
interface Initiation {
  GrpHdr: { MsgId: string; CreDtTm: string; NbOfTxs: string; CtrlSum?: string };
  PmtInf: PaymentInformation[];
}

/** What a pain.002 refers back to: the identifiers and totals the pain.001 gave. */
export interface Pain001Reference {
  messageId: string;
  createdAt: string;
  paymentInformationId: string;
  transactions: number;
  controlSum: string;
  endToEndIds: string[];
}

/** A pain.001 read: the JSON twin's body, and the identifiers a pain.002 names. */
export interface Pain001 {
  body: Record<string, unknown>;
  reference: Pain001Reference;
}

/**
 * The pain.001 `xml` as the JSON body of `service`'s twin product. 400 FORMAT_ERROR, naming the
 * element, where it is not a pain.001.001.03 or not one payment of the service (one transaction
 * for `payments`; one payment information block for `bulk-payments`), or its counts disagree.
 */
export function readPain001(xml: unknown, service: PaymentServiceName): Pain001 {
  if (typeof xml !== 'string' || xml.trim() === '') throw new FormatError('Document', 'the body must be a pain.001.001.03 document');
  if (!xml.includes(`"${PAIN_001_NAMESPACE}"`) && !xml.includes(`'${PAIN_001_NAMESPACE}'`))
    throw new FormatError('Document', `the document must be a pain.001.001.03, in the namespace ${PAIN_001_NAMESPACE}`);
  const document = readXml(xml, REPEATING);
  validate ??= new Ajv({ allErrors: false, strict: false }).compile(SCHEMA);
  if (!validate(document)) throw structureError(validate.errors![0]);
  const initiation = (document.Document as Xml).CstmrCdtTrfInitn as Initiation;
  const [information, ...more] = initiation.PmtInf;
  if (more.length > 0)
    throw new FormatError(
      'Document/CstmrCdtTrfInitn/PmtInf[2]',
      'one payment information block (one debtor account and date) a payment: send another PmtInf as a payment of its own',
    );
  const transactions = information.CdtTrfTxInf;
  checkTotals(initiation, information);
  if (service === 'payments' && transactions.length > 1)
    throw new FormatError(
      'Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[2]',
      'a single payment holds one transaction: send several as a bulk payment (bulk-payments)',
    );
  const common = {
    debtorAccount: { iban: information.DbtrAcct.Id.IBAN, ...(information.DbtrAcct.Ccy ? { currency: information.DbtrAcct.Ccy } : {}) },
    ...(information.ReqdExctnDt === AS_SOON_AS_POSSIBLE ? {} : { requestedExecutionDate: information.ReqdExctnDt }),
  };
  const body =
    service === 'bulk-payments'
      ? {
          ...(information.BtchBookg === undefined ? {} : { batchBookingPreferred: ['true', '1'].includes(information.BtchBookg) }),
          ...common,
          payments: transactions.map(transactionFields),
        }
      : { ...transactionFields(transactions[0]), ...common };
  return {
    body,
    reference: {
      messageId: initiation.GrpHdr.MsgId,
      createdAt: initiation.GrpHdr.CreDtTm,
      paymentInformationId: information.PmtInfId,
      transactions: transactions.length,
      controlSum: initiation.GrpHdr.CtrlSum ?? sumOf(transactions),
      endToEndIds: transactions.map((transaction) => transaction.PmtId.EndToEndId),
    },
  };
}

/** One CdtTrfTxInf as the fields of a payment (or of a bulk's entry). */
function transactionFields(transaction: Transaction): Record<string, unknown> {
  const { Nm, PstlAdr } = transaction.Cdtr;
  const remittance = transaction.RmtInf?.Ustrd?.[0];
  const address = PstlAdr && {
    streetName: PstlAdr.StrtNm,
    buildingNumber: PstlAdr.BldgNb,
    townName: PstlAdr.TwnNm,
    postCode: PstlAdr.PstCd,
    country: PstlAdr.Ctry,
  };
  return withoutUndefined({
    endToEndIdentification: transaction.PmtId.EndToEndId === 'NOTPROVIDED' ? undefined : transaction.PmtId.EndToEndId,
    instructedAmount: { currency: transaction.Amt.InstdAmt['@Ccy'], amount: transaction.Amt.InstdAmt['#text'] },
    creditorAccount: { iban: transaction.CdtrAcct.Id.IBAN },
    creditorAgent: transaction.CdtrAgt?.FinInstnId.BIC,
    creditorName: Nm,
    creditorAddress: address && withoutUndefined(address),
    remittanceInformationUnstructured: remittance,
  });
}

const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;

const sumOf = (transactions: Transaction[]): string => sumAmounts(transactions.map(({ Amt }) => Amt.InstdAmt['#text']));

/** NbOfTxs and CtrlSum, of the group and of the block, where given, must be what the transactions add up to. */
function checkTotals(initiation: Initiation, information: PaymentInformation): void {
  const transactions = information.CdtTrfTxInf;
  const count = String(transactions.length);
  const sum = toThousandths(sumOf(transactions));
  const totals: [string, string | undefined, (given: string) => boolean][] = [
    ['GrpHdr/NbOfTxs', initiation.GrpHdr.NbOfTxs, (given) => BigInt(given) === BigInt(count)],
    ['GrpHdr/CtrlSum', initiation.GrpHdr.CtrlSum, (given) => toThousandths(given) === sum],
    ['PmtInf[1]/NbOfTxs', information.NbOfTxs, (given) => BigInt(given) === BigInt(count)],
    ['PmtInf[1]/CtrlSum', information.CtrlSum, (given) => toThousandths(given) === sum],
  ];
  for (const [path, given, agrees] of totals)
    if (given !== undefined && !agrees(given))
      throw new FormatError(
        `Document/CstmrCdtTrfInitn/${path}`,
        `${path.split('/').pop()} ${given} is not what the transactions add up to (${count} transactions, ${sumOf(transactions)})`,
      );
}

/** Where a field of the JSON twin comes from in the pain.001 (docs/formats.md): a refusal names the element. */
const ELEMENT_OF: Record<string, string> = {
  debtorAccount: 'PmtInf[1]/DbtrAcct',
  requestedExecutionDate: 'PmtInf[1]/ReqdExctnDt',
  batchBookingPreferred: 'PmtInf[1]/BtchBookg',
  endToEndIdentification: 'CdtTrfTxInf/PmtId/EndToEndId',
  instructedAmount: 'CdtTrfTxInf/Amt/InstdAmt',
  creditorAccount: 'CdtTrfTxInf/CdtrAcct',
  creditorAgent: 'CdtTrfTxInf/CdtrAgt/FinInstnId/BIC',
  creditorName: 'CdtTrfTxInf/Cdtr/Nm',
  creditorAddress: 'CdtTrfTxInf/Cdtr/PstlAdr',
  remittanceInformationUnstructured: 'CdtTrfTxInf/RmtInf/Ustrd',
  payments: 'CdtTrfTxInf',
};

/**
 * The twin's refusal of a mapped body, its paths named as the pain.001's elements
 * (`payments[1].creditorName` is `…/PmtInf[1]/CdtTrfTxInf[2]/Cdtr/Nm`); other errors as they are.
 */
export function asPain001Refusal(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  const renamed = error.details.map((one): ErrorDetail => {
    if (one.path === undefined || one.path === null) return one;
    const element = elementOf(one.path);
    return detail('formatError', one.description.split(one.path).join(element), element);
  });
  return new DomainError(renamed[0], ...renamed.slice(1));
}

function elementOf(path: string): string {
  const entry = /^payments\[(\d+)\]\.?(\w*)/.exec(path);
  const field = entry ? entry[2] || 'payments' : path.split(/[.[]/)[0];
  const transaction = `PmtInf[1]/CdtTrfTxInf[${entry ? Number(entry[1]) + 1 : 1}]`;
  return `Document/CstmrCdtTrfInitn/${(ELEMENT_OF[field] ?? field).replace(/^CdtTrfTxInf/, transaction)}`;
}

/** The first structural fault, naming its element as an XPath-like path (`PmtInf[1]`, `InstdAmt/@Ccy`). */
function structureError(error: ErrorObject): FormatError {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  const path = segments
    .reduce<string[]>((parts, segment) => {
      if (/^\d+$/.test(segment)) parts[parts.length - 1] += `[${Number(segment) + 1}]`;
      else if (segment !== '#text') parts.push(segment);
      return parts;
    }, [])
    .join('/');
  const what =
    error.keyword === 'required'
      ? 'is missing'
      : error.keyword === 'type'
        ? `must be ${error.params.type === 'object' ? 'an element with content' : 'text'}`
        : error.keyword === 'enum'
          ? `must be one of ${(error.params.allowedValues as string[]).join(', ')}`
          : error.keyword === 'pattern'
            ? 'is not of its ISO 20022 data type'
            : (error.message ?? 'is not valid');
  return new FormatError(path, `${path} ${what} (pain.001.001.03)`);
}
