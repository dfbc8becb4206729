import { Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AccountQueryDto } from '../account-information/dto/account-query.dto';
import { AisRequest, ConsentedRequest, RequiresConsent } from '../consent/consent.guard';
import { Xs2aController } from '../http/controller.decorator';
import { CardAccountsService } from './card-accounts.service';
import {
  CardAccountDetailsResponse,
  CardAccountListResponse,
  CardBalancesResponse,
  CardTransactionsQueryDto,
  CardTransactionsResponse,
} from './dto/card-account.dto';

// Not `accountId`: ConsentGuard checks an account's coverage by its IBAN; a card's is checked by its service (docs/card-accounts.md).
const CARD_ACCOUNT_ID = { name: 'cardAccountId', description: 'resourceId of the card account', example: 'card-georg-visa' };

/** Berlin Group's card accounts, where the profile shows them (docs/card-accounts.md). */
@ApiTags('Account information')
@Xs2aController('card-accounts', 'PSP_AI')
export class CardAccountsController {
  constructor(private readonly cards: CardAccountsService) {}

  @Get()
  @RequiresConsent('details')
  @ApiOperation({ summary: 'List the card accounts of the consent (those it names by maskedPan, or all the holder chose)' })
  @ApiOkResponse({ type: CardAccountListResponse })
  list(@ConsentedRequest() ais: AisRequest, @Query() { withBalance }: AccountQueryDto): Promise<CardAccountListResponse> {
    return this.cards.list(ais, withBalance === 'true');
  }

  @Get(':cardAccountId')
  @RequiresConsent('details')
  @ApiOperation({ summary: 'Read one card account' })
  @ApiParam(CARD_ACCOUNT_ID)
  @ApiOkResponse({ type: CardAccountDetailsResponse })
  async details(
    @ConsentedRequest() ais: AisRequest,
    @Param('cardAccountId') id: string,
    @Query() { withBalance }: AccountQueryDto,
  ): Promise<CardAccountDetailsResponse> {
    return { cardAccount: await this.cards.details(ais, id, withBalance === 'true') };
  }

  @Get(':cardAccountId/balances')
  @RequiresConsent('balances')
  @ApiOperation({ summary: 'Read the balances of a card account' })
  @ApiParam(CARD_ACCOUNT_ID)
  @ApiOkResponse({ type: CardBalancesResponse })
  balances(@ConsentedRequest() ais: AisRequest, @Param('cardAccountId') id: string): Promise<CardBalancesResponse> {
    return this.cards.balances(ais, id);
  }

  @Get(':cardAccountId/transactions')
  @RequiresConsent('transactions')
  @ApiOperation({ summary: 'Read the card transactions of a card account: booked, pending or both' })
  @ApiParam(CARD_ACCOUNT_ID)
  @ApiOkResponse({ type: CardTransactionsResponse })
  transactions(
    @ConsentedRequest() ais: AisRequest,
    @Param('cardAccountId') id: string,
    @Query() query: CardTransactionsQueryDto,
  ): Promise<CardTransactionsResponse> {
    return this.cards.transactions(ais, id, query);
  }
}
