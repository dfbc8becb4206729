import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import { htmlPageHeaders } from '../http/page-headers';
import { CertificatesController } from './certificates.controller';
import { CockpitController } from './cockpit.controller';
import { COCKPIT_STYLE } from './cockpit-pages';
import { OAuthModule } from '../oauth/oauth.module';
import { ClockModule } from '../clock/clock.module';
import { ConsentModule } from '../consent/consent.module';
import { DatabaseModule } from '../database/database.module';
import { PaymentInitiationModule } from '../payment-initiation/payment-initiation.module';
import { ScaModule } from '../sca/sca.module';
import { SandboxControlController } from './sandbox-control.controller';
import { SandboxControlService } from './sandbox-control.service';
import { ScenarioService } from './scenario.service';
import { ConsentsCockpit } from './consents-cockpit';
import { PaymentsCockpit } from './payments-cockpit';
import { ScenariosCockpit } from './scenarios-cockpit';

@Module({
  imports: [DatabaseModule, ClockModule, OAuthModule, ScaModule, ConsentModule, PaymentInitiationModule],
  controllers: [SandboxControlController, CockpitController, CertificatesController],
  providers: [SandboxControlService, ScenarioService, PaymentsCockpit, ConsentsCockpit, ScenariosCockpit],
})
export class SandboxControlModule implements NestModule {
  /** The cockpit's pages: its own stylesheet only, no script; its sign-in cookie (AUTH_MODE=strict). Mounted once for its path, as the SCA pages' are (sca.module.ts). */
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(cookieParser(), htmlPageHeaders(COCKPIT_STYLE)).forRoutes({ path: 'cockpit{/*path}', method: RequestMethod.ALL });
  }
}
