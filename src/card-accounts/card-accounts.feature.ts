import { randomInt, randomUUID } from 'node:crypto';
import { CardAccounts1796800000000 } from '../../migrations/1796800000000-CardAccounts';
import type { SandboxService, ScenarioContext } from '../core/sandbox-service';
import type { FixtureFiles } from '../profile/bank-profile';
import { CARD_ACCOUNTS, SCENARIO_FIELD } from './card-accounts-requests';
import { CardAccount, type CardBalance, CardTransaction, type CardTransactionBody, cardTransactionRows } from './card-account.entity';
import { CardAccountsModule } from './card-accounts.module';
import { CardAccountsCockpit } from './card-accounts-cockpit';
import { CardAccountStore } from './card-account-store';
import { documentCardAccounts } from './card-accounts-document';
import { documentFixtureCardConsent, fixtureCardConsent } from './fixture-consent';
import schema from './fixtures.schema.json';

/** One entry of cardAccounts.json (docs/card-accounts.md). */
interface FixtureCardAccount {
  resourceId: string;
  psuId: string;
  maskedPan: string;
  currency: string;
  name: string;
  product: string;
  creditLimit?: string;
  balances: CardBalance[];
  transactions?: { booked?: CardTransactionBody[]; pending?: CardTransactionBody[] };
}

/** A credit card of a scenario's holder (the scenario DTO's cardAccounts). */
interface ScenarioCard {
  name?: string;
  currency?: string;
  product?: string;
  creditLimit?: string;
  balances: { interimBooked: string };
  booked?: ScenarioCardTransaction[] | null;
  pending?: ScenarioCardTransaction[] | null;
}

interface ScenarioCardTransaction {
  amount: string;
  transactionDate: string;
  transactionDetails: string;
  cardAcceptorId?: string;
}

/** The `index`th card of a scenario, with its transactions: its masked PAN is the sandbox's to choose. */
function scenarioCard(
  { name, currency, product, creditLimit, balances: { interimBooked }, booked, pending }: ScenarioCard,
  { scenarioId, psuId, holderName, today }: ScenarioContext,
  index: number,
): { account: CardAccount; transactions: CardTransaction[] } {
  const account: CardAccount = {
    resourceId: randomUUID(),
    // Masked as the bank masks its cards' numbers; ten random digits keep two scenarios' cards apart.
    maskedPan: `4${digits(5)}xxxxxx${digits(4)}`,
    currency: currency ?? 'EUR',
    name: name ?? holderName,
    product: product ?? 'Credit card',
    creditLimit: creditLimit ?? null,
    balances: [{ balanceType: 'interimBooked', amount: interimBooked, referenceDate: today }],
    psuId,
    scenarioId,
  };
  const body = (entry: ScenarioCardTransaction, kind: string, number: number, booking: object) => ({
    cardTransactionId: `${scenarioId.slice(0, 8)}-C${index + 1}-${kind}${number + 1}`,
    transactionDate: entry.transactionDate,
    ...booking,
    transactionAmount: { currency: account.currency, amount: entry.amount },
    ...(entry.cardAcceptorId === undefined ? {} : { cardAcceptorId: entry.cardAcceptorId }),
    maskedPAN: account.maskedPan,
    transactionDetails: entry.transactionDetails,
  });
  const transactions = cardTransactionRows(account.resourceId, {
    booked: (booked ?? []).map((entry, number) => body(entry, 'B', number, { bookingDate: entry.transactionDate })),
    pending: (pending ?? []).map((entry, number) => body(entry, 'P', number, {})),
  });
  return { account, transactions };
}

const digits = (count: number) => String(randomInt(10 ** count)).padStart(count, '0');

declare module '../profile/bank-profile' {
  interface ProfileSettings {
    cardAccounts?: boolean;
  }
}

/** Card accounts (docs/card-accounts.md), where the profile sets cardAccounts: true. */
export const cardAccountsService: SandboxService = {
  name: CARD_ACCOUNTS,
  profileKeys: {
    cardAccounts: {
      description:
        'Card accounts (docs/card-accounts.md): GET /v1/card-accounts and its balances and transactions, consents naming cards by maskedPan, from the fixture file cardAccounts.json and scenarios. Absent or false: not offered.',
      type: 'boolean',
    },
  },
  offeredBy: (settings) => settings.cardAccounts === true,
  module: () => CardAccountsModule,
  // Card transactions go with their card accounts (ON DELETE CASCADE).
  entities: [CardAccount, CardTransaction],
  migrations: [CardAccounts1796800000000],
  requestGroup: CARD_ACCOUNTS,
  fixtures: {
    name: 'cardAccounts',
    schema,
    problems: (cards: FixtureCardAccount[], { psus }: FixtureFiles) => {
      const problems: [string, string][] = [];
      const [cardIds, maskedPans] = [new Set<string>(), new Set<string>()];
      cards.forEach(({ resourceId, psuId, maskedPan, currency, transactions = {} }, index) => {
        const card = (key: string, text: string) => problems.push([`[${index}]${key}`, text]);
        if (cardIds.has(resourceId)) card('.resourceId', `${resourceId} is listed twice`);
        if (maskedPans.has(maskedPan)) card('.maskedPan', `${maskedPan} is listed twice`);
        cardIds.add(resourceId);
        maskedPans.add(maskedPan);
        if (!psus.some((psu) => psu.psuId === psuId)) card('.psuId', `${psuId} is not in psus.json`);
        const ids = new Set<string>();
        for (const [status, list] of Object.entries(transactions)) {
          list.forEach(({ cardTransactionId, transactionAmount }, position) => {
            if (ids.has(cardTransactionId))
              card(`.transactions.${status}[${position}].cardTransactionId`, `${cardTransactionId} is used twice on this card`);
            ids.add(cardTransactionId);
            if (transactionAmount.currency !== currency)
              card(`.transactions.${status}[${position}].transactionAmount.currency`, `must be the card's currency, ${currency}`);
          });
        }
      });
      return problems;
    },
    tables: (cards: FixtureCardAccount[]) => [
      {
        entity: CardAccount,
        conflictPaths: ['resourceId'],
        rows: cards.map(({ resourceId, psuId, maskedPan, currency, name, product, creditLimit, balances }): CardAccount => ({
          resourceId,
          psuId,
          maskedPan,
          currency,
          name,
          product,
          creditLimit: creditLimit ?? null,
          balances,
          scenarioId: null,
        })),
      },
      {
        entity: CardTransaction,
        conflictPaths: ['cardAccountId', 'transactionId'],
        rows: cards.flatMap(({ resourceId, transactions = {} }) => cardTransactionRows(resourceId, transactions)),
      },
    ],
  },
  scenario: {
    ...SCENARIO_FIELD,
    rows: ({ cardAccounts = [] }: { cardAccounts?: ScenarioCard[] }, scenario) => {
      const cards = cardAccounts.map((card, index) => scenarioCard(card, scenario, index));
      return {
        tables: [
          { entity: CardAccount, conflictPaths: ['resourceId'], rows: cards.map(({ account }) => account) },
          {
            entity: CardTransaction,
            conflictPaths: ['cardAccountId', 'transactionId'],
            rows: cards.flatMap(({ transactions }) => transactions),
          },
        ],
        consentAccounts: cards.map(({ account: { maskedPan, currency } }) => ({ maskedPan, currency })),
        answer: cards.length
          ? {
              cardAccounts: cards.map(({ account: { resourceId, maskedPan, currency, name } }) => ({
                resourceId,
                maskedPan,
                currency,
                name,
              })),
            }
          : {},
      };
    },
    // Card transactions go with their card accounts (ON DELETE CASCADE).
    tables: [CardAccount],
  },
  ports: { accountKind: (get) => get(CardAccountStore).accountKind() },
  cockpit: CardAccountsCockpit,
  derivedFixtures: fixtureCardConsent,
  document: (document, profile) => {
    documentCardAccounts(document, profile.provides(CARD_ACCOUNTS));
    if (profile.provides(CARD_ACCOUNTS)) documentFixtureCardConsent(document, profile);
  },
  summary: (profile) => [
    `Card accounts: ${profile.fixturesOf(CardAccount).length} of the bank's, read under a consent naming their maskedPan or all accounts.`,
  ],
};
