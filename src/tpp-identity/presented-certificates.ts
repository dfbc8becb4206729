import type { TLSSocket } from 'node:tls';
import type { Request } from 'express';
import { refusal } from '../common/error-catalogue';
import type { TppIdentitySettings } from '../profile/bank-profile';
import { certificateDer } from './certificate-header';

/**
 * The QWAC a request came with, as the profile reads it (tpp.qwac): the client certificate of the
 * TLS connection (mtls), or the one a TLS-terminating proxy forwarded (header); null when it has
 * none. A header that holds no URL-encoded certificate is refused.
 */
export function presentedQwac(request: Request, { qwac, qwacHeader }: TppIdentitySettings): Buffer | null {
  if (qwac === 'off') return null;
  if (qwac === 'mtls') return (request.socket as Partial<TLSSocket>).getPeerCertificate?.(false)?.raw ?? null;
  const forwarded = request.header(qwacHeader);
  if (!forwarded) return null;
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
