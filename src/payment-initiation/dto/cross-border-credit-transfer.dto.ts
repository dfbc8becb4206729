import { EXAMPLE } from '../../common/document-examples';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { AccountReferenceDto } from '../../common/account-reference.dto';
import { IsCountryCode, IsDateOnly, NestedObject } from '../../common/validators';
import {
  AccountField,
  AddressDto,
  AmountDto,
  CreditorAgentField,
  CreditorAgentNameField,
  CreditorNameField,
  EndToEndIdField,
  OptionalObject,
  RemittanceUnstructuredField,
} from './payment-parts.dto';

/** POST /v1/payments/cross-border-credit-transfers: the bank's flat creditor fields, and Berlin Group's address object. */
export class CrossBorderCreditTransferDto {
  @AccountField(EXAMPLE.creditorIban)
  debtorAccount: AccountReferenceDto;

  @AccountField('GB29NWBK60161331926819')
  creditorAccount: AccountReferenceDto;

  @CreditorAgentField('NWBKGB2LXXX')
  creditorAgent?: string;

  @ApiPropertyOptional({ example: '', description: 'may be empty' })
  @IsOptional()
  @Matches(/^[a-zA-Z0-9]{0,30}$/, { message: '$property must be up to 30 letters and digits' })
  creditorAccountBban?: string;

  @ApiPropertyOptional({ example: '', description: 'may be empty', maxLength: 35 })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  creditorAgentOtherId?: string;

  @ApiPropertyOptional({ example: 'GB', maxLength: 35 })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  creditorAgentIdType?: string;

  @CreditorAgentNameField('National Westminster Bank')
  creditorAgentName?: string;

  @CreditorNameField('Jane Doe Ltd')
  creditorName: string;

  @ApiPropertyOptional({ example: 'High Street', maxLength: 70 })
  @IsOptional()
  @IsString()
  @MaxLength(70)
  creditorAddressStreet?: string;

  @ApiPropertyOptional({ example: '1' })
  @IsOptional()
  @IsString()
  creditorAddressBuildingNumber?: string;

  @ApiPropertyOptional({ example: 'London' })
  @IsOptional()
  @IsString()
  creditorAddressCity?: string;

  @ApiPropertyOptional({ example: 'EC1A 1BB' })
  @IsOptional()
  @IsString()
  creditorAddressPostalCode?: string;

  @ApiPropertyOptional({ example: 'GB' })
  @IsOptional()
  @IsCountryCode()
  creditorAddressCountryCode?: string;

  /** Berlin Group's structured address, beside the bank's flat fields. */
  @OptionalObject(AddressDto)
  creditorAddress?: AddressDto;

  @ApiProperty({ type: AmountDto, example: { currency: 'GBP', amount: '250.00' }, description: 'any currency' })
  @IsDefined()
  @NestedObject(() => AmountDto)
  instructedAmount: AmountDto;

  @EndToEndIdField('E2E-XB-0001')
  endToEndIdentification?: string;

  @RemittanceUnstructuredField('Invoice 2026-17')
  remittanceInformationUnstructured?: string;

  @ApiPropertyOptional({ example: EXAMPLE.date(7) })
  @IsOptional()
  @IsDateOnly()
  requestedExecutionDate?: string;

  @ApiPropertyOptional({ enum: ['DEBT', 'CRED', 'SHAR', 'SLEV'], example: 'DEBT' })
  @IsOptional()
  @IsIn(['DEBT', 'CRED', 'SHAR', 'SLEV'])
  chargeBearer?: string;
}
