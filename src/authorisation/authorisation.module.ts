import { Module } from '@nestjs/common';
import { BankModule } from '../bank/bank.module';
import { DatabaseModule } from '../database/database.module';
import { AuthorisationService } from './authorisation.service';
import { AuthorisationPort } from './authorisation-port.service';

@Module({
  imports: [DatabaseModule, BankModule],
  providers: [AuthorisationService, AuthorisationPort],
  exports: [AuthorisationService, AuthorisationPort],
})
export class AuthorisationModule {}
