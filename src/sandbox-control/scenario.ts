import { randomInt, randomUUID } from 'node:crypto';
import type { Account, Balance, Psu, Transaction } from '../bank/account.entity';
import { standingOrderDetails, transactionObject } from '../bank/transaction-object';
import { ibanOf } from '../common/iban';
import type { Consent } from '../consent/consent.entity';
import type { TrustedBeneficiary } from '../trusted-beneficiaries/trusted-beneficiary.entity';
import type { CreateScenarioDto, ScenarioCardTransactionDto, ScenarioResponse } from './scenario.dto';
import { type CardAccount, type CardTransaction, cardTransactionRows } from '../card-accounts/card-account.entity';

/** Scenario accounts live under their own bank code, apart from the fixtures' 99000. */
const SCENARIO_BANK = '99001';
const PASSWORD = 'sandbox';

export interface ScenarioRows {
  psu: Psu;
  accounts: Account[];
  balances: Balance[];
  transactions: Transaction[];
  consent: Consent;
  trustedBeneficiaries: TrustedBeneficiary[];
  cardAccounts: CardAccount[];
  cardTransactions: CardTransaction[];
}

/** The rows of a scenario, in the fixtures' shapes; `scenarioId` tags every one of them; its accounts carry the bank's `bic`. */
export function scenarioRows(
  request: CreateScenarioDto,
  { scenarioId, consentId, ownerId, bic }: { scenarioId: string; consentId: string; ownerId: string | null; bic: string },
  today: string,
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
      (balanceType) => ({ accountIban: accounts[index].iban, balanceType, amount: amounts[balanceType], currency: accounts[index].currency, referenceDate: today }) as Balance,
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
        row('booked', transactionObject({ ...facts(entry), transactionId: id('B', number), ownIban: iban, ownName: name, currency, bookingDate: entry.bookingDate, valueDate: entry.bookingDate, bankTransactionCode: code(entry.amount) })),
      ),
      ...pending.map((entry, number) =>
        row('pending', transactionObject({ ...facts(entry), transactionId: id('P', number), ownIban: iban, ownName: name, currency, bookingDate: entry.bookingDate, valueDate: null, bankTransactionCode: null })),
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
  const trustedBeneficiaries = (request.trustedBeneficiaries ?? []).map(
    ({ creditorIban, creditorName, creditorAlias }): TrustedBeneficiary => ({
      trustedBeneficiaryId: randomUUID(),
      psuId: psu.psuId,
      debtorIban: null,
      creditorIban,
      creditorName,
      creditorAgent: null,
      creditorAlias: creditorAlias ?? null,
      scenarioId,
    }),
  );
  const cardAccounts = (request.cardAccounts ?? []).map(
    ({ name, currency, product, creditLimit, balances: { interimBooked } }): CardAccount => ({
      resourceId: randomUUID(),
      // Masked as the bank masks its cards' numbers; ten random digits keep two scenarios' cards apart.
      maskedPan: `4${digits(5)}xxxxxx${digits(4)}`,
      currency: currency ?? 'EUR',
      name: name ?? psu.name,
      product: product ?? 'Credit card',
      creditLimit: creditLimit ?? null,
      balances: [{ balanceType: 'interimBooked', amount: interimBooked, referenceDate: today }],
      psuId: psu.psuId,
      scenarioId,
    }),
  );
  const cardTransactions = (request.cardAccounts ?? []).flatMap(({ booked, pending }, index) => {
    const { resourceId, maskedPan, currency } = cardAccounts[index];
    const body = (entry: ScenarioCardTransactionDto, kind: string, number: number, booking: object) => ({
      cardTransactionId: `${short}-C${index + 1}-${kind}${number + 1}`,
      transactionDate: entry.transactionDate,
      ...booking,
      transactionAmount: { currency, amount: entry.amount },
      ...(entry.cardAcceptorId === undefined ? {} : { cardAcceptorId: entry.cardAcceptorId }),
      maskedPAN: maskedPan,
      transactionDetails: entry.transactionDetails,
    });
    return cardTransactionRows(resourceId, {
      booked: (booked ?? []).map((entry, number) => body(entry, 'B', number, { bookingDate: entry.transactionDate })),
      pending: (pending ?? []).map((entry, number) => body(entry, 'P', number, {})),
    });
  });
  const consent = {
    id: consentId,
    status: 'valid',
    access: {
      accounts: [...accounts.map(({ iban, currency }) => ({ iban, currency })), ...cardAccounts.map(({ maskedPan, currency }) => ({ maskedPan, currency }))],
      balances: [],
      transactions: [],
      availableAccounts: null,
      // Where the scenario's holder trusts payees, its consent lists them too (of every account).
      ...(request.trustedBeneficiaries ? { trustedBeneficiaries: [] } : {}),
    },
    recurringIndicator: true,
    validUntil: '9999-12-31',
    frequencyPerDay: 4,
    lastActionDate: today,
    fixture: true,
    scenarioId,
    ownerId,
    card: null,
  } as Consent;
  return { psu, accounts, balances, transactions, consent, trustedBeneficiaries, cardAccounts, cardTransactions };
}

export function toScenarioResponse(scenarioId: string, { psu, accounts, consent, cardAccounts }: ScenarioRows): ScenarioResponse {
  return {
    scenarioId,
    psuId: psu.psuId,
    password: psu.password,
    consentId: consent.id,
    accounts: accounts.map(({ iban, currency, name }) => ({ resourceId: iban, iban, currency, name })),
    ...(cardAccounts.length ? { cardAccounts: cardAccounts.map(({ resourceId, maskedPan, currency, name }) => ({ resourceId, maskedPan, currency, name })) } : {}),
  };
}

const digits = (count: number) => String(randomInt(10 ** count)).padStart(count, '0');

const facts = (entry: { amount: string; counterpartyName: string; counterpartyIban: string; remittanceInformationUnstructured?: string }) => ({
  amount: entry.amount,
  counterpartyName: entry.counterpartyName,
  counterpartyIban: entry.counterpartyIban,
  remittanceInformationUnstructured: entry.remittanceInformationUnstructured ?? '',
});

const code = (amount: string) => (amount.startsWith('-') ? 'PMNT-ICDT-ESCT' : 'PMNT-RCDT-ESCT');
