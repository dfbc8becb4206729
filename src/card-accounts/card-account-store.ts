import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { AccountStore, inOrder, passing, TransactionFilter } from '../bank/account-store';
import type { World } from '../oauth/world';
import { Store } from '../database/store';
import { BankProfile } from '../profile/bank-profile';
import type { AccountKind } from '../consent/account-kinds.service';
import { CardAccount, CardTransaction } from './card-account.entity';

/**
 * Where card account reads come from (docs/card-accounts.md). As AccountStore does for accounts,
 * the profile's fixture cards are answered from memory; a scenario's are read from the database.
 */
@Injectable()
export class CardAccountStore {
  private readonly fixtures = new Map<string, { account: CardAccount; transactions: CardTransaction[] }>();
  private readonly byMaskedPan: Map<string, CardAccount>;

  constructor(
    private readonly store: Store,
    private readonly profile: BankProfile,
    private readonly accounts: AccountStore,
  ) {
    for (const account of profile.fixturesOf(CardAccount)) {
      const transactions = profile.fixturesOf(CardTransaction).filter(({ cardAccountId }) => cardAccountId === account.resourceId);
      this.fixtures.set(account.resourceId, { account, transactions: [...transactions].sort(inOrder) });
    }
    this.byMaskedPan = new Map(profile.fixturesOf(CardAccount).map((account) => [account.maskedPan, account]));
  }

  /** Consents name cards beside accounts (the descriptor's ports): the bank's in a consent for all accounts, a holder's in the holder check, their names on the SCA page. */
  accountKind(): AccountKind {
    const reference = ({ maskedPan, currency }: CardAccount) => ({ maskedPan, currency });
    const bankOwned = [...this.byMaskedPan.values()].sort((a, b) => (a.maskedPan < b.maskedPan ? -1 : 1)).map(reference);
    return {
      bankOwned: () => bankOwned,
      heldBy: async (psuId) => (await this.heldBy(psuId)).map(reference),
      names: async (maskedPans, world) =>
        (await this.withMaskedPans(maskedPans, world)).map(({ maskedPan, name, product }) => [maskedPan, `${name}, ${product}`]),
    };
  }

  /** The card account with this resourceId, or null; null too where `world` may not see it (AccountStore.visibleTo). */
  async find(resourceId: string, world: World): Promise<CardAccount | null> {
    const fixture = this.fixtures.get(resourceId)?.account;
    if (fixture) return fixture;
    const [visible] = await this.accounts.visibleTo(await this.store.read(CardAccount).findBy({ resourceId }), world);
    return visible ?? null;
  }

  /** The card accounts among `maskedPans` that `world` may see, in no particular order (as AccountStore.find answers IBANs). */
  async withMaskedPans(maskedPans: string[], world: World): Promise<CardAccount[]> {
    const found = maskedPans.flatMap((maskedPan) => this.byMaskedPan.get(maskedPan) ?? []);
    const elsewhere = maskedPans.filter((maskedPan) => !this.byMaskedPan.has(maskedPan));
    return elsewhere.length
      ? [...found, ...(await this.accounts.visibleTo(await this.store.read(CardAccount).findBy({ maskedPan: In(elsewhere) }), world))]
      : found;
  }

  /** The cards a PSU holds: a fixture PSU's from memory, a scenario PSU's from the database. */
  private async heldBy(psuId: string): Promise<CardAccount[]> {
    if (this.profile.personaOf(psuId)) return this.profile.fixturesOf(CardAccount).filter((account) => account.psuId === psuId);
    return this.store.read(CardAccount).find({ where: { psuId }, order: { maskedPan: 'ASC' } });
  }

  /** A card account's transactions that pass the filter, in list order (a scenario card's are few: filtered as the fixtures' are). */
  async transactionsOf(resourceId: string, filter: TransactionFilter): Promise<CardTransaction[]> {
    const rows =
      this.fixtures.get(resourceId)?.transactions ??
      (await this.store.read(CardTransaction).findBy({ cardAccountId: resourceId })).sort(inOrder);
    return passing(rows, filter);
  }
}
