import type { TransactionBody } from './account.entity';

/** The parts of a transaction a scenario gives; the rest of the Berlin Group object is null, as in the bank's data. */
export interface TransactionFacts {
  transactionId: string;
  ownIban: string;
  ownName: string;
  currency: string;
  /** Negative: money leaves the account, the counterparty is the creditor. */
  amount: string;
  counterpartyName: string;
  /** Null for a batch booking, which has no one counterparty. */
  counterpartyIban: string | null;
  /** The payment's endToEndIdentification, for what the sandbox books. */
  endToEndId?: string | null;
  /** What the sandbox credits names its debtor; the bank's data (and a scenario's) names none. */
  debtorName?: string | null;
  bookingDate: string | null;
  valueDate: string | null;
  remittanceInformationUnstructured: string;
  bankTransactionCode: string | null;
  standingOrderDetails?: Record<string, unknown>;
}

/** A standing order's schedule, in the order of the bank's standingOrderDetails. */
export interface StandingOrderSchedule {
  startDate: string;
  frequency: string;
  endDate?: string | null;
  executionRule: string;
  dayOfExecution?: string | null;
  monthsOfExecution?: string[] | null;
}

/** The bank's standingOrderDetails: every month when none are named, startDate's day when no dayOfExecution is given. */
export function standingOrderDetails(schedule: StandingOrderSchedule): Record<string, unknown> {
  return {
    startDate: schedule.startDate,
    frequency: schedule.frequency,
    endDate: schedule.endDate ?? null,
    executionRule: schedule.executionRule,
    withinAMonthFlag: null,
    monthsOfExecution: schedule.monthsOfExecution ?? Array.from({ length: 12 }, (_, month) => String(month + 1)),
    multiplicator: null,
    dayOfExecution: schedule.dayOfExecution ?? schedule.startDate.slice(8).replace(/^0/, ''),
    limitAmount: null,
  };
}

const reference = (iban: string | null, currency: string) =>
  iban === null ? null : { iban, bban: null, pan: null, maskedPan: null, msisdn: null, currency };

/** A transaction object in the bank's shape: every field of the interface document, in its order. */
export function transactionObject(facts: TransactionFacts): TransactionBody {
  const outgoing = facts.amount.startsWith('-');
  const creditorIban = outgoing ? facts.counterpartyIban : facts.ownIban;
  const debtorIban = outgoing ? facts.ownIban : facts.counterpartyIban;
  return {
    transactionId: facts.transactionId,
    entryReference: null,
    endToEndId: facts.endToEndId ?? null,
    mandateId: null,
    checkId: null,
    creditorId: '',
    bookingDate: facts.bookingDate,
    valueDate: facts.valueDate,
    transactionAmount: { currency: facts.currency, amount: facts.amount },
    currencyExchange: null,
    // Like the bank's data: the creditor is named, the debtor only by account.
    creditorName: outgoing ? facts.counterpartyName : facts.ownName,
    creditorAccount: reference(creditorIban, facts.currency),
    creditorAgent: null,
    ultimateCreditor: null,
    debtorName: facts.debtorName ?? null,
    debtorAccount: reference(debtorIban, facts.currency),
    debtorAgent: null,
    ultimateDebtor: null,
    remittanceInformationUnstructured: facts.remittanceInformationUnstructured,
    remittanceInformationUnstructuredArray: null,
    remittanceInformationStructured: null,
    remittanceInformationStructuredArray: null,
    additionalInformation: null,
    additionalInformationStructured: facts.standingOrderDetails ? { standingOrderDetails: facts.standingOrderDetails } : null,
    purposeCode: null,
    bankTransactionCode: facts.bankTransactionCode,
    proprietaryBankTransactionCode: null,
    balanceAfterTransaction: null,
    _links: null,
  };
}
