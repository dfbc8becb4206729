import { EXAMPLE } from '../common/document-examples';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import type { ScaDecision } from '../authorisation/authorisation.machine';

/** The holder's decision through the control API (docs/sca-flows.md), on whatever the SCA is of. */
export class ScaDecisionDto {
  @ApiProperty({ example: EXAMPLE.psuId, maxLength: 64, description: 'a test PSU (README, "Test PSUs")' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  psuId: string;

  @ApiProperty({ enum: ['approve', 'deny'], example: 'approve' })
  @IsIn(['approve', 'deny'])
  decision: ScaDecision;
}
