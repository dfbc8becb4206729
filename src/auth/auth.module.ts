import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessToken, TppClient } from './client.entity';
import { SandboxOwnerGuard } from './owner';
import { TokenController } from './token.controller';
import { TokenService } from './token.service';

/** Global: every module's controllers are guarded with TokenService. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TppClient, AccessToken])],
  controllers: [TokenController],
  providers: [TokenService, SandboxOwnerGuard],
  exports: [TokenService, SandboxOwnerGuard],
})
export class AuthModule {}
