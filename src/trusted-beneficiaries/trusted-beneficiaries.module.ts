import { Module } from '@nestjs/common';
import { BankModule } from '../bank/bank.module';
import { DatabaseModule } from '../database/database.module';
import { PaymentInitiationModule } from '../payment-initiation/payment-initiation.module';
import { TrustedBeneficiaries } from './trusted-beneficiaries.service';

/** The payees each holder trusts, and the SCA exemption of payments to them where the profile grants it. */
@Module({
  imports: [DatabaseModule, BankModule, PaymentInitiationModule],
  providers: [TrustedBeneficiaries],
  exports: [TrustedBeneficiaries],
})
export class TrustedBeneficiariesModule {}
