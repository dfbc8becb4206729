import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsCurrency, IsDateOnly, IsIban, IsSignedAmount, List, NestedObject, NestedObjects } from '../common/validators';
import { OfferedBy } from '../core/offered-by';
import type { SandboxService } from '../core/sandbox-service';
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

/** A test suite's scenario; each offered service's part is a further field (fillScenarioSlot). */
export class CreateScenarioDto {
  @ApiProperty({ type: [ScenarioAccountDto], minItems: 1, maxItems: 20 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @NestedObjects(() => ScenarioAccountDto)
  accounts: ScenarioAccountDto[];
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

/** The scenario's rows; each offered service's part that answers is a further field (fillScenarioSlot). */
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
}

const filled = new Set<string>();

/**
 * The control layer's slot for the services' parts of a scenario (SandboxService.scenario): each
 * fills its field of the request and of the answer, read and documented only where the bank offers
 * the service (OfferedBy). Filled once a process, however many apps start.
 */
export function fillScenarioSlot(services: readonly SandboxService[]): void {
  for (const { name, requestGroup, scenario } of services) {
    if (!scenario || filled.has(scenario.field)) continue;
    if (!requestGroup) throw new Error(`${name}: a scenario part is read in the service's requestGroup, and it has none`);
    filled.add(scenario.field);
    OfferedBy(requestGroup, scenario.request)(CreateScenarioDto.prototype, scenario.field);
    const { answer } = scenario;
    if (answer) OfferedBy(requestGroup, () => answer)(ScenarioResponse.prototype, scenario.field);
  }
}
