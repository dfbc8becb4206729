import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account } from '../account-information/account.entity';
import { AuthorisationModule } from '../authorisation/authorisation.module';
import { ConsentController } from './consent.controller';
import { Consent } from './consent.entity';
import { ConsentGuard } from './consent.guard';
import { ConsentService } from './consent.service';

@Module({
  imports: [TypeOrmModule.forFeature([Consent, Account]), AuthorisationModule],
  controllers: [ConsentController],
  providers: [ConsentService, ConsentGuard],
  exports: [ConsentService, ConsentGuard],
})
export class ConsentModule {}
