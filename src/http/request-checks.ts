import { Reflector } from '@nestjs/core';

/** What a route asks of a request before anything else (docs/behaviour.md, "Requests"); a method's checks add to its controller's. */
export interface RequestChecks {
  /** The bearer token: always (/v1; where the profile makes it optional, tpp.oauth, the certificate may name the client instead), or only in AUTH_MODE=strict (/sandbox, docs/sca-flows.md). */
  token: 'always' | 'strictOnly';
  /** X-Request-ID, a UUID. */
  requestId?: true;
  /** PSU-IP-Address, an IP address: the Berlin Group yaml makes it mandatory for payment initiation. */
  psuIpAddress?: true;
}

/** Sets a route's checks (controller.decorator.ts); the request guard reads them. */
export const Checks = Reflector.createDecorator<Partial<RequestChecks>>();
