import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Balance } from '../account-information/account.entity';
import { AuthorisationModule } from '../authorisation/authorisation.module';
import { PaymentInitiationController } from './payment-initiation.controller';
import { PaymentInitiationService } from './payment-initiation.service';
import { Payment } from './payment.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Payment, Balance]), AuthorisationModule],
  controllers: [PaymentInitiationController],
  providers: [PaymentInitiationService],
  exports: [PaymentInitiationService],
})
export class PaymentInitiationModule {}
