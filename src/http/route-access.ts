import { Injectable, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { RouteRole } from '../tpp-identity/psd2-statement';

/**
 * Who may call a route (docs/security.md, "Who may call a route"): a TPP whose certificate grants
 * this PSD2 role, or no TPP role at all: the sandbox's own control routes, the account holder's
 * pages, the token endpoint and the health check. Declared once, on the controller (or a handler).
 */
export type RouteAccess = { role: RouteRole } | { role: null; audience: 'control' | 'holder' | 'public' };

export const Access = Reflector.createDecorator<RouteAccess>();

/** A route as Express serves it, `{name}` for a parameter, as the served document spells paths. */
export interface DeclaredRoute {
  method: string;
  path: string;
  access: RouteAccess | undefined;
  handler: string;
}

/** The access a request's route declared: read from Nest's route metadata, never from the URL, so that every spelling of a path that reaches a route gets its access. */
export const accessOf = (reflector: Reflector, handler: object, controller: object): RouteAccess | undefined =>
  reflector.getAllAndOverride(Access, [handler as () => void, controller as () => void]);

/**
 * Every route of the app with its declared access; the app refuses to start while a route declares
 * none, so that a new route cannot be forgotten.
 */
@Injectable()
export class RouteAccessCheck implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const undeclared = this.routes().filter(({ access }) => access === undefined);
    if (undeclared.length > 0) {
      throw new Error(
        `Every route declares who may call it (docs/security.md); these do not: ${undeclared.map(({ method, path, handler }) => `${method} ${path} (${handler})`).join(', ')}`,
      );
    }
  }

  routes(): DeclaredRoute[] {
    return this.discovery.getControllers().flatMap(({ instance, metatype }) => {
      if (!instance || !metatype) return [];
      const prototype = Object.getPrototypeOf(instance) as Record<string, object>;
      const bases = pathsOf(metatype);
      return this.scanner.getAllMethodNames(prototype).flatMap((name) => {
        const handler = prototype[name];
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) return [];
        const access = accessOf(this.reflector, handler, metatype);
        return bases.flatMap((base) =>
          pathsOf(handler).map((path) => ({
            method: RequestMethod[method],
            path: documentPath(base, path),
            access,
            handler: `${metatype.name}.${name}`,
          })),
        );
      });
    });
  }
}

const pathsOf = (target: object): string[] => {
  const paths = Reflect.getMetadata(PATH_METADATA, target) as string | string[] | undefined;
  return Array.isArray(paths) ? paths : [paths ?? ''];
};

/** `v1/` + `consents/:consentId` as `/v1/consents/{consentId}`. */
const documentPath = (base: string, path: string): string =>
  `/${base}/${path}`
    .replace(/\/+/g, '/')
    .replace(/(.)\/$/, '$1')
    .replace(/:([A-Za-z]+)/g, '{$1}');
