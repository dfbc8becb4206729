import { Global, Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { BankConditionsGuard, BankConditionsService } from './bank-conditions.service';

/** Global: every /v1 controller's guard needs it (Xs2aController), whichever feature declares it. */
@Global()
@Module({
  imports: [DatabaseModule],
  providers: [BankConditionsService, BankConditionsGuard],
  exports: [BankConditionsService, BankConditionsGuard],
})
export class ConditionsModule {}
