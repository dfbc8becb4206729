import { randomInt } from 'node:crypto';
import type { Account, Balance, Psu, Transaction } from '../bank/account.entity';
import { standingOrderDetails, transactionObject } from '../bank/transaction-object';
import { LAST_DATE } from '../common/dates';
import { ibanOf } from '../common/iban';
import type { Consent } from '../consent/consent.entity';
import type { FixtureTable, ScenarioPart } from '../core/sandbox-service';
import type { CreateScenarioDto, ScenarioResponse } from './scenario.dto';

/** Scenario accounts live under their own bank code, apart from the fixtures' 99000. */
const SCENARIO_BANK = '99001';
const PASSWORD = 'sandbox';

export interface ScenarioRows {
  psu: Psu;
  accounts: Account[];
  balances: Balance[];
  transactions: Transaction[];
  consent: Consent;
  /** The offered services' rows (SandboxService.scenario), in the order they are inserted. */
  services: FixtureTable[];
  /** The services' keys of the answer. */
  answer: Record<string, unknown>;
}

/** The rows of a scenario, in the fixtures' shapes, with the offered services' `parts`; `scenarioId` tags every one of them; its accounts carry the bank's `bic`. */
export function scenarioRows(
  request: CreateScenarioDto,
  { scenarioId, consentId, ownerId, bic }: { scenarioId: string; consentId: string; ownerId: string | null; bic: string },
  today: string,
  parts: ScenarioPart[],
): ScenarioRows {
  const short = scenarioId.slice(0, 8);
  // The whole random (version 4) scenario ID, 122 random bits: a PSU ID nobody can guess.
  const psu = { psuId: `scenario-${scenarioId}`, name: request.accounts[0].name, password: PASSWORD, scenarioId, ownerId } as Psu;
  const accounts = request.accounts.map(
    // An optional field sent as null counts as absent (class-validator's IsOptional lets null through).
    ({ name, currency, product }) =>
      ({
        iban: ibanOf('AT', SCENARIO_BANK + String(randomInt(10 ** 10)).padStart(11, '0')),
        name,
        currency: currency ?? 'EUR',
        product: product ?? 'Giro',
        bic,
        psuId: psu.psuId,
        scenarioId,
      }) as Account,
  );
  const balances = request.accounts.flatMap(({ balances: amounts }, index) =>
    (['forwardAvailable', 'interimAvailable'] as const).map(
      (balanceType) =>
        ({
          accountIban: accounts[index].iban,
          balanceType,
          amount: amounts[balanceType],
          currency: accounts[index].currency,
          referenceDate: today,
        }) as Balance,
    ),
  );
  const transactions = request.accounts.flatMap((account, index) => {
    const [booked, pending, standingOrders] = [account.booked ?? [], account.pending ?? [], account.standingOrders ?? []];
    const { iban, name, currency } = accounts[index];
    const id = (kind: string, number: number) => `${short}-A${index + 1}-${kind}${number + 1}`;
    const row = (bookingStatus: Transaction['bookingStatus'], body: Transaction['body']) =>
      ({ transactionId: body.transactionId, accountIban: iban, bookingStatus, bookingDate: body.bookingDate, body }) as Transaction;
    return [
      ...booked.map((entry, number) =>
        row(
          'booked',
          transactionObject({
            ...facts(entry),
            transactionId: id('B', number),
            ownIban: iban,
            ownName: name,
            currency,
            bookingDate: entry.bookingDate,
            valueDate: entry.bookingDate,
            bankTransactionCode: code(entry.amount),
          }),
        ),
      ),
      ...pending.map((entry, number) =>
        row(
          'pending',
          transactionObject({
            ...facts(entry),
            transactionId: id('P', number),
            ownIban: iban,
            ownName: name,
            currency,
            bookingDate: entry.bookingDate,
            valueDate: null,
            bankTransactionCode: null,
          }),
        ),
      ),
      ...standingOrders.map((order, number) =>
        row(
          'information',
          transactionObject({
            ...facts(order),
            transactionId: id('S', number),
            ownIban: iban,
            ownName: name,
            currency,
            bookingDate: null,
            valueDate: null,
            bankTransactionCode: 'PMNT-ICDT-STDO',
            // The bank's standing orders say preceding; a scenario's are scenery with no months of their own.
            standingOrderDetails: standingOrderDetails({ ...order, executionRule: 'preceding', monthsOfExecution: null }),
          }),
        ),
      ),
    ];
  });
  const shares = parts.map((part) => part.rows(request as never, { scenarioId, psuId: psu.psuId, holderName: psu.name, today }));
  const consent = {
    id: consentId,
    status: 'valid',
    access: {
      accounts: [...accounts.map(({ iban, currency }) => ({ iban, currency })), ...shares.flatMap((share) => share.consentAccounts ?? [])],
      balances: [],
      transactions: [],
      availableAccounts: null,
      ...Object.assign({}, ...shares.map((share) => share.access)),
    },
    recurringIndicator: true,
    validUntil: LAST_DATE,
    frequencyPerDay: 4,
    lastActionDate: today,
    fixture: true,
    scenarioId,
    ownerId,
    card: null,
  } as Consent;
  return {
    psu,
    accounts,
    balances,
    transactions,
    consent,
    services: shares.flatMap((share) => share.tables),
    answer: Object.assign({}, ...shares.map((share) => share.answer)),
  };
}

export function toScenarioResponse(scenarioId: string, { psu, accounts, consent, answer }: ScenarioRows): ScenarioResponse {
  return {
    scenarioId,
    psuId: psu.psuId,
    password: psu.password,
    consentId: consent.id,
    accounts: accounts.map(({ iban, currency, name }) => ({ resourceId: iban, iban, currency, name })),
    ...answer,
  };
}

const facts = (entry: {
  amount: string;
  counterpartyName: string;
  counterpartyIban: string;
  remittanceInformationUnstructured?: string;
}) => ({
  amount: entry.amount,
  counterpartyName: entry.counterpartyName,
  counterpartyIban: entry.counterpartyIban,
  remittanceInformationUnstructured: entry.remittanceInformationUnstructured ?? '',
});

const code = (amount: string) => (amount.startsWith('-') ? 'PMNT-ICDT-ESCT' : 'PMNT-RCDT-ESCT');
