import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Authorisation } from './authorisation.entity';
import { AuthorisationService } from './authorisation.service';

@Module({
  imports: [TypeOrmModule.forFeature([Authorisation])],
  providers: [AuthorisationService],
  exports: [AuthorisationService],
})
export class AuthorisationModule {}
