import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import { ConsentModule } from '../consent/consent.module';
import { DatabaseModule } from '../database/database.module';
import { PaymentInitiationModule } from '../payment-initiation/payment-initiation.module';
import { PageCsrf, pageHeaders } from './page-security';
import { ScaPagesController } from './sca-pages.controller';
import { ScaService } from './sca.service';

@Module({
  imports: [DatabaseModule, ConsentModule, PaymentInitiationModule],
  controllers: [ScaPagesController],
  providers: [ScaService, PageCsrf],
  exports: [ScaService],
})
export class ScaModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(cookieParser(), pageHeaders()).forRoutes(ScaPagesController);
  }
}
