import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { Amount, BalanceResponse, toBalanceResponse } from '../../account-information/dto/account-response.dto';
import { TransactionsQueryDto } from '../../account-information/dto/account-query.dto';
import { href, Href } from '../../common/links';
import { AccountReferenceResponse } from '../../consent/dto/consent-response.dto';
import type { CardAccount, CardTransactionBody } from '../card-account.entity';

const CARD = 'card-georg-visa';
const CARD_STATUSES = ['booked', 'pending', 'both'] as const;

/** The query of a card account's transaction list: Berlin Group's bookingStatusCard, and the period and pages of an account's. */
export class CardTransactionsQueryDto extends OmitType(TransactionsQueryDto, ['bookingStatus']) {
  @ApiProperty({ enum: CARD_STATUSES, example: 'both', description: '`both` is booked and pending' })
  @IsIn(CARD_STATUSES)
  bookingStatus: (typeof CARD_STATUSES)[number];
}

export class CardAccountLinks {
  @ApiProperty({ type: Href, example: { href: `/v1/card-accounts/${CARD}/balances` } })
  balances: Href;

  @ApiProperty({ type: Href, example: { href: `/v1/card-accounts/${CARD}/transactions` } })
  transactions: Href;
}

/** Berlin Group's cardAccountDetails. */
export class CardAccountResponse {
  @ApiProperty({ example: CARD, description: 'used as account-id in the card account paths' })
  resourceId: string;

  @ApiProperty({ example: '492950xxxxxx4711' })
  maskedPan: string;

  @ApiProperty({ example: 'EUR' })
  currency: string;

  @ApiProperty({ example: 'Georg Mustermann' })
  name: string;

  @ApiProperty({ example: 'Visa Classic' })
  product: string;

  @ApiProperty({ example: false, description: 'false: debits are quoted negative, in the balances and the transactions' })
  debitAccounting: boolean;

  @ApiProperty({ enum: ['enabled'], example: 'enabled' })
  status: 'enabled';

  @ApiProperty({ enum: ['PRIV'], example: 'PRIV' })
  usage: 'PRIV';

  @ApiPropertyOptional({ type: Amount, description: 'where the card has a credit limit' })
  creditLimit?: Amount;

  @ApiPropertyOptional({ type: [BalanceResponse], description: 'with withBalance=true and balances granted' })
  balances?: BalanceResponse[];

  @ApiProperty({ type: CardAccountLinks })
  _links: CardAccountLinks;
}

export class CardAccountListResponse {
  @ApiProperty({ type: [CardAccountResponse] })
  cardAccounts: CardAccountResponse[];
}

export class CardAccountDetailsResponse {
  @ApiProperty({ type: CardAccountResponse })
  cardAccount: CardAccountResponse;
}

export class CardBalancesResponse {
  @ApiProperty({ type: AccountReferenceResponse, description: 'the card account by its masked PAN' })
  cardAccount: AccountReferenceResponse;

  @ApiProperty({ example: false })
  debitAccounting: boolean;

  @ApiProperty({ type: [BalanceResponse] })
  balances: BalanceResponse[];
}

export class CardTransactionListLinks {
  @ApiProperty({ type: Href, example: { href: `/v1/card-accounts/${CARD}` } })
  cardAccount: Href;

  @ApiPropertyOptional({ type: Href, description: 'only when the lists take more than one page, as are the other three' })
  first?: Href;

  @ApiPropertyOptional({ type: Href, example: { href: `/v1/card-accounts/${CARD}/transactions?bookingStatus=booked&pageSize=2&page=2` } })
  next?: Href;

  @ApiPropertyOptional({ type: Href })
  previous?: Href;

  @ApiPropertyOptional({ type: Href })
  last?: Href;
}

/** Berlin Group's cardAccountReport: a list only where bookingStatus asked for it. */
export class CardTransactionLists {
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', required: ['cardTransactionId', 'transactionAmount'] },
    description: 'Berlin Group cardTransaction objects, newest first',
  })
  booked?: CardTransactionBody[];

  @ApiPropertyOptional({ type: 'array', items: { type: 'object', required: ['cardTransactionId', 'transactionAmount'] } })
  pending?: CardTransactionBody[];

  @ApiProperty({ type: CardTransactionListLinks })
  _links: CardTransactionListLinks;
}

export class CardTransactionsResponse {
  @ApiProperty({ type: AccountReferenceResponse, description: 'the card account by its masked PAN' })
  cardAccount: AccountReferenceResponse;

  @ApiProperty({ example: false })
  debitAccounting: boolean;

  @ApiProperty({ type: CardTransactionLists })
  cardTransactions: CardTransactionLists;
}

/** The bank quotes debits negative (Berlin Group debitAccounting false), as its fixture files write them. */
export const DEBIT_ACCOUNTING = false;

export function toCardAccountResponse(card: CardAccount, withBalances: boolean): CardAccountResponse {
  const path = `/v1/card-accounts/${card.resourceId}`;
  return {
    resourceId: card.resourceId,
    maskedPan: card.maskedPan,
    currency: card.currency,
    name: card.name,
    product: card.product,
    debitAccounting: DEBIT_ACCOUNTING,
    status: 'enabled',
    usage: 'PRIV',
    ...(card.creditLimit === null ? {} : { creditLimit: { currency: card.currency, amount: card.creditLimit } }),
    ...(withBalances ? { balances: cardBalances(card) } : {}),
    _links: { balances: href(`${path}/balances`), transactions: href(`${path}/transactions`) },
  };
}

export const cardBalances = ({ balances, currency }: CardAccount): BalanceResponse[] =>
  balances.map((balance) => toBalanceResponse({ ...balance, currency }));
