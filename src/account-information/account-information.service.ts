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
  TransactionDetailsResponse,
  TransactionsResponse,
} from './dto/account-response.dto';
import { TransactionsQueryDto } from './dto/account-query.dto';
import { askedStatuses, listOf, onePage, periodOf } from './transaction-pages';

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

/** Balances go with an account only when asked for and granted by the consent (Berlin Group: "if granted"). */
function grantedBalances(consent: Consent, account: Account, withBalance: boolean): Balance[] | null {
  return withBalance && coverageOf(consent.access, account.iban, 'balances') === 'covered' ? account.balances : null;
}
