import { Injectable } from '@nestjs/common';
import { In, IsNull, Not } from 'typeorm';
import { Psu } from '../bank/account.entity';
import { ResourceUnknownError } from '../common/error-catalogue';
import { formValue, link, section, status, table } from '../common/html';
import type { CockpitPage, CockpitSection } from '../core/cockpit-section';
import { Store } from '../database/store';
import { ownedBy, type World } from '../world/world';
import { BankProfile } from '../profile/bank-profile';
import { CardAccount } from './card-account.entity';
import { CardAccountStore } from './card-account-store';

const balancesOf = ({ balances, currency }: CardAccount): string =>
  balances.map(({ balanceType, amount }) => `${balanceType} ${amount} ${currency}`).join(', ');

/** The card accounts in the cockpit (docs/cockpit.md): the bank's and the client's scenarios', each with its transactions. */
@Injectable()
export class CardAccountsCockpit implements CockpitSection {
  readonly path = 'card-accounts';

  constructor(
    private readonly store: Store,
    private readonly cards: CardAccountStore,
    private readonly profile: BankProfile,
  ) {}

  async overview(world: World): Promise<string> {
    const scenarios = await this.store.read(Psu).find({ where: { scenarioId: Not(IsNull()), ...ownedBy(world) } });
    const scenarioIds = scenarios.map(({ scenarioId }) => scenarioId!);
    const cards = [
      ...this.profile.fixturesOf(CardAccount),
      ...(await this.store.read(CardAccount).findBy({ scenarioId: In(scenarioIds) })),
    ];
    const rows = cards.map((card) => [
      link(`/cockpit/card-accounts/${card.resourceId}`, card.resourceId),
      card.maskedPan,
      card.psuId,
      card.product,
      balancesOf(card),
    ]);
    return section('Card accounts', table(['card account', 'masked PAN', 'holder', 'product', 'balances'], rows), 'card-accounts');
  }

  async page(id: string, world: World): Promise<CockpitPage> {
    const card = await this.cards.find(id, world);
    if (!card) throw new ResourceUnknownError(id);
    const rows = await this.cards.transactionsOf(id, { statuses: ['booked', 'pending'] });
    const data = table(
      ['field', 'value'],
      [
        ['resourceId', card.resourceId],
        ['maskedPan', card.maskedPan],
        ['holder', card.psuId],
        ['name', card.name],
        ['product', card.product],
        ['creditLimit', card.creditLimit ?? 'none'],
        ['balances', balancesOf(card)],
      ],
    );
    const transactions = table(
      ['status', 'date', 'amount', 'details', 'card acceptor'],
      rows.map(({ bookingStatus, bookingDate, body }) => [
        status(bookingStatus),
        bookingDate ?? '',
        `${body.transactionAmount.amount} ${body.transactionAmount.currency}`,
        formValue(body.transactionDetails),
        formValue(body.cardAcceptorId),
      ]),
    );
    return {
      title: `Card account ${id}`,
      sections: [section('Data', data), section('Card transactions (newest first)', transactions, 'card-transactions')],
    };
  }
}
