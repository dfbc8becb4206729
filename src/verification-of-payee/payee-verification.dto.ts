import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { AccountReferenceDto } from '../common/account-reference.dto';
import { Href } from '../common/links';
import { IsBic, NestedObject, NestedObjects } from '../common/validators';
import type { IdMatch, NameMatch } from './name-match';
import type { PayeeCheck } from './payee-check.entity';

const NAME_MATCHES: NameMatch[] = ['MTCH', 'CMTC', 'NMTC', 'NOAP'];
const ID_MATCHES: IdMatch[] = ['MTCH', 'NMTC', 'NOAP'];
const BULK = '/v1/bulk-payee-verifications/1f3b8a52-6c1e-4a51-9a43-2f1de1a0c7b4';

export class GenericIdentificationDto {
  @ApiProperty({ example: 'DE129273398', maxLength: 35 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(35)
  identification: string;

  @ApiPropertyOptional({ example: 'TXID', maxLength: 35 })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  schemeNameCode?: string;
}

/** A person's identification: its generic IDs. */
export class PrivateIdentificationDto {
  @ApiPropertyOptional({ type: [GenericIdentificationDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @NestedObjects(() => GenericIdentificationDto)
  others?: GenericIdentificationDto[];
}

/** An organisation's: its generic IDs, an LEI, a BIC. */
export class OrganisationIdentificationDto extends PrivateIdentificationDto {
  @ApiPropertyOptional({ example: '529900T8BM49AURSDO55', description: 'Legal Entity Identifier' })
  @IsOptional()
  @Matches(/^[A-Z0-9]{18}[0-9]{2}$/, { message: '$property must be an LEI of 20 characters' })
  lei?: string;

  @ApiPropertyOptional({ example: 'ALPEATW1' })
  @IsOptional()
  @IsBic()
  anyBIC?: string;
}

export class PartyIdentificationDto {
  @ApiPropertyOptional({ type: OrganisationIdentificationDto, description: 'compared to the organisation ID registered for the account' })
  @IsOptional()
  @NestedObject(() => OrganisationIdentificationDto)
  organisationId?: OrganisationIdentificationDto;

  @ApiPropertyOptional({ type: PrivateIdentificationDto, description: "a person's ID: the sandbox registers none (NOAP)" })
  @IsOptional()
  @NestedObject(() => PrivateIdentificationDto)
  privateId?: PrivateIdentificationDto;
}

/** The party: its name and/or its identification; an empty party is 400. */
export class PartyDto {
  @ApiPropertyOptional({ example: 'Georg Mustermann', maxLength: 140, description: 'required unless identification is given' })
  // A party with neither a name nor an identification (null counts as none) is refused here, by its name.
  @ValidateIf((party: PartyDto) => party.identification == null || party.name !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(140)
  name?: string;

  @ApiPropertyOptional({ type: PartyIdentificationDto })
  @IsOptional()
  @NestedObject(() => PartyIdentificationDto)
  identification?: PartyIdentificationDto;
}

/** POST /v1/payee-verifications: the account and the party the TPP believes holds it. */
export class PayeeVerificationDto {
  @ApiProperty({ type: AccountReferenceDto })
  @IsDefined()
  @NestedObject(() => AccountReferenceDto)
  partyAccount: AccountReferenceDto;

  @ApiProperty({ type: PartyDto })
  @IsDefined()
  @NestedObject(() => PartyDto)
  party: PartyDto;
}

export class BulkPayeeVerificationEntryDto extends PayeeVerificationDto {
  @ApiProperty({ format: 'uuid', example: '5f0e0c5e-3b8e-4b44-a5a0-6a1f4c1a2b3c', description: 'identifies the entry in the answer' })
  @IsUUID()
  uetr: string;
}

/** POST /v1/bulk-payee-verifications. */
export class BulkPayeeVerificationDto {
  @ApiProperty({ type: [BulkPayeeVerificationEntryDto], minItems: 1, maxItems: 100 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @NestedObjects(() => BulkPayeeVerificationEntryDto)
  partyVerificationRequests: BulkPayeeVerificationEntryDto[];
}

export class PayeeVerificationResponse {
  @ApiPropertyOptional({ enum: NAME_MATCHES, example: 'CMTC', description: 'when a name was given' })
  partyNameMatch?: NameMatch;

  @ApiPropertyOptional({ enum: ID_MATCHES, example: 'MTCH', description: 'when an identification was given' })
  partyIdMatch?: IdMatch;

  @ApiPropertyOptional({ example: 'Georg Mustermann', maxLength: 140, description: 'CMTC only: the name registered for the account' })
  matchedName?: string;

  @ApiProperty({ example: 'The name is close to the one registered for the account (matchedName).', maxLength: 500 })
  additionalInformation: string;
}

export class BulkPayeeVerificationEntryResponse extends PayeeVerificationResponse {
  @ApiProperty({ format: 'uuid', example: '5f0e0c5e-3b8e-4b44-a5a0-6a1f4c1a2b3c' })
  uetr: string;

  @ApiProperty({ type: AccountReferenceDto })
  partyAccount: AccountReferenceDto;

  @ApiProperty({ type: PartyDto })
  party: PartyDto;
}

export class VopBulkLinks {
  @ApiProperty({ type: Href, example: { href: BULK } })
  self: Href;

  @ApiProperty({ type: Href, example: { href: `${BULK}/status` } })
  status: Href;
}

/**
 * The answer to a bulk check (docs/verification-of-payee.md), as the 1.3.16 yaml names it: 200 with
 * every entry's answer; 202 with the vopBulkId and the links, and no list until there is an answer
 * (the yaml's list, where present, has at least one item).
 */
export class BulkPayeeVerificationResponse {
  @ApiPropertyOptional({
    format: 'uuid',
    example: '1f3b8a52-6c1e-4a51-9a43-2f1de1a0c7b4',
    description: '202 only: where the answers are read',
  })
  vopBulkId?: string;

  @ApiProperty({
    enum: ['recieved', 'completed'],
    example: 'completed',
    description: "recieved (Berlin Group's spelling) in the 202 answer; completed at the next read",
  })
  vopBulkStatus: 'recieved' | 'completed';

  @ApiPropertyOptional({
    type: [BulkPayeeVerificationEntryResponse],
    minItems: 1,
    description: '200: every entry, in the order sent (none yet in the 202 answer)',
  })
  partyVerificationResponses?: BulkPayeeVerificationEntryResponse[];

  @ApiPropertyOptional({ type: VopBulkLinks, description: '202 only' })
  _links?: VopBulkLinks;
}

/** GET …/{vopBulkId}: the bulk with every entry as sent and its answer (the yaml's partyVerificationRequestsAndResults). */
export class BulkPayeeVerificationResultResponse {
  @ApiProperty({ format: 'uuid', example: '1f3b8a52-6c1e-4a51-9a43-2f1de1a0c7b4' })
  vopBulkId: string;

  @ApiProperty({ enum: ['completed'], example: 'completed' })
  vopBulkStatus: 'completed';

  @ApiProperty({ type: [BulkPayeeVerificationEntryResponse], minItems: 1, description: 'every entry, in the order sent, with its answer' })
  partyVerificationRequestsAndResults: BulkPayeeVerificationEntryResponse[];
}

export class VopBulkStatusResponse {
  @ApiProperty({ format: 'uuid', example: '1f3b8a52-6c1e-4a51-9a43-2f1de1a0c7b4' })
  vopBulkId: string;

  @ApiProperty({ enum: ['completed'], example: 'completed' })
  vopBulkStatus: 'completed';
}

const INFORMATION: Record<NameMatch, string> = {
  MTCH: 'The name matches the one registered for the account.',
  CMTC: 'The name is close to the one registered for the account (matchedName).',
  NMTC: 'The name does not match the one registered for the account.',
  NOAP: "The payee's bank could not be asked: the name could not be checked.",
};

const ID_INFORMATION: Record<IdMatch, string> = {
  MTCH: 'The identification matches the one registered for the account.',
  NMTC: 'The identification does not match the one registered for the account.',
  NOAP: 'The identification could not be checked: none is registered for the account, or its bank could not be asked.',
};

/** One check's answer: the codes asked for, the registered name of a close match, and a sentence for the payer. */
export function toVerificationResponse({ nameMatch, idMatch, matchedName }: PayeeCheck): PayeeVerificationResponse {
  return {
    ...(nameMatch === null ? {} : { partyNameMatch: nameMatch }),
    ...(idMatch === null ? {} : { partyIdMatch: idMatch }),
    ...(matchedName === null ? {} : { matchedName }),
    additionalInformation: nameMatch === null ? ID_INFORMATION[idMatch!] : INFORMATION[nameMatch],
  };
}

/** A bulk's entries: each as sent, with its answer. */
export function toBulkEntries(checks: PayeeCheck[]): BulkPayeeVerificationEntryResponse[] {
  return checks.map((check) => {
    const { uetr, partyAccount, party } = check.request;
    return { uetr: uetr!, partyAccount, party, ...toVerificationResponse(check) };
  });
}
