import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Between, FindOperator, In, LessThanOrEqual, MoreThanOrEqual, Repository } from 'typeorm';
import { DomainError, ResourceUnknownError } from '../common/error-catalogue';
import { href } from '../common/links';
import type { Consent } from '../consent/consent.entity';
import type { AisRequest } from '../consent/consent.guard';
import { toAccountReferenceResponse } from '../consent/dto/consent-response.dto';
import { AccessLimitService } from './access-limit.service';
import { Account, Balance, BookingStatus, Transaction } from './account.entity';
import { consentedIbans, coverageOf } from './coverage';
import { AccountListResponse, AccountResponse, BalancesResponse, toAccountResponse, toBalanceResponse, TransactionsResponse } from './dto/account-response.dto';
import { TransactionsQueryDto } from './dto/account-query.dto';

/**
 * Reads for a consent that ConsentGuard has already checked and found covering the account. Each
 * read is counted (AccessLimitService) once the request is known to be good, just before it answers.
 */
@Injectable()
export class AccountInformationService {
  constructor(
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    @InjectRepository(Transaction) private readonly transactions: Repository<Transaction>,
    private readonly limits: AccessLimitService,
  ) {}

  async list({ consent, psuIpAddress }: AisRequest, withBalance: boolean): Promise<AccountListResponse> {
    const ibans = consentedIbans(consent.access);
    const found = new Map((await this.findAccounts(ibans)).map((account) => [account.iban, account]));
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

  async transactionList({ consent, psuIpAddress }: AisRequest, iban: string, { bookingStatus, dateFrom, dateTo }: TransactionsQueryDto): Promise<TransactionsResponse> {
    if (dateFrom && dateTo && dateFrom > dateTo) {
      throw new DomainError({ messageId: 'XS2A010E', path: 'dateFrom', description: `dateFrom ${dateFrom} is after dateTo ${dateTo}` });
    }
    if (!(await this.accounts.existsBy({ iban }))) throw new ResourceUnknownError(iban);
    await this.limits.spend(consent, [iban], psuIpAddress);
    const requested: BookingStatus[] = bookingStatus === 'both' ? ['booked', 'pending'] : [bookingStatus];
    const bookingDate = bookingDateBetween(dateFrom, dateTo);
    const rows = await this.transactions.find({
      // Standing orders have no booking date: the period filters booked and pending only.
      where: requested.map((status) => ({
        accountIban: iban,
        bookingStatus: status,
        ...(bookingDate && status !== 'information' ? { bookingDate } : {}),
      })),
      order: { bookingDate: 'DESC', transactionId: 'ASC' },
    });
    const listOf = (status: BookingStatus) =>
      requested.includes(status) ? rows.filter((row) => row.bookingStatus === status).map((row) => row.body) : null;
    return {
      account: toAccountReferenceResponse({ iban, currency: null }),
      transactions: {
        booked: listOf('booked'),
        pending: listOf('pending'),
        information: listOf('information'),
        _links: { account: href(`/v1/accounts/${iban}`) },
      },
      balances: null,
      _links: null,
    };
  }

  private findAccounts(ibans: string[]): Promise<Account[]> {
    return this.accounts.find({ where: { iban: In(ibans) }, relations: { balances: true }, order: { balances: { balanceType: 'ASC' } } });
  }

  private async findAccount(iban: string): Promise<Account> {
    const [account] = await this.findAccounts([iban]);
    if (!account) throw new ResourceUnknownError(iban);
    return account;
  }
}

/** Balances go with an account only when asked for and granted by the consent (Berlin Group: "if granted"). */
function grantedBalances(consent: Consent, account: Account, withBalance: boolean): Balance[] | null {
  return withBalance && coverageOf(consent.access, account.iban, 'balances') === 'covered' ? account.balances : null;
}

function bookingDateBetween(from?: string, to?: string): FindOperator<string> | undefined {
  if (from && to) return Between(from, to);
  if (from) return MoreThanOrEqual(from);
  if (to) return LessThanOrEqual(to);
  return undefined;
}
