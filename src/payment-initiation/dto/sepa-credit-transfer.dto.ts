import { EXAMPLE } from '../../common/document-examples';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional } from 'class-validator';
import { AccountReferenceDto } from '../../common/account-reference.dto';
import { IsDateOnly, IsDateTimeWithOffset, NestedObject } from '../../common/validators';
import {
  AccountField,
  AddressDto,
  CreditorAgentField,
  CreditorAgentNameField,
  CreditorNameField,
  EndToEndIdField,
  OptionalObject,
  RemittanceStructuredDto,
  RemittanceUnstructuredField,
  SepaAmountDto,
} from './payment-parts.dto';

/** POST /v1/payments/sepa-credit-transfers: the bank's fields and Berlin Group's, in the order GET echoes them. */
export class SepaCreditTransferDto {
  @EndToEndIdField()
  endToEndIdentification?: string;

  @AccountField(EXAMPLE.iban)
  debtorAccount: AccountReferenceDto;

  @ApiProperty({ type: SepaAmountDto })
  @IsDefined()
  @NestedObject(() => SepaAmountDto)
  instructedAmount: SepaAmountDto;

  @AccountField(EXAMPLE.creditorIban)
  creditorAccount: AccountReferenceDto;

  @CreditorAgentField()
  creditorAgent?: string;

  @CreditorAgentNameField()
  creditorAgentName?: string;

  @CreditorNameField()
  creditorName: string;

  @OptionalObject(AddressDto)
  creditorAddress?: AddressDto;

  @RemittanceUnstructuredField()
  remittanceInformationUnstructured?: string;

  @OptionalObject(RemittanceStructuredDto)
  remittanceInformationStructured?: RemittanceStructuredDto;

  @ApiPropertyOptional({ example: EXAMPLE.date(7), description: 'not before today; a later date makes the payment PDNG' })
  @IsOptional()
  @IsDateOnly()
  requestedExecutionDate?: string;
}

/** POST /v1/payments/instant-sepa-credit-transfers: the SEPA fields plus an execution time. */
export class InstantSepaCreditTransferDto extends SepaCreditTransferDto {
  @ApiPropertyOptional({ example: `${EXAMPLE.date(7)}T10:00:00+01:00` })
  @IsOptional()
  @IsDateTimeWithOffset()
  requestedExecutionTime?: string;
}
