import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Environment } from '../config/environment';

/** The only source of "today" for every date rule, so that SANDBOX_DATE moves all of them at once. */
@Injectable()
export class ClockService {
  constructor(private readonly config: ConfigService<Environment, true>) {}

  today(): string {
    return this.config.get('SANDBOX_DATE', { infer: true }) ?? new Date().toISOString().slice(0, 10);
  }
}
