import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { AuthorisationService } from './authorisation.service';

@Module({
  imports: [DatabaseModule],
  providers: [AuthorisationService],
  exports: [AuthorisationService],
})
export class AuthorisationModule {}
