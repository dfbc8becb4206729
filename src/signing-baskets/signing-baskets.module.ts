import { Module } from '@nestjs/common';
import { AuthorisationModule } from '../authorisation/authorisation.module';
import { BankModule } from '../bank/bank.module';
import { ConsentModule } from '../consent/consent.module';
import { DatabaseModule } from '../database/database.module';
import { PaymentInitiationModule } from '../payment-initiation/payment-initiation.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { SigningBasketService } from './signing-basket.service';

/** What a signing basket is and how one SCA authorises its members: the SCA module decides on baskets in every profile (none exist where none are offered). */
@Module({
  imports: [DatabaseModule, BankModule, AuthorisationModule, ConsentModule, PaymentInitiationModule, NotificationsModule],
  providers: [SigningBasketService],
  exports: [SigningBasketService],
})
export class SigningBasketsModule {}
