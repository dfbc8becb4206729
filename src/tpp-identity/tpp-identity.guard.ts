import { verify } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { Response } from 'express';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { accessOf } from '../http/route-access';
import { DomainError } from '../common/error-catalogue';
import { identifiedBy } from '../http/request-context';
import { isOwnedBy, requestWorld, type WorldRequest } from '../oauth/world';
import { BankProfile } from '../profile/bank-profile';
import { CertificatesService, CheckedCertificate } from './certificates.service';
import { certificateDer, namesIssuer } from './certificate-header';
import { digestMatches, parseKeyId, parseSignature, sameSerial, signingString, uncoveredHeaders } from './http-signature';
import type { Psd2Role } from './psd2-statement';

/** What the body parser kept of a request: the exact bytes its Digest is the hash of (app.factory.ts). */
export type RawBodyRequest = WorldRequest & { rawBody?: Buffer };

const invalidSignature = (description: string) => new DomainError({ messageId: 'XS2A044E', path: 'Signature', description });

/**
 * The TPP's certificates on every /v1 request, as the profile asks (tpp.qwac, tpp.signatures;
 * docs/tpp-identity.md): the QWAC it came with, and the QSealC it signed with, each checked by
 * CertificatesService, then for the role of the service and, in AUTH_MODE=strict, for the
 * token's client. Neither asked for: nothing is read.
 */
@Injectable()
export class TppIdentityGuard implements CanActivate {
  constructor(
    private readonly profile: BankProfile,
    private readonly certificates: CertificatesService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { signatures, qwac } = this.profile.tpp;
    if (signatures === 'off' && qwac === 'off') return true;
    const request = context.switchToHttp().getRequest<RawBodyRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    // The role of the route the request reached, whatever spelling of its path reached it (docs/security.md).
    const access = accessOf(this.reflector, context.getHandler(), context.getClass());
    if (access?.role == null) throw new Error(`${context.getClass().name}.${context.getHandler().name} declares no PSD2 role`);
    if (qwac !== 'off') this.accept(await this.certificates.check(this.qwacOf(request, qwac), 'QWAC', requestWorld(request)), access.role, request, response);
    if (signatures === 'required' || (signatures === 'optional' && request.header('Signature') !== undefined)) {
      this.accept(await this.signer(request), access.role, request, response);
    }
    return true;
  }

  /** The client certificate of the TLS connection (mtls), or the one a TLS-terminating proxy forwarded (header). */
  private qwacOf(request: RawBodyRequest, qwac: 'header' | 'mtls'): Buffer | null {
    const missing = () => new DomainError({ messageId: 'XS2A046E', description: qwac === 'mtls' ? 'no client certificate on the TLS connection (the HTTPS listener, docs/tpp-identity.md)' : `no QWAC in ${this.profile.tpp.qwacHeader}` });
    if (qwac === 'mtls') {
      const peer = (request.socket as Partial<TLSSocket>).getPeerCertificate?.(false);
      if (!peer?.raw) throw missing();
      return peer.raw;
    }
    const forwarded = request.header(this.profile.tpp.qwacHeader);
    if (!forwarded) throw missing();
    try {
      return certificateDer(decodeURIComponent(forwarded));
    } catch {
      throw new DomainError({ messageId: 'XS2A047E', path: this.profile.tpp.qwacHeader, description: `${this.profile.tpp.qwacHeader} is not a URL-encoded PEM certificate` });
    }
  }

  /** The QSealC a request is signed with, once the signature verifies over the signing string and the Digest is its body's. */
  private async signer(request: RawBodyRequest): Promise<CheckedCertificate> {
    const header = request.header('Signature');
    if (header === undefined) throw new DomainError({ messageId: 'XS2A043E', path: 'Signature', description: 'every request to this bank is signed (Signature, Digest, TPP-Signature-Certificate)' });
    const sent = request.header('TPP-Signature-Certificate');
    if (!sent) throw new DomainError({ messageId: 'XS2A046E', path: 'TPP-Signature-Certificate', description: 'a signed request carries its certificate in TPP-Signature-Certificate' });
    const signer = await this.certificates.check(certificateDer(sent), 'QSEAL', requestWorld(request));
    const parameters = parseSignature(header);
    if (!parameters) throw invalidSignature('Signature must be keyId="SN=…,CA=…",algorithm="rsa-sha256",headers="…",signature="…"');
    if (parameters.algorithm.toLowerCase() !== 'rsa-sha256') throw invalidSignature(`algorithm ${parameters.algorithm}: this bank verifies rsa-sha256`);
    const keyId = parseKeyId(parameters.keyId);
    if (!keyId || !sameSerial(keyId.serialNumber, signer.serialNumber)) throw invalidSignature(`keyId ${parameters.keyId} does not name the certificate sent (SN=${signer.serialNumber})`);
    if (!namesIssuer(keyId.issuer, signer.issuer)) throw invalidSignature(`keyId ${parameters.keyId} does not name the issuer of the certificate sent (CA=${signer.certificate.issuer.split('\n').join(',')})`);
    const digest = request.header('Digest');
    if (!digest || !digestMatches(digest, request.rawBody ?? Buffer.alloc(0))) {
      throw new DomainError({ messageId: 'XS2A045E', path: 'Digest', description: 'Digest must be SHA-256=<base64> or SHA-512=<base64> of the exact body (of nothing, when there is none)' });
    }
    const uncovered = uncoveredHeaders(parameters.headers, (name) => request.header(name) !== undefined);
    if (uncovered.length > 0) throw invalidSignature(`the signature must cover ${uncovered.join(', ')}`);
    const signed = signingString(parameters.headers, (name) => request.header(name), { method: request.method, path: request.originalUrl });
    if (signed === null) throw invalidSignature(`the signature covers a header the request does not have (${parameters.headers.join(' ')})`);
    if (!verify('sha256', Buffer.from(signed), signer.certificate.publicKey, Buffer.from(parameters.signature, 'base64'))) {
      throw invalidSignature('the signature does not verify with the certificate over the covered headers');
    }
    return signer;
  }

  /** The certificate grants the service's role and, in AUTH_MODE=strict, belongs to the token's client; what the request causes then names it. */
  private accept(checked: CheckedCertificate, role: Psd2Role, request: RawBodyRequest, response: Response): void {
    if (!checked.roles.includes(role)) {
      throw new DomainError({ messageId: 'XS2A050E', description: `the certificate ${checked.serialNumber} grants ${checked.roles.join(', ') || 'no PSD2 role'}, not ${role}` });
    }
    if (checked.ownerId != null && !isOwnedBy({ ownerId: checked.ownerId }, requestWorld(request))) {
      throw new DomainError({ messageId: 'XS2A047E', description: `the certificate ${checked.serialNumber} was issued to another client than the token's` });
    }
    // The signature's certificate, when both, names the request in the history and the cockpit's request log.
    identifiedBy(checked.serialNumber);
    response.locals.certificate = checked.serialNumber;
  }
}
