import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { IsDateOnly } from '../../common/validators';

export class AccountQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'include the balances the consent grants' })
  @IsOptional()
  @IsIn(['true', 'false'])
  withBalance?: 'true' | 'false';
}

/** A page holds this many entries of each list unless the TPP asks for another size; a scenario's list holds at most 1,000. */
export const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

export const BOOKING_STATUSES = ['booked', 'pending', 'both', 'information'] as const;

export class TransactionsQueryDto {
  @ApiProperty({ enum: BOOKING_STATUSES, example: 'both', description: '`both` is booked and pending; `information` the standing orders' })
  @IsIn(BOOKING_STATUSES)
  bookingStatus: (typeof BOOKING_STATUSES)[number];

  @ApiPropertyOptional({ format: 'date', description: 'first booking date of booked and pending transactions' })
  @IsOptional()
  @IsDateOnly()
  dateFrom?: string;

  @ApiPropertyOptional({ format: 'date', description: 'last booking date of booked and pending transactions' })
  @IsOptional()
  @IsDateOnly()
  dateTo?: string;

  @ApiPropertyOptional({
    example: '1',
    description: 'which page of the lists, from 1 (default 1); `transactions._links` links the first, previous, next and last',
  })
  @IsOptional()
  @Matches(/^[1-9][0-9]{0,8}$/, { message: 'page must be a whole number from 1' })
  page?: string;

  @ApiPropertyOptional({
    example: '100',
    description: `entries of each list on a page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`,
  })
  @IsOptional()
  @Matches(/^([1-9][0-9]{0,2}|1000)$/, { message: `pageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
  pageSize?: string;
}
