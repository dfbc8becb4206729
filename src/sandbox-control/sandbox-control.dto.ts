import { EXAMPLE } from '../common/document-examples';
import { Href } from '../common/links';
import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_DELAY_MS } from '../conditions/bank-conditions.service';
import { IsDateOnly } from '../common/validators';
import { AS_NEW, SNAPSHOT_NAME_LENGTH } from '../database/world-snapshot.entity';

export class ClockDto {
  @ApiProperty({ example: EXAMPLE.date(0) })
  @IsDateOnly()
  today: string;
}

export class WorldResetResponse {
  @ApiProperty({ example: EXAMPLE.date(0), description: "the world's date after the reset: SANDBOX_DATE, or the real date" })
  today: string;

  @ApiProperty({ example: 42, description: 'how many rows of the world were forgotten' })
  forgotten: number;
}

export class TakeSnapshotDto {
  @ApiProperty({
    example: 'before the payment tests',
    minLength: 1,
    maxLength: SNAPSHOT_NAME_LENGTH,
    description: 'what the snapshot is for, to know it by',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(SNAPSHOT_NAME_LENGTH)
  name: string;
}

export class SnapshotResponse {
  @ApiProperty({ example: AS_NEW.snapshotId, format: 'uuid' })
  snapshotId: string;

  @ApiProperty({ example: 'before the payment tests' })
  name: string;

  @ApiProperty({ example: AS_NEW.createdAt, format: 'date-time', description: 'when it was taken (real time)' })
  createdAt: string;

  @ApiProperty({ example: EXAMPLE.date(0), format: 'date', description: "the world's date when it was taken" })
  sandboxDate: string;

  @ApiProperty({ example: 12, description: 'the consents, payments, baskets, payee checks and scenarios it holds' })
  resources: number;
}

export class SnapshotListResponse {
  @ApiProperty({ type: [SnapshotResponse], description: 'oldest first; `as new`, which every world has, first of all' })
  snapshots: SnapshotResponse[];
}

export class RestoredSnapshotResponse extends SnapshotResponse {
  @ApiProperty({ example: EXAMPLE.date(0), format: 'date', description: "the world's date after the restore" })
  today: string;
}

export class AdvanceClockDto {
  @ApiProperty({ example: 30, minimum: 1, maximum: 36500 })
  @IsInt()
  @Min(1)
  @Max(36500)
  days: number;
}

export class FailedInstalmentResponse {
  @ApiProperty({ example: 2, description: 'the instalment, from 1 in the order of the schedule' })
  number: number;

  @ApiProperty({ example: '2026-04-04', description: 'the date the schedule names' })
  dueDate: string;

  @ApiProperty({ example: '2026-04-06', description: 'moved off a weekend by executionRule: the date it was due to run' })
  executionDate: string;

  @ApiProperty({
    enum: ['AM04', 'AM02', 'AC04'],
    description:
      'why it failed (ISO 20022): AM04 insufficient funds, AM02 it would take a balance beyond the ceiling, AC04 the debtor account no longer exists',
  })
  reasonCode: string;
}

export class InstalmentsResponse {
  @ApiProperty({ example: 3, description: 'instalments whose dates have come, executed or failed' })
  instalmentsRun: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-07-10',
    description: 'when the next one runs; null when none is to come (ended, cancelled, rejected)',
  })
  nextExecutionDate: string | null;

  @ApiProperty({ type: [FailedInstalmentResponse], description: 'the instalments that booked nothing, in order' })
  failed: FailedInstalmentResponse[];
}

export class BankConditionsDto {
  @ApiProperty({ example: false, description: 'true: every /v1 request answers 503 SERVICE_UNAVAILABLE until set back to false' })
  @IsBoolean()
  maintenance: boolean;

  @ApiProperty({
    example: 0,
    minimum: 0,
    maximum: MAX_DELAY_MS,
    description: "every /v1 answer comes this many milliseconds late (a request's X-Sandbox-Delay header overrides it)",
  })
  @IsInt()
  @Min(0)
  @Max(MAX_DELAY_MS)
  delayMs: number;
}

export class RevocationDto {
  @ApiProperty({ example: EXAMPLE.psuId, maxLength: 64, description: "the test PSU who holds the consent's accounts" })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  psuId: string;
}

export class RevocationLinks {
  @ApiProperty({
    type: Href,
    description:
      "the holder's revocation page of the consent, in the calling client's world (AUTH_MODE=strict: it carries a ticket, good for an hour)",
  })
  revocation: Href;
}

export class RevocationLinkResponse {
  @ApiProperty({ type: RevocationLinks })
  _links: RevocationLinks;
}
