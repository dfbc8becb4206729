import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsCurrency, IsDateOnly, IsSignedAmount, List, NestedObject } from '../common/validators';
import { FIELD_SERVICES } from '../core/offered-by';
import type { ScenarioPart } from '../core/sandbox-service';
import { optionalList } from '../http/validation.pipe';

/**
 * Card accounts' group: the fields of other features' requests it offers (a consent's maskedPan,
 * a scenario's cards) are read only where the bank shows card accounts (docs/card-accounts.md).
 */
export const CARD_ACCOUNTS = FIELD_SERVICES.cardAccounts;

/** A card payment on a scenario's card account (docs/card-accounts.md). */
export class ScenarioCardTransactionDto {
  @ApiProperty({ example: '-42.50', description: 'negative: a purchase; positive: a refund' })
  @IsSignedAmount()
  amount: string;

  @ApiProperty({ example: '2026-03-01', description: 'the day the card was used; a booked entry is booked on it too' })
  @IsDateOnly()
  transactionDate: string;

  @ApiProperty({ example: 'Restaurant Zum Goldenen Hirschen', maxLength: 1000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1000)
  transactionDetails: string;

  @ApiPropertyOptional({ example: 'AT-WIEN-0042', maxLength: 35 })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  cardAcceptorId?: string;
}

export class ScenarioCardBalancesDto {
  @ApiProperty({ example: '-412.30', description: 'what the card has spent and the bank booked' })
  @IsSignedAmount()
  interimBooked: string;
}

/** A credit card of the scenario's holder: its masked PAN is the sandbox's to choose, and its consent names it. */
export class ScenarioCardAccountDto {
  @ApiPropertyOptional({ example: 'Test Holder', maxLength: 70, description: "the card account's name; default: the first account's" })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(70)
  name?: string;

  @ApiPropertyOptional({ example: 'EUR', default: 'EUR' })
  @IsOptional()
  @IsCurrency()
  currency?: string;

  @ApiPropertyOptional({ example: 'Visa Classic', default: 'Credit card', maxLength: 35 })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  product?: string;

  @ApiPropertyOptional({ example: '3000.00' })
  @IsOptional()
  @IsSignedAmount()
  creditLimit?: string;

  @ApiProperty({ type: ScenarioCardBalancesDto })
  @IsDefined()
  @NestedObject(() => ScenarioCardBalancesDto)
  balances: ScenarioCardBalancesDto;

  @ApiPropertyOptional({ type: [ScenarioCardTransactionDto], maxItems: 1000 })
  @List(() => ScenarioCardTransactionDto)
  booked?: ScenarioCardTransactionDto[] | null;

  @ApiPropertyOptional({ type: [ScenarioCardTransactionDto], maxItems: 1000, description: 'authorised, not yet booked' })
  @List(() => ScenarioCardTransactionDto)
  pending?: ScenarioCardTransactionDto[] | null;
}

export class ScenarioCardAccountResponse {
  @ApiProperty({ format: 'uuid', description: 'its ID in the card account paths' })
  resourceId: string;

  @ApiProperty({ example: '412345xxxxxx6789' })
  maskedPan: string;

  @ApiProperty({ example: 'EUR' })
  currency: string;

  @ApiProperty({ example: 'Test Holder' })
  name: string;
}

/** A scenario's cards, and the answer's (the scenario's consent names them by maskedPan). */
export const SCENARIO_FIELD: Pick<ScenarioPart, 'field' | 'request' | 'answer'> = {
  field: 'cardAccounts',
  request: optionalList(ScenarioCardAccountDto, 10, "the holder's credit cards; the scenario's consent names them by maskedPan"),
  // Only where the scenario asked for cards.
  answer: [ApiPropertyOptional({ type: [ScenarioCardAccountResponse] })],
};
