import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { TokenController } from './token.controller';
import { TokenService } from './token.service';

/** Every module with TPP controllers imports this one: their guards ask TokenService whose request it is. */
@Module({
  imports: [DatabaseModule],
  controllers: [TokenController],
  providers: [TokenService],
  exports: [TokenService],
})
export class OAuthModule {}
