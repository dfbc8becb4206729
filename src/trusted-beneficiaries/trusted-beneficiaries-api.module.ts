import { Module } from '@nestjs/common';
import { ConsentModule } from '../consent/consent.module';
import { OAuthModule } from '../oauth/oauth.module';
import { TrustedBeneficiariesController } from './trusted-beneficiaries.controller';
import { TrustedBeneficiariesModule } from './trusted-beneficiaries.module';

/** GET /v1/trusted-beneficiaries: imported only where the profile lists them (AppModule). */
@Module({
  imports: [OAuthModule, ConsentModule, TrustedBeneficiariesModule],
  controllers: [TrustedBeneficiariesController],
})
export class TrustedBeneficiariesApiModule {}
