import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import { AuthorisationModule } from '../authorisation/authorisation.module';
import { ConsentModule } from '../consent/consent.module';
import { DatabaseModule } from '../database/database.module';
import { BankModule } from '../bank/bank.module';
import { OAuthModule } from '../oauth/oauth.module';
import { PaymentInitiationModule } from '../payment-initiation/payment-initiation.module';
import { PageCsrf, pageHeaders } from './page-security';
import { ScaPagesController } from './sca-pages.controller';
import { ScaPageRenderer } from './sca-page-renderer';
import { ScaService } from './sca.service';
import { AuthorisationFlow } from './authorisation-flow.service';
import { WorldTickets } from './world-tickets.service';

@Module({
  imports: [DatabaseModule, BankModule, OAuthModule, AuthorisationModule, ConsentModule, PaymentInitiationModule],
  controllers: [ScaPagesController],
  providers: [ScaService, AuthorisationFlow, PageCsrf, ScaPageRenderer, WorldTickets],
  exports: [ScaService, AuthorisationFlow, ScaPageRenderer, PageCsrf, WorldTickets],
})
export class ScaModule implements NestModule {
  /** The SCA pages' cookie and headers, mounted once for their path: by controller, Nest adds two layers per route that every request of the app walks past (docs/benchmark.md). */
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(cookieParser(), pageHeaders()).forRoutes({ path: 'sca/*path', method: RequestMethod.ALL });
  }
}
