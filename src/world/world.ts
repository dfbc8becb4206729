import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * Whose consents, payments, scenarios, clock and conditions a request sees (docs/security.md,
 * "Worlds"). In AUTH_MODE=strict each client is a world of its own, found by its token; in open
 * mode there is one world, `World.open`, whose is everything. There is no world of "everyone":
 * a query takes a World, and a request that found none is refused (RequestWorld).
 */
export class World {
  /** The one world of AUTH_MODE=open: a single user, to whom every row belongs. */
  static readonly open = new World(null);

  private constructor(
    /** The client whose world this is; null only for the open world. */
    readonly clientId: string | null,
  ) {}

  static ofClient(clientId: string): World {
    return new World(clientId);
  }

  /** The world a stored row was created in: its client's, or (no client: open mode) the open one. */
  static of({ ownerId }: { ownerId: string | null }): World {
    return ownerId === null ? World.open : World.ofClient(ownerId);
  }

  /** The key of the world's own rows (clock, conditions): the client ID, or "" for the open world. */
  get key(): string {
    return this.clientId ?? '';
  }

  /** What a row created in this world stores as its world. */
  get ownerId(): string | null {
    return this.clientId;
  }
}

/**
 * A request and its world, once a guard found it (RequestGuard); `worldByToken`: found by a bearer
 * token, which proves it, where a published certificate alone proves nothing until its checks pass.
 */
export type WorldRequest = Request & { world?: World; worldByToken?: boolean };

/** The where-clause part that keeps a look-up to the world's rows (the open world's are all rows). */
export const ownedBy = (world: World): { ownerId?: string } => (world.clientId === null ? {} : { ownerId: world.clientId });

/** The same rule for a row already read: whether it is in the world. */
export const isOwnedBy = (row: { ownerId: string | null }, world: World): boolean =>
  world.clientId === null || row.ownerId === world.clientId;

/**
 * The world a guard found for this request (RequestGuard). A route whose guards found none is
 * refused with a 500 rather than answered with anyone's data (docs/security.md, "Worlds").
 */
export const RequestWorld = createParamDecorator((_: unknown, context: ExecutionContext): World =>
  requestWorld(context.switchToHttp().getRequest<WorldRequest>()),
);

/** The same for a guard that follows RequestGuard. */
export function requestWorld(request: WorldRequest): World {
  if (!request.world) throw new Error(`${request.method} ${request.path} has no world: its controller lacks the RequestGuard`);
  return request.world;
}
