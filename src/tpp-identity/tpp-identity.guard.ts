import { verify } from 'node:crypto';
import type { Response } from 'express';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { accessOf } from '../http/route-access';
import { refusal } from '../common/error-catalogue';
import { identifiedBy } from '../common/request-context';
import { isOwnedBy, requestWorld, type WorldRequest } from '../world/world';
import { BankProfile } from '../profile/bank-profile';
import { CertificatesService, CheckedCertificate } from './certificates.service';
import { namesIssuer } from './certificate-header';
import { presentedQwac } from './presented-certificates';
import { SignedRequests } from './signed-requests';
import { digestMatches, parseKeyId, parseSignature, sameSerial, signingString, uncoveredHeaders } from './http-signature';
import { grantsRoute, type RouteRole } from './psd2-statement';

/** What the body parser kept of a request: the exact bytes its Digest is the hash of (app.factory.ts). */
export type RawBodyRequest = WorldRequest & { rawBody?: Buffer };

/**
 * The hash of an RSA signature by its `algorithm`: the draft's names (the yaml's example) and the
 * hash alone, as Berlin Group's guidelines name it and clients send it (docs/tpp-identity.md).
 */
const SIGNATURE_HASHES: Partial<Record<string, 'sha256' | 'sha512'>> = {
  'rsa-sha256': 'sha256',
  'sha-256': 'sha256',
  'rsa-sha512': 'sha512',
  'sha-512': 'sha512',
};

const invalidSignature = (description: string) => refusal('signatureInvalid', description, 'Signature');

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
    private readonly signedRequests: SignedRequests,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const { signatures, qwac } = this.profile.tpp;
    // Neither asked for: a boolean, which Nest takes without a promise's round (docs/benchmark.md, "What was tried").
    if (signatures === 'off' && qwac === 'off') return true;
    return this.identified(context);
  }

  private async identified(context: ExecutionContext): Promise<boolean> {
    const { signatures, qwac } = this.profile.tpp;
    const request = context.switchToHttp().getRequest<RawBodyRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    // The role of the route the request reached, whatever spelling of its path reached it (docs/security.md).
    const access = accessOf(this.reflector, context.getHandler(), context.getClass());
    if (access?.role == null) throw new Error(`${context.getClass().name}.${context.getHandler().name} declares no PSD2 role`);
    if (qwac !== 'off')
      this.accept(await this.certificates.check(this.qwacOf(request), 'QWAC', requestWorld(request)), access.role, request, response);
    if (signatures === 'required' || (signatures === 'optional' && request.header('Signature') !== undefined)) {
      this.accept(await this.signer(request), access.role, request, response);
    }
    return true;
  }

  /** The QWAC, which a profile that asks for one requires. */
  private qwacOf(request: RawBodyRequest): Buffer {
    const qwac = presentedQwac(request, this.profile.tpp);
    if (qwac) return qwac;
    const { qwac: where, qwacHeader } = this.profile.tpp;
    throw refusal(
      'certificateMissing',
      where === 'mtls'
        ? 'no client certificate on the TLS connection (the HTTPS listener, docs/tpp-identity.md)'
        : `no QWAC in ${qwacHeader}`,
    );
  }

  /** The QSealC a request is signed with, once the signature verifies over the signing string and the Digest is its body's. */
  private async signer(request: RawBodyRequest): Promise<CheckedCertificate> {
    const header = request.header('Signature');
    if (header === undefined)
      throw refusal('signatureMissing', 'every request to this bank is signed (Signature, Digest, TPP-Signature-Certificate)', 'Signature');
    const sent = request.header('TPP-Signature-Certificate');
    if (!sent)
      throw refusal(
        'certificateMissing',
        'a signed request carries its certificate in TPP-Signature-Certificate',
        'TPP-Signature-Certificate',
      );
    const signer = await this.certificates.check(sent, 'QSEAL', requestWorld(request));
    const parameters = parseSignature(header);
    if (!parameters) throw invalidSignature('Signature must be keyId="SN=…,CA=…",algorithm="rsa-sha256",headers="…",signature="…"');
    const hash = SIGNATURE_HASHES[parameters.algorithm.toLowerCase()];
    if (!hash)
      throw invalidSignature(
        `algorithm ${parameters.algorithm}: this bank verifies rsa-sha256 or rsa-sha512 (also spelt sha-256, sha-512)`,
      );
    const keyId = parseKeyId(parameters.keyId);
    if (!keyId || !sameSerial(keyId.serialNumber, signer.serialNumber))
      throw invalidSignature(`keyId ${parameters.keyId} does not name the certificate sent (SN=${signer.serialNumber})`);
    if (!namesIssuer(keyId.issuer, signer.issuer))
      throw invalidSignature(
        `keyId ${parameters.keyId} does not name the issuer of the certificate sent (CA=${signer.certificate.issuer.split('\n').join(',')})`,
      );
    const digest = request.header('Digest');
    if (!digest || !digestMatches(digest, request.rawBody ?? Buffer.alloc(0))) {
      throw refusal(
        'digestInvalid',
        'Digest must be SHA-256=<base64> or SHA-512=<base64> of the exact body (of nothing, when there is none)',
        'Digest',
      );
    }
    const uncovered = uncoveredHeaders(parameters.headers, (name) => request.header(name) !== undefined);
    if (uncovered.length > 0) throw invalidSignature(`the signature must cover ${uncovered.join(', ')}`);
    const signed = signingString(parameters.headers, (name) => request.header(name), { method: request.method, path: request.originalUrl });
    if (signed === null)
      throw invalidSignature(`the signature covers a header the request does not have (${parameters.headers.join(' ')})`);
    if (!verify(hash, Buffer.from(signed), signer.publicKey, Buffer.from(parameters.signature, 'base64'))) {
      throw invalidSignature('the signature does not verify with the certificate over the covered headers');
    }
    // Last, so that only a signature that holds is spent (RequestGuard has checked the X-Request-ID is a UUID).
    const requestId = request.header('X-Request-ID')!;
    this.signedRequests.spend(signer.serialNumber, requestId, () =>
      invalidSignature(
        `X-Request-ID ${requestId} was signed for an earlier request with this certificate: a signature is good for one request`,
      ),
    );
    return signer;
  }

  /** The certificate grants the service's role and, in AUTH_MODE=strict, belongs to the token's client; what the request causes then names it. */
  private accept(checked: CheckedCertificate, role: RouteRole, request: RawBodyRequest, response: Response): void {
    if (!grantsRoute(checked.roles, role)) {
      throw refusal(
        'roleInvalid',
        `the certificate ${checked.serialNumber} grants ${checked.roles.join(', ') || 'no PSD2 role'}, not ${role}`,
      );
    }
    if (checked.ownerId != null && !isOwnedBy({ ownerId: checked.ownerId }, requestWorld(request))) {
      throw refusal('certificateInvalid', `the certificate ${checked.serialNumber} was issued to another client than the token's`);
    }
    // The signature's certificate, when both, names the request in the history and the cockpit's request log.
    identifiedBy(checked.serialNumber);
    response.locals.certificate = checked.serialNumber;
  }
}
