import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Balance } from '../account-information/account.entity';
import { PaymentInitiationController } from './payment-initiation.controller';
import { PaymentInitiationService } from './payment-initiation.service';
import { Payment } from './payment.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Payment, Balance])],
  controllers: [PaymentInitiationController],
  providers: [PaymentInitiationService],
})
export class PaymentInitiationModule {}
