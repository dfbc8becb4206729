import { Injectable } from '@nestjs/common';
import { AccessLimitService } from '../account-information/access-limit.service';
import { askedStatuses, listOf, onePage, periodOf } from '../account-information/transaction-pages';
import { ResourceUnknownError } from '../common/error-catalogue';
import { assertCovered, type AisRequest } from '../consent/consent.guard';
import { AccountService, consentedMaskedPans, coverageOf } from '../consent/coverage';
import { toAccountReferenceResponse } from '../consent/dto/consent-response.dto';
import { href } from '../common/links';
import type { Consent } from '../consent/consent.entity';
import type { CardAccount } from './card-account.entity';
import { CardAccountStore } from './card-account-store';
import {
  CardAccountListResponse,
  CardAccountResponse,
  cardBalances,
  CardBalancesResponse,
  CardTransactionsQueryDto,
  CardTransactionsResponse,
  DEBIT_ACCOUNTING,
  toCardAccountResponse,
} from './dto/card-account.dto';

/**
 * Card account reads (docs/card-accounts.md) for a consent ConsentGuard found valid: a card
 * account is covered where the consent names its masked PAN (checked here, where the masked PAN
 * is known), and each read counts against frequencyPerDay as an account's does.
 */
@Injectable()
export class CardAccountsService {
  constructor(
    private readonly cards: CardAccountStore,
    private readonly limits: AccessLimitService,
  ) {}

  async list({ consent, psuIpAddress, world }: AisRequest, withBalance: boolean): Promise<CardAccountListResponse> {
    const maskedPans = consentedMaskedPans(consent.access);
    const found = new Map((await this.cards.withMaskedPans(maskedPans, world)).map((card) => [card.maskedPan, card]));
    const listed = maskedPans.flatMap((maskedPan) => found.get(maskedPan) ?? []);
    await this.limits.spend(
      consent,
      listed.map(({ maskedPan }) => maskedPan),
      psuIpAddress,
    );
    return { cardAccounts: listed.map((card) => toCardAccountResponse(card, withBalance && grantsBalances(consent, card))) };
  }

  async details(ais: AisRequest, resourceId: string, withBalance: boolean): Promise<CardAccountResponse> {
    const { consent, psuIpAddress } = ais;
    const card = await this.covered(ais, resourceId, 'details');
    await this.limits.spend(consent, [card.maskedPan], psuIpAddress);
    return toCardAccountResponse(card, withBalance && grantsBalances(consent, card));
  }

  async balances(ais: AisRequest, resourceId: string): Promise<CardBalancesResponse> {
    const { consent, psuIpAddress } = ais;
    const card = await this.covered(ais, resourceId, 'balances');
    await this.limits.spend(consent, [card.maskedPan], psuIpAddress);
    return { cardAccount: toAccountReferenceResponse(card), debitAccounting: DEBIT_ACCOUNTING, balances: cardBalances(card) };
  }

  async transactions(ais: AisRequest, resourceId: string, query: CardTransactionsQueryDto): Promise<CardTransactionsResponse> {
    const { consent, psuIpAddress } = ais;
    const asked = askedStatuses(query);
    const filter = periodOf(query, asked);
    const card = await this.covered(ais, resourceId, 'transactions');
    const rows = await this.cards.transactionsOf(resourceId, filter);
    const path = `/v1/card-accounts/${resourceId}`;
    const page = onePage({ booked: listOf(rows, asked, 'booked'), pending: listOf(rows, asked, 'pending') }, `${path}/transactions`, query);
    // Counted once the request is known to be good (a page beyond the last is not).
    await this.limits.spend(consent, [card.maskedPan], psuIpAddress);
    // A list not asked for is left out (Berlin Group: "booked" only where booked or both was asked).
    const lists = Object.fromEntries(Object.entries(page.lists).filter(([, list]) => list !== null));
    return {
      cardAccount: toAccountReferenceResponse(card),
      debitAccounting: DEBIT_ACCOUNTING,
      cardTransactions: { ...lists, _links: { cardAccount: href(path), ...page.links } },
    };
  }

  /** The card account, once the consent is known to cover `service` on it (404 or 401 otherwise, as for an account). */
  private async covered({ consent, world }: AisRequest, resourceId: string, service: AccountService): Promise<CardAccount> {
    const card = await this.cards.find(resourceId, world);
    if (!card) throw new ResourceUnknownError(resourceId);
    assertCovered(consent, card.maskedPan, service, resourceId);
    return card;
  }
}

/** Balances go with a card account only when asked for and granted by the consent, as with an account's. */
const grantsBalances = (consent: Consent, card: CardAccount): boolean =>
  coverageOf(consent.access, card.maskedPan, 'balances') === 'covered';
