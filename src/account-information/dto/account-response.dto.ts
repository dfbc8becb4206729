import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { href, Href } from '../../common/links';
import { AccountReferenceResponse } from '../../consent/dto/consent-response.dto';
import type { Account, Balance, TransactionBody } from '../../bank/account.entity';

const MARIANNE = 'AT099900000000001511';

export class Amount {
  @ApiProperty({ example: 'EUR' })
  currency: string;

  @ApiProperty({ example: '1340.55' })
  amount: string;
}

export class BalanceResponse {
  @ApiProperty({ type: Amount })
  balanceAmount: Amount;

  @ApiProperty({ example: 'forwardAvailable', description: '`forwardAvailable` or `interimAvailable`' })
  balanceType: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  lastChangeDateTime: null;

  @ApiProperty({ example: '2019-03-07' })
  referenceDate: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  lastCommittedTransaction: null;
}

export class AccountLinks {
  @ApiProperty({ type: Href, example: { href: `/v1/accounts/${MARIANNE}/balances` } })
  balances: Href;

  @ApiProperty({ type: Href, example: { href: `/v1/accounts/${MARIANNE}/transactions` } })
  transactions: Href;
}

export class AccountResponse {
  @ApiProperty({ example: MARIANNE, description: 'the IBAN; used as account_id in paths' })
  resourceId: string;

  @ApiProperty({ example: MARIANNE })
  iban: string;

  @ApiProperty({ example: 'EUR' })
  currency: string;

  @ApiProperty({ example: 'Marianne Mustermann' })
  name: string;

  @ApiProperty({ example: 'Giro' })
  product: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  cashAccountType: null;

  @ApiProperty({ type: String, nullable: true, example: null })
  status: null;

  @ApiProperty({ type: String, nullable: true, example: null })
  linkedAccounts: null;

  @ApiProperty({ type: String, nullable: true, example: null })
  usage: null;

  @ApiProperty({ type: String, nullable: true, example: null })
  details: null;

  @ApiProperty({ example: 'TESTAT99' })
  bic: string;

  @ApiProperty({ type: [BalanceResponse], nullable: true, description: 'with withBalance=true and balances granted, else null' })
  balances: BalanceResponse[] | null;

  @ApiProperty({ type: AccountLinks })
  _links: AccountLinks;
}

export class AccountListResponse {
  @ApiProperty({ type: [AccountResponse] })
  accounts: AccountResponse[];
}

export class BalancesResponse {
  @ApiProperty({ type: Object, nullable: true, example: null })
  account: null;

  @ApiProperty({ type: [BalanceResponse] })
  balances: BalanceResponse[];
}

export class TransactionListLinks {
  @ApiProperty({ type: Href, example: { href: `/v1/accounts/${MARIANNE}` } })
  account: Href;

  @ApiPropertyOptional({ type: Href, description: 'only when the lists take more than one page, as are the other three' })
  first?: Href;

  @ApiPropertyOptional({ type: Href, example: { href: `/v1/accounts/${MARIANNE}/transactions?bookingStatus=booked&page=2` } })
  next?: Href;

  @ApiPropertyOptional({ type: Href })
  previous?: Href;

  @ApiPropertyOptional({ type: Href })
  last?: Href;
}

export class TransactionLists {
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    nullable: true,
    description: 'Berlin Group transaction objects; null when not requested',
  })
  booked: TransactionBody[] | null;

  @ApiProperty({ type: 'array', items: { type: 'object' }, nullable: true })
  pending: TransactionBody[] | null;

  @ApiProperty({ type: 'array', items: { type: 'object' }, nullable: true, description: 'standing orders' })
  information: TransactionBody[] | null;

  @ApiProperty({ type: TransactionListLinks })
  _links: TransactionListLinks;
}

export class TransactionsResponse {
  @ApiProperty({ type: AccountReferenceResponse })
  account: AccountReferenceResponse;

  @ApiProperty({ type: TransactionLists })
  transactions: TransactionLists;

  @ApiProperty({ type: Object, nullable: true, example: null })
  balances: null;

  @ApiProperty({ type: Object, nullable: true, example: null })
  _links: null;
}

export class DownloadLinks {
  @ApiProperty({
    type: Href,
    example: { href: '/v1/accounts/AT099900000000001511/transactions/download/eyJib29raW5nU3RhdHVzIjoiYm9va2VkIn0' },
  })
  download: Href;
}

/** A camt or MT94x report too large to inline (Berlin Group's _linksDownload; docs/formats.md): where to fetch it. */
export class DownloadResponse {
  @ApiProperty({ type: AccountReferenceResponse })
  account: AccountReferenceResponse;

  @ApiProperty({ type: DownloadLinks })
  _links: DownloadLinks;
}

export class TransactionDetails {
  @ApiProperty({
    type: 'object',
    description: 'the Berlin Group transaction object, as the transaction list shows it',
    additionalProperties: true,
  })
  transactionDetails: TransactionBody;
}

/** Berlin Group's transactionDetailsBody, under the key its yaml gives the 200 answer. */
export class TransactionDetailsResponse {
  @ApiProperty({ type: TransactionDetails })
  transactionsDetails: TransactionDetails;
}

export function toBalanceResponse({
  currency,
  amount,
  balanceType,
  referenceDate,
}: Pick<Balance, 'currency' | 'amount' | 'balanceType' | 'referenceDate'>): BalanceResponse {
  return { balanceAmount: { currency, amount }, balanceType, lastChangeDateTime: null, referenceDate, lastCommittedTransaction: null };
}

export function toAccountResponse(account: Account, balances: Balance[] | null): AccountResponse {
  const path = `/v1/accounts/${account.iban}`;
  return {
    resourceId: account.iban,
    iban: account.iban,
    currency: account.currency,
    name: account.name,
    product: account.product,
    cashAccountType: null,
    status: null,
    linkedAccounts: null,
    usage: null,
    details: null,
    bic: account.bic,
    balances: balances && balances.map(toBalanceResponse),
    _links: { balances: href(`${path}/balances`), transactions: href(`${path}/transactions`) },
  };
}
