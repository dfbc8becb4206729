import { DynamicModule, Module } from '@nestjs/common';
import { BankProfile } from './bank-profile';

/**
 * The bank in force, loaded and checked before Nest starts (AppModule.forRoot) and injected as
 * BankProfile wherever a bank differs (docs/profiles.md). Global as ConfigModule is: it is
 * configuration, and every feature may ask it.
 */
@Module({})
export class ProfileModule {
  static forRoot(profile: BankProfile): DynamicModule {
    return { module: ProfileModule, global: true, providers: [{ provide: BankProfile, useValue: profile }], exports: [BankProfile] };
  }
}
