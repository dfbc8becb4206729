import type { SandboxService } from '../core/sandbox-service';
import { CARD_ACCOUNTS, type FixtureFiles } from '../profile/bank-profile';
import { CardAccount, type CardBalance, CardTransaction, type CardTransactionBody, cardTransactionRows } from './card-account.entity';
import { CardAccountsApiModule } from './card-accounts-api.module';
import { documentCardAccounts } from './card-accounts-document';
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

/** Card accounts (docs/card-accounts.md), where the profile sets cardAccounts: true. */
export const cardAccountsService: SandboxService = {
  name: CARD_ACCOUNTS,
  offeredBy: (settings) => settings.cardAccounts === true,
  module: () => CardAccountsApiModule,
  // Card transactions go with their card accounts (ON DELETE CASCADE).
  entities: [CardAccount, CardTransaction],
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
            if (ids.has(cardTransactionId)) card(`.transactions.${status}[${position}].cardTransactionId`, `${cardTransactionId} is used twice on this card`);
            ids.add(cardTransactionId);
            if (transactionAmount.currency !== currency) card(`.transactions.${status}[${position}].transactionAmount.currency`, `must be the card's currency, ${currency}`);
          });
        }
      });
      return problems;
    },
    tables: (cards: FixtureCardAccount[]) => [
      {
        entity: CardAccount,
        conflictPaths: ['resourceId'],
        rows: cards.map(
          ({ resourceId, psuId, maskedPan, currency, name, product, creditLimit, balances }): CardAccount => ({ resourceId, psuId, maskedPan, currency, name, product, creditLimit: creditLimit ?? null, balances, scenarioId: null }),
        ),
      },
      { entity: CardTransaction, conflictPaths: ['cardAccountId', 'transactionId'], rows: cards.flatMap(({ resourceId, transactions = {} }) => cardTransactionRows(resourceId, transactions)) },
    ],
  },
  document: (document, profile) => documentCardAccounts(document, profile.provides(CARD_ACCOUNTS)),
  summary: (profile) => [`Card accounts: ${profile.fixturesOf(CardAccount).length} of the bank's, read under a consent naming their maskedPan or all accounts.`],
};
