import { DynamicModule, Module } from '@nestjs/common';
import { checkQwacSource } from './tpp-identity/presented-certificates';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { AccountInformationModule } from './account-information/account-information.module';
import { OAuthModule } from './oauth/oauth.module';
import { BerlinGroupExceptionFilter } from './http/berlin-group-exception.filter';
import { VOP_MESSAGE_LIST } from './verification-of-payee/vop-message-list';
import { BerlinGroupAnswers } from './http/berlin-group-answers';
import { ClockModule } from './clock/clock.module';
import { ConditionsModule } from './conditions/conditions.module';
import { EventsModule } from './events/events.module';
import { GracefulStop } from './http/graceful-stop';
import { RouteAccessCheck } from './http/route-access';
import { RequestLoggingModule } from './http/request-logging';
import { RequestLogModule } from './http/request-log';
import { createValidationPipe } from './http/validation.pipe';
import { validateEnvironment } from './config/environment';
import { loadProfile } from './profile/load-profile';
import { BankProfile } from './profile/bank-profile';
import { ProfileModule } from './profile/profile.module';
import { ConsentModule } from './consent/consent.module';
import { connectDatabase, DatabaseModule } from './database/database.module';
import { PaymentInitiationModule } from './payment-initiation/payment-initiation.module';
import { SandboxControlModule } from './sandbox-control/sandbox-control.module';
import { fillScenarioSlot } from './sandbox-control/scenario.dto';
import { registerMessages } from './common/error-catalogue';
import { ScaModule } from './sca/sca.module';
import { AuthorisationRoutesModule } from './authorisation/authorisation-routes.module';
import { VerificationOfPayeeModule } from './verification-of-payee/verification-of-payee.module';
import { TppIdentityModule } from './tpp-identity/tpp-identity.module';
import { MutualTlsListener } from './tpp-identity/mutual-tls-listener';
import { SERVICES } from './services';
import { ServicePortsRegistration } from './service-ports';
import { AuthorisationModule } from './authorisation/authorisation.module';
import { NotificationsModule } from './notifications/notifications.module';
import { dataSourceOptions, openDataSource } from './database/data-source';
import { schemaOf } from './schema/schema';
import { seeding } from './schema/seed-fixtures';
import { HealthController } from './http/health.controller';

@Module({})
export class AppModule {
  /**
   * Reads the environment when called, so that each test can start an app on its own settings. A
   * bad setting throws here, before Nest starts, so that the process ends with its message
   * (main.ts); which modules exist is then decided from the validated settings. So does a bad
   * profile, with a line per problem (docs/profiles.md).
   */
  static forRoot(): DynamicModule {
    const environment = validateEnvironment(process.env);
    const profile = loadProfile(environment.PROFILE, SERVICES);
    checkQwacSource(profile.tpp, environment);
    // Every registered service's messages and scenario field, offered or not: where not, its group leaves the field unread.
    for (const { messages = {} } of SERVICES) registerMessages(messages);
    fillScenarioSlot(SERVICES);
    return {
      module: AppModule,
      imports: [
        // skipProcessEnv: settings are the validated snapshot taken here, never re-read later.
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, skipProcessEnv: true, validate: validateEnvironment }),
        ProfileModule.forRoot(profile),
        DiscoveryModule,
        RequestLoggingModule,
        RequestLogModule,
        connectDatabase(dataSourceOptions(environment, schemaOf(SERVICES)), (options) => openDataSource(options, seeding(profile))),
        DatabaseModule,
        ClockModule,
        ConditionsModule,
        EventsModule,
        OAuthModule,
        TppIdentityModule,
        ConsentModule,
        AccountInformationModule,
        PaymentInitiationModule,
        VerificationOfPayeeModule,
        ScaModule,
        AuthorisationRoutesModule,
        AuthorisationModule,
        NotificationsModule,
        // The services beyond the seed bank's (Berlin Group's, the PSR's permission dashboard): only where the profile offers them.
        ...profile.services.map((service) => service.module(profile, environment)),
        ...(environment.SANDBOX_CONTROL === 'true' ? [SandboxControlModule] : []),
      ],
      controllers: [HealthController],
      providers: [
        GracefulStop,
        MutualTlsListener,
        RouteAccessCheck,
        ServicePortsRegistration,
        { provide: APP_PIPE, useFactory: (bank: BankProfile) => createValidationPipe(bank.requestGroups), inject: [BankProfile] },
        {
          provide: APP_FILTER,
          useFactory: (bank: BankProfile) => new BerlinGroupExceptionFilter(bank, [VOP_MESSAGE_LIST]),
          inject: [BankProfile],
        },
        ...(profile.answers === 'berlin-group' ? [{ provide: APP_INTERCEPTOR, useClass: BerlinGroupAnswers }] : []),
      ],
    };
  }
}
