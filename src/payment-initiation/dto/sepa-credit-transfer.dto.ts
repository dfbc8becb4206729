import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { AccountReferenceDto } from '../../common/account-reference.dto';
import { IsBic, IsDateOnly, IsDateTimeWithOffset, NestedObject } from '../../common/validators';
import { AccountField, AddressDto, CreditorNameField, OptionalObject, RemittanceStructuredDto, SepaAmountDto } from './payment-parts.dto';

/** POST /v1/payments/sepa-credit-transfers. Fields in the order GET echoes them. */
export class SepaCreditTransferDto {
  @ApiPropertyOptional({ example: 'E2E-2026-0001', maxLength: 35 })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  endToEndIdentification?: string;

  @AccountField('AT099900000000001511')
  debtorAccount: AccountReferenceDto;

  @ApiProperty({ type: SepaAmountDto })
  @IsDefined()
  @NestedObject(() => SepaAmountDto)
  instructedAmount: SepaAmountDto;

  @AccountField('AT439900000000010017')
  creditorAccount: AccountReferenceDto;

  @ApiPropertyOptional({ example: 'TESTAT99', description: 'BIC of 8 or 11 characters' })
  @IsOptional()
  @IsBic()
  creditorAgent?: string;

  @CreditorNameField()
  creditorName: string;

  @OptionalObject(AddressDto)
  creditorAddress?: AddressDto;

  @OptionalObject(RemittanceStructuredDto)
  remittanceInformationStructured?: RemittanceStructuredDto;

  @ApiPropertyOptional({ example: '2026-12-01', description: 'not before today; a later date makes the payment PDNG' })
  @IsOptional()
  @IsDateOnly()
  requestedExecutionDate?: string;
}

/** POST /v1/payments/instant-sepa-credit-transfers: the SEPA fields plus an execution time. */
export class InstantSepaCreditTransferDto extends SepaCreditTransferDto {
  @ApiPropertyOptional({ example: '2026-12-01T10:00:00+01:00' })
  @IsOptional()
  @IsDateTimeWithOffset()
  requestedExecutionTime?: string;
}
