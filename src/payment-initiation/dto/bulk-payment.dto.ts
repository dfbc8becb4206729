import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { AccountReferenceDto } from '../../common/account-reference.dto';
import { NestedObject, NestedObjects } from '../../common/validators';
import { AccountField, CreditorNameField, SepaAmountDto } from './payment-parts.dto';

export class BulkEntryDto {
  @ApiProperty({ type: SepaAmountDto })
  @IsDefined()
  @NestedObject(() => SepaAmountDto)
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

const MAX_BULK_SIZE = 100;

/** POST /v1/bulk-payments/sepa-credit-transfers. */
export class BulkPaymentDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], example: 'true', description: 'a boolean literal in a string, as the bank sends it' })
  @IsOptional()
  @IsIn(['true', 'false'])
  batchBookingPreferred?: 'true' | 'false';

  @AccountField('AT099900000000001511')
  debtorAccount: AccountReferenceDto;

  /** The Berlin Group sets no maximum; 100 keeps any bulk well inside the 100 KiB body limit (README). */
  @ApiProperty({ type: [BulkEntryDto], minItems: 1, maxItems: MAX_BULK_SIZE })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_SIZE)
  @NestedObjects(() => BulkEntryDto)
  payments: BulkEntryDto[];
}
