import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { AuthorisationService } from './authorisation.service';
import { AuthorisationPort } from './authorisation-port.service';

@Module({
  imports: [DatabaseModule],
  providers: [AuthorisationService, AuthorisationPort],
  exports: [AuthorisationService, AuthorisationPort],
})
export class AuthorisationModule {}
