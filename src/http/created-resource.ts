import type { Response } from 'express';
import type { ScaApproach } from '../authorisation/authorisation.entity';

interface Linked {
  _links?: { self?: { href: string }; scaStatus?: { href: string } };
}

/**
 * The headers Berlin Group sends with a resource it created (an initiation, an authorisation
 * start; its handler is marked CreatesInBerlinGroup): `ASPSP-SCA-Approach`, which "must be
 * contained if the SCA approach is already fixed" (the bank's redirect, or the approach the request
 * asked for: docs/sca-approaches.md), and `Location` of the new resource (its `self` link, or an
 * authorisation's `scaStatus`). A call in the handler rather than an interceptor: Nest's
 * interceptor chain cost a POST a sixth of its CPU (docs/benchmark.md).
 */
export function announceCreated<T extends Linked>(response: Response, approach: ScaApproach, answer: T): T {
  response.setHeader('ASPSP-SCA-Approach', approach);
  const location = answer._links?.self?.href ?? answer._links?.scaStatus?.href;
  if (location) response.setHeader('Location', location);
  return answer;
}
