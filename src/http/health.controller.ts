import { applyDecorators, Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { BankProfile } from '../profile/bank-profile';
import { TppErrorResponse } from './error-response.dto';
import { COMMON_ERRORS } from './controller.decorator';
import { Access } from './route-access';

class HealthProfile {
  @ApiProperty({ example: 'bank', description: 'PROFILE: a built-in name or a folder' })
  source: string;

  @ApiProperty({ example: 'PSD2 Sandbox Bank' })
  name: string;

  @ApiProperty({ enum: ['bank', 'berlin-group'] })
  answers: string;
}

class HealthResponse {
  @ApiProperty({ example: 'ok' })
  status: 'ok';

  @ApiProperty({ type: HealthProfile, description: 'the bank profile in force (docs/profiles.md)' })
  profile: HealthProfile;
}

@ApiTags('Health')
@Controller('health')
@Access({ role: null, audience: 'public' })
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly profile: BankProfile,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Answers 200 once the database is migrated and seeded (the server listens only then)' })
  @ApiOkResponse({ type: HealthResponse })
  @ApiResponse({ status: 500, type: TppErrorResponse, description: 'the database cannot be reached' })
  @applyDecorators(...COMMON_ERRORS)
  async check(): Promise<HealthResponse> {
    await this.dataSource.query('SELECT 1');
    const { source, name, answers } = this.profile;
    return { status: 'ok', profile: { source, name, answers } };
  }
}
