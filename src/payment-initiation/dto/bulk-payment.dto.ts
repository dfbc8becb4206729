import { EXAMPLE } from '../../common/document-examples';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsOptional } from 'class-validator';
import { AccountReferenceDto } from '../../common/account-reference.dto';
import { IsDateOnly, IsDateTimeWithOffset, NestedObject, NestedObjects } from '../../common/validators';
import {
  AccountField,
  AddressDto,
  CreditorAgentField,
  CreditorAgentNameField,
  CreditorNameField,
  EndToEndIdField,
  OptionalObject,
  RemittanceUnstructuredField,
  SepaAmountDto,
} from './payment-parts.dto';

export class BulkEntryDto {
  @EndToEndIdField()
  endToEndIdentification?: string;

  @ApiProperty({ type: SepaAmountDto })
  @IsDefined()
  @NestedObject(() => SepaAmountDto)
  instructedAmount: SepaAmountDto;

  @CreditorNameField()
  creditorName: string;

  @AccountField(EXAMPLE.creditorIban)
  creditorAccount: AccountReferenceDto;

  @CreditorAgentField()
  creditorAgent?: string;

  @CreditorAgentNameField()
  creditorAgentName?: string;

  @OptionalObject(AddressDto)
  creditorAddress?: AddressDto;

  @RemittanceUnstructuredField()
  remittanceInformationUnstructured?: string;
}

const MAX_BULK_SIZE = 100;

/** POST /v1/bulk-payments/sepa-credit-transfers. */
export class BulkPaymentDto {
  // Both forms, echoed as sent: the bank's clients send a string, clients generated from the yaml a boolean.
  @ApiPropertyOptional({
    oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }],
    example: 'true',
    description: 'a boolean, or a boolean literal in a string as the bank sends it',
  })
  @IsOptional()
  @IsIn([true, false, 'true', 'false'], { message: '$property must be true or false, as a boolean or a string' })
  batchBookingPreferred?: boolean | 'true' | 'false';

  @AccountField(EXAMPLE.iban)
  debtorAccount: AccountReferenceDto;

  @ApiPropertyOptional({ example: EXAMPLE.date(7), description: 'not before today; a later date makes the bulk PDNG' })
  @IsOptional()
  @IsDateOnly()
  requestedExecutionDate?: string;

  @ApiPropertyOptional({ example: `${EXAMPLE.date(7)}T10:00:00+01:00` })
  @IsOptional()
  @IsDateTimeWithOffset()
  requestedExecutionTime?: string;

  /** The Berlin Group sets no maximum; 100 keeps any bulk well inside the 100 KiB body limit (docs/behaviour.md). */
  @ApiProperty({ type: [BulkEntryDto], minItems: 1, maxItems: MAX_BULK_SIZE })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_SIZE)
  @NestedObjects(() => BulkEntryDto)
  payments: BulkEntryDto[];
}
