import { Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { TppErrorResponse } from '../http/error-response.dto';
import { WrappedInBerlinGroup } from '../http/berlin-group-answers';
import { Xs2aController } from '../http/controller.decorator';
import { AisRequest, ConsentedRequest, RequiresConsent } from '../consent/consent.guard';
import { AccountInformationService } from './account-information.service';
import { AccountQueryDto, TransactionsQueryDto } from './dto/account-query.dto';
import {
  AccountListResponse,
  AccountResponse,
  BalancesResponse,
  TransactionDetailsResponse,
  TransactionsResponse,
} from './dto/account-response.dto';

const ACCOUNT_ID = { name: 'accountId', description: 'resourceId of the account (its IBAN)', example: 'AT099900000000001511' };

/** Paths answer with and without a trailing slash (Express routing is not strict). */
@ApiTags('Account information')
@Xs2aController('accounts', 'PSP_AI')
export class AccountInformationController {
  constructor(private readonly accounts: AccountInformationService) {}

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
  transactions(
    @ConsentedRequest() ais: AisRequest,
    @Param('accountId') accountId: string,
    @Query() query: TransactionsQueryDto,
  ): Promise<TransactionsResponse> {
    return this.accounts.transactionList(ais, accountId, query);
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
