import { DynamicModule, Module } from '@nestjs/common';
import { ConditionalModule, ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AccountInformationModule } from './account-information/account-information.module';
import { AuthModule } from './auth/auth.module';
import { BerlinGroupExceptionFilter } from './common/berlin-group-exception.filter';
import { CommonModule } from './common/common.module';
import { RequestLoggingModule } from './common/request-logging';
import { createValidationPipe } from './common/validation.pipe';
import { validateEnvironment } from './config/environment';
import { ConsentModule } from './consent/consent.module';
import { DatabaseModule } from './database/database.module';
import { PaymentInitiationModule } from './payment-initiation/payment-initiation.module';
import { SandboxControlModule } from './sandbox-control/sandbox-control.module';
import { ScaModule } from './sca/sca.module';

@Module({})
export class AppModule {
  /** Reads the environment when called, so that each test can start an app on its own settings. */
  static forRoot(): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // skipProcessEnv: settings are the validated snapshot taken here, never re-read later.
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, skipProcessEnv: true, validate: validateEnvironment }),
        RequestLoggingModule,
        CommonModule,
        DatabaseModule,
        AuthModule,
        ConsentModule,
        AccountInformationModule,
        PaymentInitiationModule,
        ScaModule,
        // Read after validation, so only 'true' or 'false' can arrive here.
        ConditionalModule.registerWhen(SandboxControlModule, 'SANDBOX_CONTROL', { debug: false }),
      ],
      providers: [
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: BerlinGroupExceptionFilter },
      ],
    };
  }
}
