import { Get, Param, Query, Res, ValidationPipe } from '@nestjs/common';
import type { Response } from 'express';
import { answerFormat, AnswersBeyondJson } from '../http/answer-format';
import { createValidationPipe } from '../http/validation.pipe';
import { refusal } from '../common/error-catalogue';
import { BankProfile } from '../profile/bank-profile';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { TppErrorResponse } from '../http/error-response.dto';
import { WrappedInBerlinGroup } from '../http/berlin-group-answers';
import { Xs2aController } from '../http/controller.decorator';
import { AisRequest, ConsentedRequest, RequiresConsent } from '../consent/consent.guard';
import { AccountInformationService, downloadIdOf, downloadOf, ReportFormat } from './account-information.service';
import { AccountQueryDto, TransactionsQueryDto } from './dto/account-query.dto';
import {
  AccountListResponse,
  AccountResponse,
  BalancesResponse,
  DownloadResponse,
  TransactionDetailsResponse,
  TransactionsResponse,
} from './dto/account-response.dto';

const ACCOUNT_ID = { name: 'accountId', description: 'resourceId of the account (its IBAN)', example: 'AT099900000000001511' };

/** A transaction list's answers beyond JSON, as the profile offers them (docs/formats.md; their content is documented by report-document.ts). */
const ReportFormats = (): MethodDecorator =>
  AnswersBeyondJson('an Accept of no format the bank offers for transaction reports (standing orders: JSON only)');

/** Paths answer with and without a trailing slash (Express routing is not strict). */
@ApiTags('Account information')
@ApiExtraModels(DownloadResponse)
@Xs2aController('accounts', 'PSP_AI')
export class AccountInformationController {
  constructor(
    private readonly accounts: AccountInformationService,
    private readonly profile: BankProfile,
  ) {
    this.validation = createValidationPipe(profile.requestGroups);
  }

  /** The global pipe's rules, for the query a download ID holds. */
  private readonly validation: ValidationPipe;

  @Get()
  @RequiresConsent('details')
  @ApiOperation({ summary: 'List the accounts of the consent' })
  @ApiOkResponse({ type: AccountListResponse })
  list(@ConsentedRequest() ais: AisRequest, @Query() { withBalance }: AccountQueryDto): Promise<AccountListResponse> {
    return this.accounts.list(ais, withBalance === 'true');
  }

  @Get(':accountId')
  @RequiresConsent('details')
  @ApiOperation({ summary: 'Read one account' })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: AccountResponse, description: 'the bare account object; in PROFILE=berlin-group inside {"account": …}' })
  @WrappedInBerlinGroup('account')
  details(
    @ConsentedRequest() ais: AisRequest,
    @Param('accountId') accountId: string,
    @Query() { withBalance }: AccountQueryDto,
  ): Promise<AccountResponse> {
    return this.accounts.details(ais, accountId, withBalance === 'true');
  }

  @Get(':accountId/balances')
  @RequiresConsent('balances')
  @ApiOperation({ summary: 'Read the balances of an account' })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: BalancesResponse })
  balances(@ConsentedRequest() ais: AisRequest, @Param('accountId') accountId: string): Promise<BalancesResponse> {
    return this.accounts.balances(ais, accountId);
  }

  @Get(':accountId/transactions')
  @RequiresConsent('transactions')
  @ApiOperation({ summary: 'Read the transactions of an account: booked, pending, both, or the standing orders (information)' })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: TransactionsResponse })
  @ReportFormats()
  async transactions(
    @ConsentedRequest() ais: AisRequest,
    @Param('accountId') accountId: string,
    @Query() query: TransactionsQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TransactionsResponse | DownloadResponse | string> {
    const format = answerFormat(response.req, this.profile.transactionReports.formats);
    if (format === 'application/json') return this.accounts.transactionList(ais, accountId, query);
    return this.report(ais, accountId, query, format, response);
  }

  @Get(':accountId/transactions/download/:downloadId')
  @RequiresConsent('transactions')
  @ApiOperation({ summary: 'Download a camt or MT94x transaction report too large to answer inline (the list answered its link)' })
  @ApiParam(ACCOUNT_ID)
  @ApiParam({
    name: 'downloadId',
    description: 'from the download link of the transaction list',
    example: downloadIdOf({ bookingStatus: 'booked' }, 'application/xml'),
  })
  @ApiOkResponse({ description: 'the report, in the format the list was asked for' })
  @ApiResponse({ status: 404, type: TppErrorResponse, description: 'RESOURCE_UNKNOWN: no such download' })
  @ReportFormats()
  async download(
    @ConsentedRequest() ais: AisRequest,
    @Param('accountId') accountId: string,
    @Param('downloadId') downloadId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const download = downloadOf(downloadId);
    if (download === null || !this.profile.transactionReports.formats.includes(download.format))
      throw refusal('downloadUnknown', `download ${downloadId} unknown`, 'downloadId');
    answerFormat(response.req, [download.format]);
    const query = (await this.validation.transform(download.query, {
      type: 'query',
      metatype: TransactionsQueryDto,
    })) as TransactionsQueryDto;
    const answer = await this.accounts.transactionReport(ais, accountId, query, download.format, Infinity);
    response.type(download.format);
    return (answer as { report: string }).report;
  }

  /** The list as a report, or where it is too large the link to download it. */
  private async report(
    ais: AisRequest,
    accountId: string,
    query: TransactionsQueryDto,
    format: ReportFormat,
    response: Response,
  ): Promise<DownloadResponse | string> {
    const answer = await this.accounts.transactionReport(ais, accountId, query, format);
    if ('download' in answer) return answer.download;
    response.type(format);
    return answer.report;
  }

  @Get(':accountId/transactions/:transactionId')
  @RequiresConsent('transactions')
  @ApiOperation({ summary: 'Read the details of one booked or pending transaction (Berlin Group "Read transaction details")' })
  @ApiParam(ACCOUNT_ID)
  @ApiParam({ name: 'transactionId', description: 'the transactionId of an entry of the transaction list', example: '1511-B01' })
  @ApiOkResponse({ type: TransactionDetailsResponse })
  @ApiResponse({
    status: 404,
    type: TppErrorResponse,
    description: 'RESOURCE_UNKNOWN: no such account in the consent, or no such transaction on it',
  })
  transactionDetails(
    @ConsentedRequest() ais: AisRequest,
    @Param('accountId') accountId: string,
    @Param('transactionId') transactionId: string,
  ): Promise<TransactionDetailsResponse> {
    return this.accounts.transactionDetails(ais, accountId, transactionId);
  }
}
