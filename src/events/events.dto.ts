import { ApiProperty, ApiPropertyOptional, type OpenAPIObject } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { BankProfile } from '../profile/bank-profile';
import type { EventKind, SandboxEvent } from './sandbox-event.entity';

/** The kinds every bank records: of a resource, then the others; a service's kinds are of its resources. */
const RESOURCE_KINDS: EventKind[] = ['consent', 'payment'];
const OTHER_KINDS: EventKind[] = ['authorisation', 'instalment', 'booking', 'clock', 'notification'];
const CORE_KINDS = [...RESOURCE_KINDS, ...OTHER_KINDS];
export const MAX_EVENTS_PAGE = 500;
/** The last page a query may ask for: its offset, (page - 1) * pageSize, stays an integer both engines take (issue 63). */
export const MAX_EVENTS_PAGE_NUMBER = 1_000_000;

/** The kinds a bank records: the core's, and those of the services it offers (SandboxService.eventKinds). */
export const eventKinds = ({ services }: BankProfile): EventKind[] => [
  ...RESOURCE_KINDS,
  ...services.flatMap(({ eventKinds = [] }) => eventKinds),
  ...OTHER_KINDS,
];

/** The served document lists the kinds the bank records, in the query and in the answer. */
export function documentEventKinds(document: OpenAPIObject, profile: BankProfile): void {
  const kinds = eventKinds(profile);
  const query = (document.paths['/sandbox/events']?.get?.parameters as { name?: string; schema?: { enum?: string[] } }[] | undefined)?.find(
    ({ name }) => name === 'kind',
  );
  const answer = (document.components?.schemas?.EventResponse as { properties?: { kind?: { enum?: string[] } } } | undefined)?.properties
    ?.kind;
  for (const schema of [query?.schema, answer]) if (schema) schema.enum = kinds;
}

export class EventQueryDto {
  @ApiPropertyOptional({
    maxLength: 64,
    description: 'a consent, payment, authorisation or transaction ID: its events and those of what belongs to it',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  resourceId?: string;

  // The kinds of the bank in force: the controller checks them (eventKinds), the document lists them (documentEventKinds).
  @ApiPropertyOptional({ enum: CORE_KINDS })
  @IsOptional()
  @IsString()
  kind?: EventKind;

  @ApiPropertyOptional({ example: '2026-11-24T10:00:00Z', description: 'recorded at or after (real time, ISO 8601)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ example: '2026-11-24T11:00:00Z', description: 'recorded at or before (real time, ISO 8601)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({
    example: 1,
    minimum: 1,
    maximum: MAX_EVENTS_PAGE_NUMBER,
    description: `1 to ${MAX_EVENTS_PAGE_NUMBER} (default 1)`,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_EVENTS_PAGE_NUMBER)
  page?: number;

  @ApiPropertyOptional({ example: 50, description: `1 to ${MAX_EVENTS_PAGE} (default 50)` })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_EVENTS_PAGE)
  pageSize?: number;
}

export class EventResponse {
  @ApiProperty({ format: 'uuid', description: 'orders the events: newer ones have greater IDs' })
  id: string;

  @ApiProperty({ enum: CORE_KINDS })
  kind: EventKind;

  @ApiProperty({ example: '3d9a81b3-a47d-4130-8765-a9c0ff861b99' })
  resourceId: string;

  @ApiProperty({ type: String, nullable: true, description: 'the consent or payment an authorisation, instalment or booking belongs to' })
  parentId: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'RCVD',
    description: 'the status before (null for CREATED); for a booking, the account it is booked on',
  })
  from: string | null;

  @ApiProperty({ example: 'ACSP' })
  to: string;

  @ApiProperty({ example: 'SCA_COMPLETED', description: "the machine's event, or CREATED, BOOKED, INSTALMENT, MOVED" })
  event: string;

  @ApiProperty({ example: '99391c7e-ad88-49ec-a2ad-99ddcb1f7721', description: 'the X-Request-ID of the request that caused it, or clock' })
  cause: string;

  @ApiProperty({ type: String, nullable: true, example: 'georg.mustermann', description: 'the PSU who decided' })
  psuId: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'control',
    description: 'how the PSU decided: page, embedded, decoupled or control',
  })
  channel: string | null;

  @ApiProperty({ example: '2026-03-15' })
  sandboxDate: string;

  @ApiProperty({ example: '2026-11-24T10:15:30.123Z' })
  at: string;

  @ApiPropertyOptional({
    example: '5c3a9f0e1d2b4a6c8e0f1a2b3c4d5e6f',
    description:
      'the serial number of the certificate the causing request was signed with or came over TLS with; absent when none (docs/tpp-identity.md)',
  })
  certificate?: string;
}

export class EventPageResponse {
  @ApiProperty({ type: [EventResponse], description: 'newest first' })
  events: EventResponse[];

  @ApiProperty({ example: 1 })
  page: number;

  @ApiProperty({ example: 50 })
  pageSize: number;

  @ApiProperty({ example: 7, description: 'events that match, on every page' })
  total: number;
}

export const toEventResponse = ({
  id,
  kind,
  resourceId,
  parentId,
  fromStatus,
  toStatus,
  event,
  cause,
  psuId,
  channel,
  sandboxDate,
  at,
  certificate,
}: SandboxEvent): EventResponse => ({
  id,
  kind,
  resourceId,
  parentId,
  from: fromStatus,
  to: toStatus,
  event,
  cause,
  psuId,
  channel,
  sandboxDate,
  at,
  ...(certificate === null ? {} : { certificate }),
});
