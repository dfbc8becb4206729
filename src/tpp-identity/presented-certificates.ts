import type { TLSSocket } from 'node:tls';
import type { Request } from 'express';
import { refusal } from '../common/error-catalogue';
import type { Environment } from '../config/environment';
import type { TppIdentitySettings } from '../profile/bank-profile';
import { certificateDer } from './certificate-header';

/**
 * The QWAC a request came with, as the profile reads it (tpp.qwac): the client certificate of the
 * TLS connection (mtls), or the one a TLS-terminating proxy forwarded (header); null when it has
 * none. A header from a sender that is no trusted proxy, or that holds no URL-encoded certificate, is refused.
 */
export function presentedQwac(request: Request, { qwac, qwacHeader }: TppIdentitySettings): Buffer | null {
  if (qwac === 'off') return null;
  if (qwac === 'mtls') return (request.socket as Partial<TLSSocket>).getPeerCertificate?.(false)?.raw ?? null;
  const forwarded = request.header(qwacHeader);
  if (!forwarded) return null;
  // Believed from a proxy TRUST_PROXY names only, as Express believes X-Forwarded-Proto: from any
  // other sender it would be anyone's claim to any published certificate (docs/tpp-identity.md).
  const trusts = request.app.get('trust proxy fn') as (address: string | undefined, hop: number) => boolean;
  if (!trusts(request.socket.remoteAddress, 0))
    throw refusal('certificateInvalid', `${qwacHeader} is believed only from a proxy TRUST_PROXY names`, qwacHeader);
  try {
    return certificateDer(decodeURIComponent(forwarded));
  } catch {
    throw refusal('certificateInvalid', `${qwacHeader} is not a URL-encoded PEM certificate`, qwacHeader);
  }
}

/** The QSealC a signed request carries (TPP-Signature-Certificate), where the profile reads signatures; null when it has none. */
export function presentedSeal(request: Request, { signatures }: TppIdentitySettings): Buffer | null {
  const sent = request.header('TPP-Signature-Certificate');
  return signatures === 'off' || request.header('Signature') === undefined || !sent ? null : certificateDer(sent);
}

/** tpp.qwac: header with no TRUST_PROXY stops the start: no request could prove its QWAC (presentedQwac). */
export function checkQwacSource({ qwac, qwacHeader }: TppIdentitySettings, { TRUST_PROXY }: Environment): void {
  if (qwac === 'header' && TRUST_PROXY === undefined)
    throw new Error(
      `Invalid configuration:\n  TRUST_PROXY is unset, but the profile's tpp.qwac: header believes ${qwacHeader} only from the proxies TRUST_PROXY names`,
    );
}
