import { EXAMPLE } from '../../common/document-examples';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsDefined, IsIn, IsOptional } from 'class-validator';
import { AccountReferenceDto } from '../../common/account-reference.dto';
import { IsDateOnly, NestedObject } from '../../common/validators';
import {
  AccountField,
  AddressDto,
  CreditorAgentField,
  CreditorNameField,
  EndToEndIdField,
  OptionalObject,
  RemittanceStructuredDto,
  RemittanceUnstructuredField,
  SepaAmountDto,
} from './payment-parts.dto';

const FREQUENCIES = [
  'Daily',
  'Weekly',
  'EveryTwoWeeks',
  'Monthly',
  'EveryTwoMonths',
  'Quarterly',
  'SemiAnnual',
  'Annual',
  'MonthlyVariable',
];
const DAYS_OF_MONTH = Array.from({ length: 31 }, (_, day) => String(day + 1));
const MONTHS = DAYS_OF_MONTH.slice(0, 12);
const EXECUTION_RULES = ['following', 'preceding'];

/** The schedule fields, checked and documented alike in a periodic payment and in a scenario's standing order. */
export const Schedule = {
  startDate: (example: string, description?: string): PropertyDecorator =>
    applyDecorators(ApiProperty({ example, description }), IsDateOnly()),
  endDate: (example: string, description?: string): PropertyDecorator =>
    applyDecorators(ApiPropertyOptional({ example, description }), IsOptional(), IsDateOnly()),
  frequency: (): PropertyDecorator => applyDecorators(ApiProperty({ enum: FREQUENCIES, example: 'Monthly' }), IsIn(FREQUENCIES)),
  dayOfExecution: (): PropertyDecorator =>
    applyDecorators(
      ApiPropertyOptional({ type: String, nullable: true, enum: DAYS_OF_MONTH, example: '1' }),
      IsOptional(),
      IsIn(DAYS_OF_MONTH),
    ),
};

/** POST /v1/periodic-payments/sepa-credit-transfers: one instalment per `frequency` from startDate; the bank's fields and Berlin Group's. */
export class PeriodicPaymentDto {
  @EndToEndIdField('E2E-RENT-2026')
  endToEndIdentification?: string;

  @AccountField(EXAMPLE.iban)
  debtorAccount: AccountReferenceDto;

  @ApiPropertyOptional({ type: String, nullable: true, example: null })
  @IsOptional()
  @IsDateOnly()
  requestedExecutionDate?: string | null;

  @AccountField(EXAMPLE.creditorIban)
  creditorAccount: AccountReferenceDto;

  @CreditorAgentField()
  creditorAgent?: string;

  @CreditorNameField()
  creditorName: string;

  @OptionalObject(AddressDto)
  creditorAddress?: AddressDto;

  @ApiProperty({ type: SepaAmountDto, description: 'one instalment' })
  @IsDefined()
  @NestedObject(() => SepaAmountDto)
  instructedAmount: SepaAmountDto;

  /** The bank's name for endToEndIdentification. */
  @EndToEndIdField('E2E-RENT-2026')
  e2eIdentification?: string;

  @RemittanceUnstructuredField('Rent')
  remittanceInformationUnstructured?: string;

  @OptionalObject(RemittanceStructuredDto)
  remittanceInformationStructured?: RemittanceStructuredDto;

  @Schedule.startDate(EXAMPLE.date(0), 'first execution; not before today; a later date makes the payment PDNG')
  startDate: string;

  @Schedule.endDate(EXAMPLE.date(365), 'not before startDate')
  endDate?: string;

  @ApiPropertyOptional({ enum: EXECUTION_RULES, description: 'a date on a weekend moves to the following or preceding working day' })
  @IsOptional()
  @IsIn(EXECUTION_RULES)
  executionRule?: string;

  @Schedule.frequency()
  frequency: string;

  @Schedule.dayOfExecution()
  dayOfExecution?: string | null;

  @ApiPropertyOptional({
    type: [String],
    enum: MONTHS,
    maxItems: 11,
    description: 'with frequency MonthlyVariable: the months of execution',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(11)
  @ArrayUnique()
  @IsIn(MONTHS, { each: true })
  monthsOfExecution?: string[];
}
