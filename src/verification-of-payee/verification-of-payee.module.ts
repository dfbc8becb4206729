import { Module } from '@nestjs/common';
import { BankModule } from '../bank/bank.module';
import { DatabaseModule } from '../database/database.module';
import { OAuthModule } from '../oauth/oauth.module';
import { PayeeVerificationController } from './payee-verification.controller';
import { VerificationOfPayeeService } from './verification-of-payee.service';

@Module({
  imports: [DatabaseModule, BankModule, OAuthModule],
  controllers: [PayeeVerificationController],
  providers: [VerificationOfPayeeService],
  exports: [VerificationOfPayeeService],
})
export class VerificationOfPayeeModule {}
