import { Injectable } from '@nestjs/common';
import { ResourceUnknownError, refusal } from '../common/error-catalogue';
import { href } from '../common/links';
import type { Consent } from '../consent/consent.entity';
import type { AisRequest } from '../consent/consent.guard';
import { toAccountReferenceResponse } from '../consent/dto/consent-response.dto';
import { AccessLimitService } from './access-limit.service';
import { Account, Balance } from '../bank/account.entity';
import type { World } from '../world/world';
import { AccountStore } from '../bank/account-store';
import { consentedIbans, coverageOf } from '../consent/coverage';
import {
  AccountListResponse,
  AccountResponse,
  BalancesResponse,
  toAccountResponse,
  toBalanceResponse,
  DownloadResponse,
  TransactionDetailsResponse,
  TransactionsResponse,
} from './dto/account-response.dto';
import { TransactionsQueryDto } from './dto/account-query.dto';
import { askedStatuses, listOf, onePage, periodOf } from './transaction-pages';
import { camtMessageOf, camtOf, mt94xOf, type Report } from './transaction-reports';
import { ClockService } from '../clock/clock.service';
import { BankProfile } from '../profile/bank-profile';
import { addDays } from '../common/dates';
import { fromThousandths, toThousandths } from '../common/amount';
import type { TransactionBody } from '../bank/account.entity';

/**
 * Reads for a consent that ConsentGuard has already checked and found covering the account. Each
 * read is counted (AccessLimitService) once the request is known to be good, just before it answers.
 */
@Injectable()
export class AccountInformationService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly limits: AccessLimitService,
    private readonly clock: ClockService,
    private readonly profile: BankProfile,
  ) {}

  async list({ consent, psuIpAddress, world }: AisRequest, withBalance: boolean): Promise<AccountListResponse> {
    const ibans = consentedIbans(consent.access);
    const found = new Map((await this.accounts.find(ibans, world)).map((account) => [account.iban, account]));
    const listed = ibans.flatMap((iban) => found.get(iban) ?? []);
    await this.limits.spend(
      consent,
      listed.map(({ iban }) => iban),
      psuIpAddress,
    );
    return { accounts: listed.map((account) => toAccountResponse(account, grantedBalances(consent, account, withBalance))) };
  }

  async details({ consent, psuIpAddress, world }: AisRequest, iban: string, withBalance: boolean): Promise<AccountResponse> {
    const account = await this.findAccount(iban, world);
    await this.limits.spend(consent, [iban], psuIpAddress);
    return toAccountResponse(account, grantedBalances(consent, account, withBalance));
  }

  async balances({ consent, psuIpAddress, world }: AisRequest, iban: string): Promise<BalancesResponse> {
    const account = await this.findAccount(iban, world);
    await this.limits.spend(consent, [iban], psuIpAddress);
    return { account: null, balances: account.balances.map(toBalanceResponse) };
  }

  async transactionList(
    { consent, psuIpAddress, world }: AisRequest,
    iban: string,
    query: TransactionsQueryDto,
  ): Promise<TransactionsResponse> {
    const requested = askedStatuses(query);
    if (!(await this.accounts.exists(iban, world))) throw new ResourceUnknownError(iban);
    const rows = await this.accounts.transactionsOf(iban, periodOf(query, requested));
    const lists = {
      booked: listOf(rows, requested, 'booked'),
      pending: listOf(rows, requested, 'pending'),
      information: listOf(rows, requested, 'information'),
    };
    const page = onePage(lists, `/v1/accounts/${iban}/transactions`, query);
    // Counted once the request is known to be good (a page beyond the last is not).
    await this.limits.spend(consent, [iban], psuIpAddress);
    return {
      account: toAccountReferenceResponse({ iban, currency: null }),
      transactions: { ...page.lists, _links: { account: href(`/v1/accounts/${iban}`), ...page.links } },
      balances: null,
      _links: null,
    };
  }

  /**
   * The transaction list as a camt or MT94x report (docs/formats.md, "Transaction reports"): the
   * JSON list's page of entries, with the booked balance before and after them; a report of the
   * profile's download size or more is answered by its download link instead. Standing orders
   * (information) have no report format: 406.
   */
  async transactionReport(
    { consent, psuIpAddress, world }: AisRequest,
    iban: string,
    query: TransactionsQueryDto,
    format: ReportFormat,
    downloadFrom = this.profile.transactionReports.downloadFrom,
  ): Promise<{ report: string } | { download: DownloadResponse }> {
    if (query.bookingStatus === 'information')
      throw refusal(
        'requestedFormatsInvalid',
        `standing orders (bookingStatus=information) are listed in JSON only, not in ${format}`,
        'Accept',
      );
    const requested = askedStatuses(query);
    const account = await this.findAccount(iban, world);
    const rows = await this.accounts.transactionsOf(iban, periodOf(query, requested));
    const lists = { booked: listOf(rows, requested, 'booked'), pending: listOf(rows, requested, 'pending') };
    const page = onePage(lists, `/v1/accounts/${iban}/transactions`, query);
    const today = this.clock.today(world);
    // The booked balance at the period's end and after the page: today's, less what was booked after
    // the period and on the newer pages before this one (the list is newest first).
    const after = query.dateTo ? await this.accounts.transactionsOf(iban, { statuses: ['booked'], from: addDays(query.dateTo, 1) }) : [];
    const newer = (lists.booked ?? []).slice(0, (page.number - 1) * page.size);
    const booked = account.balances.find(({ balanceType }) => balanceType === 'interimAvailable')?.amount ?? '0.00';
    const closing = less(booked, [...after.map(({ body }) => body), ...newer]);
    const entries = [
      ...(page.lists.booked ?? []).map((body) => ({ status: 'booked' as const, body })),
      ...(page.lists.pending ?? []).map((body) => ({ status: 'pending' as const, body })),
    ];
    const report: Report = {
      iban,
      currency: account.currency,
      bic: account.bic,
      bookingStatus: query.bookingStatus,
      from: query.dateFrom ?? entries.map(({ body }) => body.bookingDate ?? today).sort()[0] ?? today,
      to: query.dateTo ?? today,
      createdAt: `${today}T${new Date().toISOString().slice(11, 19)}`,
      page: page.number,
      lastPage: page.last,
      entries,
      opening: less(closing, page.lists.booked ?? []),
      closing,
    };
    const text =
      format === 'application/xml' ? camtOf(report, camtMessageOf(report, this.profile.transactionReports.booked)) : mt94xOf(report);
    await this.limits.spend(consent, [iban], psuIpAddress);
    if (Buffer.byteLength(text) < downloadFrom) return { report: text };
    return {
      download: {
        account: toAccountReferenceResponse({ iban, currency: null }),
        _links: { download: href(`/v1/accounts/${iban}/transactions/download/${downloadIdOf(query, format)}`) },
      },
    };
  }

  /** Berlin Group's "Read transaction details": one entry of the list, as the list shows it. */
  async transactionDetails(
    { consent, psuIpAddress, world }: AisRequest,
    iban: string,
    transactionId: string,
  ): Promise<TransactionDetailsResponse> {
    if (!(await this.accounts.exists(iban, world))) throw new ResourceUnknownError(iban);
    const row = await this.accounts.transaction(iban, transactionId);
    if (!row) {
      throw refusal('transactionUnknown', `transaction ${transactionId} unknown on account ${iban}`);
    }
    await this.limits.spend(consent, [iban], psuIpAddress);
    return { transactionsDetails: { transactionDetails: row.body } };
  }

  private async findAccount(iban: string, world: World): Promise<Account> {
    const [account] = await this.accounts.find([iban], world);
    if (!account) throw new ResourceUnknownError(iban);
    return account;
  }
}

/** The media types a transaction list is answered in besides JSON (docs/formats.md). */
export type ReportFormat = 'application/xml' | 'text/plain';

/**
 * A report's download ID: its query and format, which the download reads again (the consent is
 * checked again there, and the report is written from the ledger as it is then).
 */
export const downloadIdOf = (
  query: Pick<TransactionsQueryDto, 'bookingStatus'> & Partial<TransactionsQueryDto>,
  format: ReportFormat,
): string => Buffer.from(JSON.stringify({ ...query, format })).toString('base64url');

/** The query and format a download ID holds; null where it holds none. */
export function downloadOf(downloadId: string): { query: Record<string, unknown>; format: ReportFormat } | null {
  try {
    const { format, ...query } = JSON.parse(Buffer.from(downloadId, 'base64url').toString('utf8')) as Record<string, unknown>;
    return format === 'application/xml' || format === 'text/plain' ? { query, format } : null;
  } catch {
    return null;
  }
}

/** `amount` less the amounts of the transactions. */
const less = (amount: string, bodies: TransactionBody[]): string =>
  fromThousandths(bodies.reduce((left, body) => left - toThousandths(body.transactionAmount.amount), toThousandths(amount)));

/** Balances go with an account only when asked for and granted by the consent (Berlin Group: "if granted"). */
function grantedBalances(consent: Consent, account: Account, withBalance: boolean): Balance[] | null {
  return withBalance && coverageOf(consent.access, account.iban, 'balances') === 'covered' ? account.balances : null;
}
