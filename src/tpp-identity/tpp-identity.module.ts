import { Global, Module } from '@nestjs/common';
import { ClockModule } from '../clock/clock.module';
import { DatabaseModule } from '../database/database.module';
import { CertificateClients } from './certificate-clients';
import { CertificatesService } from './certificates.service';
import { SignedRequests } from './signed-requests';
import { TppIdentityGuard } from './tpp-identity.guard';

/**
 * TPP identity (docs/tpp-identity.md): the sandbox CA and its certificates, and the guard every
 * XS2A controller runs (Xs2aController). Global, as ProfileModule is: every XS2A module uses it.
 */
@Global()
@Module({
  imports: [DatabaseModule, ClockModule],
  providers: [CertificatesService, CertificateClients, SignedRequests, TppIdentityGuard],
  exports: [CertificatesService, CertificateClients, SignedRequests, TppIdentityGuard],
})
export class TppIdentityModule {}
