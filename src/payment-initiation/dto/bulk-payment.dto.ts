import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsDefined, IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { AccountReferenceDto } from '../../common/account-reference.dto';
import { AccountField, CreditorNameField, SepaAmountDto } from './payment-parts.dto';

export class BulkEntryDto {
  @ApiProperty({ type: SepaAmountDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => SepaAmountDto)
  instructedAmount: SepaAmountDto;

  @CreditorNameField()
  creditorName: string;

  @AccountField('AT439900000000010017')
  creditorAccount: AccountReferenceDto;

  @ApiPropertyOptional({ example: 'Invoice 17', maxLength: 140 })
  @IsOptional()
  @IsString()
  @MaxLength(140)
  remittanceInformationUnstructured?: string;
}

/** POST /v1/bulk-payments/sepa-credit-transfers. */
export class BulkPaymentDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], example: 'true', description: 'a boolean literal in a string, as the bank sends it' })
  @IsOptional()
  @IsIn(['true', 'false'])
  batchBookingPreferred?: 'true' | 'false';

  @AccountField('AT099900000000001511')
  debtorAccount: AccountReferenceDto;

  @ApiProperty({ type: [BulkEntryDto], minItems: 1 })
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => BulkEntryDto)
  payments: BulkEntryDto[];
}
