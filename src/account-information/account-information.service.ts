import { Injectable } from '@nestjs/common';
import { DomainError, FormatError, ResourceUnknownError } from '../common/error-catalogue';
import { href } from '../common/links';
import type { Consent } from '../consent/consent.entity';
import type { AisRequest } from '../consent/consent.guard';
import { toAccountReferenceResponse } from '../consent/dto/consent-response.dto';
import { AccessLimitService } from './access-limit.service';
import { Account, Balance, BookingStatus, TransactionBody } from '../bank/account.entity';
import { AccountStore } from '../bank/account-store';
import { consentedIbans, coverageOf } from '../consent/coverage';
import {
  AccountListResponse,
  AccountResponse,
  BalancesResponse,
  toAccountResponse,
  toBalanceResponse,
  TransactionDetailsResponse,
  TransactionListLinks,
  TransactionsResponse,
} from './dto/account-response.dto';
import { DEFAULT_PAGE_SIZE, TransactionsQueryDto } from './dto/account-query.dto';

/**
 * Reads for a consent that ConsentGuard has already checked and found covering the account. Each
 * read is counted (AccessLimitService) once the request is known to be good, just before it answers.
 */
@Injectable()
export class AccountInformationService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly limits: AccessLimitService,
  ) {}

  async list({ consent, psuIpAddress }: AisRequest, withBalance: boolean): Promise<AccountListResponse> {
    const ibans = consentedIbans(consent.access);
    const found = new Map((await this.accounts.find(ibans)).map((account) => [account.iban, account]));
    const listed = ibans.flatMap((iban) => found.get(iban) ?? []);
    await this.limits.spend(consent, listed.map(({ iban }) => iban), psuIpAddress);
    return { accounts: listed.map((account) => toAccountResponse(account, grantedBalances(consent, account, withBalance))) };
  }

  async details({ consent, psuIpAddress }: AisRequest, iban: string, withBalance: boolean): Promise<AccountResponse> {
    const account = await this.findAccount(iban);
    await this.limits.spend(consent, [iban], psuIpAddress);
    return toAccountResponse(account, grantedBalances(consent, account, withBalance));
  }

  async balances({ consent, psuIpAddress }: AisRequest, iban: string): Promise<BalancesResponse> {
    const account = await this.findAccount(iban);
    await this.limits.spend(consent, [iban], psuIpAddress);
    return { account: null, balances: account.balances.map(toBalanceResponse) };
  }

  async transactionList({ consent, psuIpAddress }: AisRequest, iban: string, query: TransactionsQueryDto): Promise<TransactionsResponse> {
    const { bookingStatus, dateFrom, dateTo } = query;
    if (dateFrom && dateTo && dateFrom > dateTo) {
      throw new DomainError({ messageId: 'XS2A010E', path: 'dateFrom', description: `dateFrom ${dateFrom} is after dateTo ${dateTo}` });
    }
    const requested: BookingStatus[] = bookingStatus === 'both' ? ['booked', 'pending'] : [bookingStatus];
    const rows = await this.accounts.transactionsOf(iban, { statuses: requested, from: dateFrom, to: dateTo });
    // Rows prove the account exists; only an empty list needs the second query to tell 200 from 404.
    if (!rows.length && !(await this.accounts.exists(iban))) throw new ResourceUnknownError(iban);
    await this.limits.spend(consent, [iban], psuIpAddress);
    const listOf = (status: BookingStatus) => (requested.includes(status) ? rows.filter((row) => row.bookingStatus === status).map((row) => row.body) : null);
    const { lists, links } = onePage({ booked: listOf('booked'), pending: listOf('pending'), information: listOf('information') }, iban, query);
    return {
      account: toAccountReferenceResponse({ iban, currency: null }),
      transactions: { ...lists, _links: { account: href(`/v1/accounts/${iban}`), ...links } },
      balances: null,
      _links: null,
    };
  }

  /** Berlin Group's "Read transaction details": one entry of the list, as the list shows it. */
  async transactionDetails({ consent, psuIpAddress }: AisRequest, iban: string, transactionId: string): Promise<TransactionDetailsResponse> {
    const row = await this.accounts.transaction(iban, transactionId);
    if (!row) {
      if (!(await this.accounts.exists(iban))) throw new ResourceUnknownError(iban);
      throw new DomainError({ messageId: 'XS2A032E', description: `transaction ${transactionId} unknown on account ${iban}` });
    }
    await this.limits.spend(consent, [iban], psuIpAddress);
    return { transactionsDetails: { transactionDetails: row.body } };
  }

  private async findAccount(iban: string): Promise<Account> {
    const [account] = await this.accounts.find([iban]);
    if (!account) throw new ResourceUnknownError(iban);
    return account;
  }
}

type Lists = Record<'booked' | 'pending' | 'information', TransactionBody[] | null>;

/**
 * The page asked for: the same slice of each list, and links to the first, next, previous and
 * last page, each the request's own query with another page (docs/behaviour.md). Lists that fit
 * one page get no page links, and answer as they always did.
 */
function onePage(lists: Lists, iban: string, query: TransactionsQueryDto): { lists: Lists; links: Partial<TransactionListLinks> } {
  const size = Number(query.pageSize ?? DEFAULT_PAGE_SIZE);
  const page = Number(query.page ?? 1);
  const last = Math.max(1, ...Object.values(lists).map((list) => Math.ceil((list?.length ?? 0) / size)));
  if (page > last) throw new FormatError('page', `page ${page} is beyond the last page, ${last}`);
  const sliced = Object.fromEntries(Object.entries(lists).map(([status, list]) => [status, list && list.slice((page - 1) * size, page * size)])) as Lists;
  if (last === 1) return { lists: sliced, links: {} };
  const { bookingStatus, dateFrom, dateTo, pageSize } = query;
  const pageHref = (number: number) => {
    const asked = Object.entries({ bookingStatus, dateFrom, dateTo, pageSize }).filter((entry): entry is [string, string] => entry[1] !== undefined);
    return href(`/v1/accounts/${iban}/transactions?${new URLSearchParams([...asked, ['page', String(number)]])}`);
  };
  return {
    lists: sliced,
    // In the order of the yaml's _linksAccountReport.
    links: { first: pageHref(1), ...(page < last ? { next: pageHref(page + 1) } : {}), ...(page > 1 ? { previous: pageHref(page - 1) } : {}), last: pageHref(last) },
  };
}

/** Balances go with an account only when asked for and granted by the consent (Berlin Group: "if granted"). */
function grantedBalances(consent: Consent, account: Account, withBalance: boolean): Balance[] | null {
  return withBalance && coverageOf(consent.access, account.iban, 'balances') === 'covered' ? account.balances : null;
}
