import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * Whose consents, payments and scenarios a request may see: in AUTH_MODE=strict the client ID
 * of its token, and only that client's; undefined means everyone's (open mode, and the account
 * holder's side: the SCA pages).
 */
export type Owner = string | undefined;

export type OwnedRequest = Request & { owner?: Owner };

/** The where-clause part that keeps a look-up to the owner's rows. */
export const ownedBy = (owner: Owner): { ownerId?: string } => (owner === undefined ? {} : { ownerId: owner });

/** The same rule for a row already read: whether the owner may see it. */
export const isOwnedBy = (row: { ownerId: string | null }, owner: Owner): boolean => owner === undefined || row.ownerId === owner;

/** The owner a guard found for this request (RequestGuard). */
export const RequestOwner = createParamDecorator((_: unknown, context: ExecutionContext): Owner => {
  return context.switchToHttp().getRequest<OwnedRequest>().owner;
});
