import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsDateOnly } from '../common/validators';
import type { ScaDecision } from '../authorisation/authorisation.machine';

export class ScaDecisionDto {
  @ApiProperty({ example: 'georg.mustermann', description: 'a test PSU (README, "Test PSUs")' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  psuId: string;

  @ApiProperty({ enum: ['approve', 'deny'], example: 'approve' })
  @IsIn(['approve', 'deny'])
  decision: ScaDecision;
}

export class ClockDto {
  @ApiProperty({ example: '2026-12-24' })
  @IsDateOnly()
  today: string;
}

export class AdvanceClockDto {
  @ApiProperty({ example: 30, minimum: 1, maximum: 36500 })
  @IsInt()
  @Min(1)
  @Max(36500)
  days: number;
}
