import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account, Psu } from '../account-information/account.entity';
import { ConsentModule } from '../consent/consent.module';
import { PaymentInitiationModule } from '../payment-initiation/payment-initiation.module';
import { ScaPagesController } from './sca-pages.controller';
import { ScaService } from './sca.service';

@Module({
  imports: [TypeOrmModule.forFeature([Psu, Account]), ConsentModule, PaymentInitiationModule],
  controllers: [ScaPagesController],
  providers: [ScaService],
  exports: [ScaService],
})
export class ScaModule {}
