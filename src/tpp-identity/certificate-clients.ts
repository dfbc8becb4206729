import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { refusal } from '../common/error-catalogue';
import { World } from '../world/world';
import { BankProfile } from '../profile/bank-profile';
import { CertificatesService } from './certificates.service';
import { presentedQwac, presentedSeal } from './presented-certificates';

/**
 * AUTH_MODE=strict, a request without a bearer token where the profile makes it optional
 * (tpp.oauth): the client is the one the sandbox issued the request's certificate to, its QWAC
 * or else the QSealC it signed with (docs/tpp-identity.md, "Without a token"). Only the owner is
 * read here; TppIdentityGuard then checks the certificate (and the signature) before anything of
 * the client's world is answered.
 */
@Injectable()
export class CertificateClients {
  constructor(
    private readonly profile: BankProfile,
    private readonly certificates: CertificatesService,
  ) {}

  async worldOf(request: Request): Promise<World> {
    const der = presentedQwac(request, this.profile.tpp) ?? presentedSeal(request, this.profile.tpp);
    if (!der) {
      throw refusal(
        'tokenOrCertificateMissing',
        'no bearer token, and no certificate the sandbox issued to a client (a QWAC, or the QSealC of a signed request): send one of them',
      );
    }
    const owner = await this.certificates.ownerOf(der);
    if (!owner)
      throw refusal(
        'certificateOfNoClient',
        'no bearer token, and the certificate was issued to no client of this sandbox: send a token, or a certificate from POST /sandbox/certificates',
      );
    return World.ofClient(owner);
  }
}
