import { Module } from '@nestjs/common';
import { BankModule } from '../bank/bank.module';
import { DatabaseModule } from '../database/database.module';
import { TrustedBeneficiaries } from './trusted-beneficiaries.service';

/** The payees each holder trusts: payment initiation asks it for exemptions in every profile (none where the profile grants none). */
@Module({
  imports: [DatabaseModule, BankModule],
  providers: [TrustedBeneficiaries],
  exports: [TrustedBeneficiaries],
})
export class TrustedBeneficiariesModule {}
