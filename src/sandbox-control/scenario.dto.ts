import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { onlyWhereOffered } from '../http/validation.pipe';
import { CARD_ACCOUNTS, TRUSTED_BENEFICIARIES } from '../profile/bank-profile';
import { IsCurrency, IsDateOnly, IsIban, IsSignedAmount, NestedObject, NestedObjects } from '../common/validators';
import { Schedule } from '../payment-initiation/dto/periodic-payment.dto';

export class ScenarioTransactionDto {
  @ApiProperty({ example: '-42.50', description: 'negative: money leaves the account' })
  @IsSignedAmount()
  amount: string;

  @ApiProperty({ example: '2026-03-01' })
  @IsDateOnly()
  bookingDate: string;

  @ApiProperty({ example: 'Stadtwerke Wien', maxLength: 70 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(70)
  counterpartyName: string;

  @ApiProperty({ example: 'AT483200000012345864' })
  @IsIban()
  counterpartyIban: string;

  @ApiPropertyOptional({ example: 'Electricity February', maxLength: 140 })
  @IsOptional()
  @IsString()
  @MaxLength(140)
  remittanceInformationUnstructured?: string;
}

export class ScenarioStandingOrderDto {
  @ApiProperty({ example: '-650.00' })
  @IsSignedAmount()
  amount: string;

  @ApiProperty({ example: 'Hausverwaltung Muster', maxLength: 70 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(70)
  counterpartyName: string;

  @ApiProperty({ example: 'AT131490022010010999' })
  @IsIban()
  counterpartyIban: string;

  @Schedule.startDate('2026-01-01')
  startDate: string;

  @Schedule.endDate('2027-12-31')
  endDate?: string;

  @Schedule.frequency()
  frequency: string;

  @Schedule.dayOfExecution()
  dayOfExecution?: string | null;

  @ApiPropertyOptional({ example: 'Rent', maxLength: 140 })
  @IsOptional()
  @IsString()
  @MaxLength(140)
  remittanceInformationUnstructured?: string;
}

export class ScenarioBalancesDto {
  @ApiProperty({ example: '1200.00', description: 'what the funds check of payments compares with' })
  @IsSignedAmount()
  interimAvailable: string;

  @ApiProperty({ example: '1100.00' })
  @IsSignedAmount()
  forwardAvailable: string;
}

/** An optional list of up to 1000 entries; applyDecorators registers in order, so the array check (reported first) goes last. */
const List = (type: () => new () => object) => applyDecorators(IsOptional(), ArrayMaxSize(1000), NestedObjects(type), IsArray());

export class ScenarioAccountDto {
  @ApiProperty({ example: 'Test Holder', maxLength: 70, description: 'the account holder name' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(70)
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'EUR', default: 'EUR' })
  @IsOptional()
  @IsCurrency()
  currency?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Giro', default: 'Giro', maxLength: 35 })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  product?: string | null;

  @ApiProperty({ type: ScenarioBalancesDto })
  @IsDefined()
  @NestedObject(() => ScenarioBalancesDto)
  balances: ScenarioBalancesDto;

  @ApiPropertyOptional({ type: [ScenarioTransactionDto], maxItems: 1000 })
  @List(() => ScenarioTransactionDto)
  booked?: ScenarioTransactionDto[] | null;

  @ApiPropertyOptional({ type: [ScenarioTransactionDto], maxItems: 1000, description: 'booked on bookingDate, no value date yet' })
  @List(() => ScenarioTransactionDto)
  pending?: ScenarioTransactionDto[] | null;

  @ApiPropertyOptional({ type: [ScenarioStandingOrderDto], maxItems: 1000 })
  @List(() => ScenarioStandingOrderDto)
  standingOrders?: ScenarioStandingOrderDto[] | null;
}

const WHERE_OFFERED = onlyWhereOffered(TRUSTED_BENEFICIARIES);

/** A payee the scenario's holder trusts for every account of theirs (docs/trusted-beneficiaries.md). */
export class ScenarioTrustedBeneficiaryDto {
  @ApiProperty({ example: 'AT439900000000010017' })
  @IsIban(WHERE_OFFERED)
  creditorIban: string;

  @ApiProperty({ example: 'Georg Mustermann', maxLength: 70 })
  @IsString(WHERE_OFFERED)
  @IsNotEmpty(WHERE_OFFERED)
  @MaxLength(70, WHERE_OFFERED)
  creditorName: string;

  @ApiPropertyOptional({ example: 'Landlord', maxLength: 70 })
  @IsOptional(WHERE_OFFERED)
  @IsString(WHERE_OFFERED)
  @MaxLength(70, WHERE_OFFERED)
  creditorAlias?: string;
}

/** A card payment on a scenario's card account (docs/card-accounts.md). */
export class ScenarioCardTransactionDto {
  @ApiProperty({ example: '-42.50', description: 'negative: a purchase; positive: a refund' })
  @IsSignedAmount()
  amount: string;

  @ApiProperty({ example: '2026-03-01', description: 'the day the card was used; a booked entry is booked on it too' })
  @IsDateOnly()
  transactionDate: string;

  @ApiProperty({ example: 'Restaurant Zum Goldenen Hirschen', maxLength: 1000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1000)
  transactionDetails: string;

  @ApiPropertyOptional({ example: 'AT-WIEN-0042', maxLength: 35 })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  cardAcceptorId?: string;
}

export class ScenarioCardBalancesDto {
  @ApiProperty({ example: '-412.30', description: 'what the card has spent and the bank booked' })
  @IsSignedAmount()
  interimBooked: string;
}

/** A credit card of the scenario's holder: its masked PAN is the sandbox's to choose, and its consent names it. */
export class ScenarioCardAccountDto {
  @ApiPropertyOptional({ example: 'Test Holder', maxLength: 70, description: "the card account's name; default: the first account's" })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(70)
  name?: string;

  @ApiPropertyOptional({ example: 'EUR', default: 'EUR' })
  @IsOptional()
  @IsCurrency()
  currency?: string;

  @ApiPropertyOptional({ example: 'Visa Classic', default: 'Credit card', maxLength: 35 })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  product?: string;

  @ApiPropertyOptional({ example: '3000.00' })
  @IsOptional()
  @IsSignedAmount()
  creditLimit?: string;

  @ApiProperty({ type: ScenarioCardBalancesDto })
  @IsDefined()
  @NestedObject(() => ScenarioCardBalancesDto)
  balances: ScenarioCardBalancesDto;

  @ApiPropertyOptional({ type: [ScenarioCardTransactionDto], maxItems: 1000 })
  @List(() => ScenarioCardTransactionDto)
  booked?: ScenarioCardTransactionDto[] | null;

  @ApiPropertyOptional({ type: [ScenarioCardTransactionDto], maxItems: 1000, description: 'authorised, not yet booked' })
  @List(() => ScenarioCardTransactionDto)
  pending?: ScenarioCardTransactionDto[] | null;
}

const WHERE_CARDS = onlyWhereOffered(CARD_ACCOUNTS);

export class CreateScenarioDto {
  @ApiProperty({ type: [ScenarioAccountDto], minItems: 1, maxItems: 20 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @NestedObjects(() => ScenarioAccountDto)
  accounts: ScenarioAccountDto[];

  // Left out of the served document where the bank does not list trusted beneficiaries (trusted-beneficiaries-document.ts).
  @ApiPropertyOptional({ type: [ScenarioTrustedBeneficiaryDto], maxItems: 100, description: "payees the holder trusts for all the scenario's accounts; its consent may then list them" })
  @IsOptional(WHERE_OFFERED)
  @IsArray(WHERE_OFFERED)
  @ArrayMaxSize(100, WHERE_OFFERED)
  @ValidateNested({ each: true, ...WHERE_OFFERED })
  @IsObject({ each: true, message: 'each item of $property must be an object', ...WHERE_OFFERED })
  @Type(() => ScenarioTrustedBeneficiaryDto)
  trustedBeneficiaries?: ScenarioTrustedBeneficiaryDto[];

  // Left out of the served document where the bank shows no card accounts (card-accounts-document.ts).
  @ApiPropertyOptional({ type: [ScenarioCardAccountDto], maxItems: 10, description: "the holder's credit cards; the scenario's consent names them by maskedPan" })
  @IsOptional(WHERE_CARDS)
  @IsArray(WHERE_CARDS)
  @ArrayMaxSize(10, WHERE_CARDS)
  @ValidateNested({ each: true, ...WHERE_CARDS })
  @IsObject({ each: true, message: 'each item of $property must be an object', ...WHERE_CARDS })
  @Type(() => ScenarioCardAccountDto)
  cardAccounts?: ScenarioCardAccountDto[];
}

export class ScenarioAccountResponse {
  @ApiProperty({ example: 'AT269900112345678901' })
  resourceId: string;

  @ApiProperty({ example: 'AT269900112345678901' })
  iban: string;

  @ApiProperty({ example: 'EUR' })
  currency: string;

  @ApiProperty({ example: 'Test Holder' })
  name: string;
}

export class ScenarioCardAccountResponse {
  @ApiProperty({ format: 'uuid', description: 'its ID in the card account paths' })
  resourceId: string;

  @ApiProperty({ example: '412345xxxxxx6789' })
  maskedPan: string;

  @ApiProperty({ example: 'EUR' })
  currency: string;

  @ApiProperty({ example: 'Test Holder' })
  name: string;
}

export class ScenarioResponse {
  @ApiProperty({ format: 'uuid' })
  scenarioId: string;

  @ApiProperty({ example: 'scenario-3f2a9c1e', description: 'logs in at the SCA pages and decides at /sandbox/sca' })
  psuId: string;

  @ApiProperty({ example: 'sandbox' })
  password: string;

  @ApiProperty({ format: 'uuid', description: 'a valid consent over exactly these accounts, like the fixture consents' })
  consentId: string;

  @ApiProperty({ type: [ScenarioAccountResponse] })
  accounts: ScenarioAccountResponse[];

  // Only where the scenario asked for cards (card-accounts-document.ts).
  @ApiPropertyOptional({ type: [ScenarioCardAccountResponse] })
  cardAccounts?: ScenarioCardAccountResponse[];
}
