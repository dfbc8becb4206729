import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { AccountStore, inOrder, passing, TransactionFilter } from '../bank/account-store';
import { Fixtures } from '../bank/fixtures';
import type { World } from '../world/world';
import { Store } from '../database/store';
import { BankProfile } from '../profile/bank-profile';
import type { AccountKind } from '../consent/account-kinds.service';
import { CardAccount, CardTransaction } from './card-account.entity';

/**
 * Where card account reads come from (docs/card-accounts.md). As AccountStore does for accounts,
 * the profile's fixture cards are answered from its index (Fixtures); a
 * scenario's are read from the database.
 */
@Injectable()
export class CardAccountStore {
  constructor(
    private readonly store: Store,
    private readonly profile: BankProfile,
    private readonly fixtures: Fixtures,
    private readonly accounts: AccountStore,
  ) {}

  /** Consents name cards beside accounts (the descriptor's ports): the bank's in a consent for all accounts, a holder's in the holder check, their names on the SCA page. */
  accountKind(): AccountKind {
    const reference = ({ maskedPan, currency }: CardAccount) => ({ maskedPan, currency });
    const bankOwned = [...this.profile.fixturesOf(CardAccount)].sort((a, b) => (a.maskedPan < b.maskedPan ? -1 : 1)).map(reference);
    return {
      bankOwned: () => bankOwned,
      heldBy: async (psuId) => (await this.heldBy(psuId)).map(reference),
      names: async (maskedPans, world) =>
        (await this.withMaskedPans(maskedPans, world)).map(({ maskedPan, name, product }) => [maskedPan, `${name}, ${product}`]),
    };
  }

  /** The card account with this resourceId, or null; null too where `world` may not see it (AccountStore.visibleTo). */
  async find(resourceId: string, world: World): Promise<CardAccount | null> {
    const [fixture] = this.fixtures.with(CardAccount, 'resourceId', resourceId);
    if (fixture) return fixture;
    const [visible] = await this.accounts.visibleTo(await this.store.read(CardAccount).findBy({ resourceId }), world);
    return visible ?? null;
  }

  /** The card accounts among `maskedPans` that `world` may see, in no particular order (as AccountStore.find answers IBANs). */
  async withMaskedPans(maskedPans: string[], world: World): Promise<CardAccount[]> {
    const found = maskedPans.flatMap((maskedPan) => this.fixtures.with(CardAccount, 'maskedPan', maskedPan));
    const elsewhere = maskedPans.filter((maskedPan) => !this.fixtures.has(CardAccount, 'maskedPan', maskedPan));
    return elsewhere.length
      ? [...found, ...(await this.accounts.visibleTo(await this.store.read(CardAccount).findBy({ maskedPan: In(elsewhere) }), world))]
      : found;
  }

  /** The cards a PSU holds: a fixture PSU's from memory, a scenario PSU's from the database. */
  private async heldBy(psuId: string): Promise<CardAccount[]> {
    if (this.profile.personaOf(psuId)) return [...this.fixtures.with(CardAccount, 'psuId', psuId)];
    return this.store.read(CardAccount).find({ where: { psuId }, order: { maskedPan: 'ASC' } });
  }

  /** A card account's transactions that pass the filter, in list order (a scenario card's are few: filtered as the fixtures' are). */
  async transactionsOf(resourceId: string, filter: TransactionFilter): Promise<CardTransaction[]> {
    const rows = this.fixtures.has(CardAccount, 'resourceId', resourceId)
      ? this.fixtures.with(CardTransaction, 'cardAccountId', resourceId)
      : await this.store.read(CardTransaction).findBy({ cardAccountId: resourceId });
    return passing(rows, filter).sort(inOrder);
  }
}
