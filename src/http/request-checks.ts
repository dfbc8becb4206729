import { applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiResponse } from '@nestjs/swagger';
import { TppErrorResponse } from './error-response.dto';

/** What a route asks of a request before anything else (docs/behaviour.md, "Requests"); a method's checks add to its controller's. */
export interface RequestChecks {
  /** The bearer token: always (/v1; where the profile makes it optional, tpp.oauth, the certificate may name the client instead), or only in AUTH_MODE=strict (/sandbox, docs/sca-flows.md). */
  token: 'always' | 'strictOnly';
  /** X-Request-ID, a UUID. */
  requestId?: true;
  /** PSU-IP-Address, an IP address: the Berlin Group yaml makes it mandatory for payment initiation. */
  psuIpAddress?: true;
  /** The media type of the body, application/json unless a route reads another (a pain.001: docs/formats.md). */
  body?: 'application/xml';
  /** The route answers more than JSON and negotiates Accept itself (answer-format.ts); every other answers JSON only. */
  ownFormats?: true;
}

/** Sets a route's checks (controller.decorator.ts); the request guard reads them. */
export const Checks = Reflector.createDecorator<Partial<RequestChecks>>();

/** Whether a route stores a resource of the world (a key of its own: a method's Checks would replace another decorator's). */
export const Stores = Reflector.createDecorator<true>();

/** The route stores a resource of the request's world, which WORLD_MAX_RESOURCES bounds (docs/security.md, "A world's life"). */
export const StoresResource = (): MethodDecorator =>
  applyDecorators(
    Stores(true),
    ApiResponse({
      status: 429,
      type: TppErrorResponse,
      description:
        "ACCESS_EXCEEDED (XS2A075E), AUTH_MODE=strict only: the client's world stores WORLD_MAX_RESOURCES resources already: reset it, restore a snapshot, or delete some",
    }),
  );
