import { ApiProperty } from '@nestjs/swagger';

export class TppMessageDto {
  @ApiProperty({ enum: ['ERROR'] })
  category: 'ERROR';

  @ApiProperty({ example: 'CONSENT_UNKNOWN' })
  code: string;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'the field, header or parameter at fault' })
  path: string | null;

  @ApiProperty({ example: '{sensitive} XS2A017E: consent ca2636e6-02f6-4c9d-ae29-051b23a61c11 unknown' })
  text: string;
}

export class TppErrorResponse {
  @ApiProperty({ type: [TppMessageDto] })
  tppMessages: TppMessageDto[];

  @ApiProperty({ type: Object, nullable: true, example: null })
  _links: null;
}
