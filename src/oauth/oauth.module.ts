import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { RegistrationController } from './registration.controller';
import { RegistrationService } from './registration.service';
import { RegistrationThrottle } from './registration-throttle';
import { IdleWorlds } from './idle-worlds';
import { EndedSessions, SignInThrottle } from './sign-ins';
import { TokenController } from './token.controller';
import { TokenService } from './token.service';

/** Every module with TPP controllers imports this one: their guards ask TokenService whose request it is. */
@Module({
  imports: [DatabaseModule],
  controllers: [TokenController, RegistrationController],
  providers: [TokenService, RegistrationService, RegistrationThrottle, SignInThrottle, EndedSessions, IdleWorlds],
  // The database's WorldQuota beside TokenService: the request guard of every module that imports this one asks both.
  exports: [TokenService, SignInThrottle, EndedSessions, IdleWorlds, DatabaseModule],
})
export class OAuthModule {}
