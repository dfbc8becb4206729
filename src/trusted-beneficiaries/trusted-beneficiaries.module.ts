import { Module } from '@nestjs/common';
import { BankModule } from '../bank/bank.module';
import { ConsentModule } from '../consent/consent.module';
import { DatabaseModule } from '../database/database.module';
import { OAuthModule } from '../oauth/oauth.module';
import { PaymentInitiationModule } from '../payment-initiation/payment-initiation.module';
import { TrustedBeneficiariesController } from './trusted-beneficiaries.controller';
import { TrustedBeneficiaries } from './trusted-beneficiaries.service';

/** GET /v1/trusted-beneficiaries, and the SCA exemption of payments to them where the profile grants it: where the profile lists them (src/services.ts). */
@Module({
  imports: [DatabaseModule, BankModule, OAuthModule, ConsentModule, PaymentInitiationModule],
  controllers: [TrustedBeneficiariesController],
  providers: [TrustedBeneficiaries],
})
export class TrustedBeneficiariesModule {}
