import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsDateOnly } from '../../common/validators';

export class AccountQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'include the balances the consent grants' })
  @IsOptional()
  @IsIn(['true', 'false'])
  withBalance?: 'true' | 'false';
}

export const BOOKING_STATUSES = ['booked', 'pending', 'both', 'information'] as const;

export class TransactionsQueryDto {
  @ApiProperty({ enum: BOOKING_STATUSES, description: '`both` is booked and pending; `information` the standing orders' })
  @IsIn(BOOKING_STATUSES)
  bookingStatus: (typeof BOOKING_STATUSES)[number];

  @ApiPropertyOptional({ example: '2019-03-01', description: 'first booking date of booked and pending transactions' })
  @IsOptional()
  @IsDateOnly()
  dateFrom?: string;

  @ApiPropertyOptional({ example: '2019-03-31', description: 'last booking date of booked and pending transactions' })
  @IsOptional()
  @IsDateOnly()
  dateTo?: string;
}
