import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { AccountReferenceDto } from '../../common/account-reference.dto';
import { IsAmount, IsBic, IsCountryCode, IsCurrency, NestedObject } from '../../common/validators';

export class AmountDto {
  @ApiProperty({ example: 'EUR' })
  @IsCurrency()
  currency: string;

  @ApiProperty({ example: '123.50', description: 'positive decimal string, up to 3 decimals' })
  @IsAmount()
  amount: string;
}

/** SEPA products move euros only (docs/behaviour.md, "Payments"). */
export class SepaAmountDto extends AmountDto {
  @ApiProperty({ enum: ['EUR'], example: 'EUR' })
  @IsIn(['EUR'], { message: '$property must be EUR for a SEPA payment' })
  declare currency: string;
}

/** Berlin Group address: only the country is mandatory; other keys (street, city…) are ignored. */
export class AddressDto {
  @ApiPropertyOptional({ example: 'Karlsplatz', maxLength: 70 })
  @IsOptional()
  @IsString()
  @MaxLength(70)
  streetName?: string;

  @ApiPropertyOptional({ example: '13' })
  @IsOptional()
  @IsString()
  buildingNumber?: string;

  @ApiPropertyOptional({ example: 'Wien' })
  @IsOptional()
  @IsString()
  townName?: string;

  @ApiPropertyOptional({ example: '1040' })
  @IsOptional()
  @IsString()
  postCode?: string;

  @ApiProperty({ example: 'AT' })
  @IsCountryCode()
  country: string;
}

export class RemittanceStructuredDto {
  @ApiProperty({ example: 'RF18539007547034', maxLength: 35 })
  @IsString()
  @MaxLength(35)
  reference: string;

  @ApiPropertyOptional({ example: 'SCOR', maxLength: 35 })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  referenceType?: string;

  @ApiPropertyOptional({ example: 'ISO', maxLength: 35 })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  referenceIssuer?: string;
}

// Composite field decorators for the fields every product repeats. applyDecorators registers
// in list order, so the type check goes last: its message is the one reported (validation.pipe.ts).

/** A mandatory account reference `{iban, currency?}`. */
export const AccountField = (iban: string): PropertyDecorator =>
  applyDecorators(
    ApiProperty({ type: AccountReferenceDto, example: { iban } }),
    NestedObject(() => AccountReferenceDto),
    IsDefined(),
  );

/** An optional nested object of the given class, validated as such. */
export const OptionalObject = (type: new () => object): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type }),
    NestedObject(() => type),
    IsOptional(),
  );

/** The mandatory creditor name, at most 70 characters (Berlin Group). */
export const CreditorNameField = (example = 'Georg Mustermann'): PropertyDecorator =>
  applyDecorators(ApiProperty({ example, maxLength: 70 }), MaxLength(70), IsNotEmpty(), IsString());

/** An optional text of at most `maxLength` characters. */
const OptionalText = (maxLength: number, example: string, description?: string): PropertyDecorator =>
  applyDecorators(ApiPropertyOptional({ example, maxLength, description }), IsOptional(), MaxLength(maxLength), IsString());

/** Berlin Group's endToEndIdentification: at most 35 characters. */
export const EndToEndIdField = (example = 'E2E-2026-0001'): PropertyDecorator => OptionalText(35, example);

/** Berlin Group's remittanceInformationUnstructured: at most 140 characters, may be empty. */
export const RemittanceUnstructuredField = (example = 'Invoice 17'): PropertyDecorator => OptionalText(140, example, 'may be empty');

/** Berlin Group's creditorAgentName: at most 140 characters. */
export const CreditorAgentNameField = (example = 'Test Bank'): PropertyDecorator => OptionalText(140, example);

/** The creditor's bank: a BIC of 8 or 11 characters. */
export const CreditorAgentField = (example = 'TESTAT99'): PropertyDecorator =>
  applyDecorators(ApiPropertyOptional({ example, description: 'BIC of 8 or 11 characters' }), IsOptional(), IsBic());
