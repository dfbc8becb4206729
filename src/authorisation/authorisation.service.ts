import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { DomainError } from '../common/error-catalogue';
import { newResourceId } from '../common/resource-id';
import { applyEvent, MachineBinding } from '../database/status-change';
import { Store } from '../database/store';
import { Authorisation, AuthorisationKind } from './authorisation.entity';
import { AuthorisationEvent, authorisationMachine } from './authorisation.machine';

/** The link the bank's payment initiation answer carries: it names the first, implicit authorisation. */
export const IMPLICIT_AUTHORISATION_ID = 'authorization_not_yet_available';

@Injectable()
export class AuthorisationService {
  private readonly machine: MachineBinding<Authorisation, typeof authorisationMachine>;

  constructor(private readonly store: Store) {
    this.machine = { store, target: Authorisation, machine: authorisationMachine, contextOf: () => ({}) };
  }

  /** Part of a Store.write, which also stores the resource when it is new. */
  async open(kind: AuthorisationKind, resourceId: string, tppRedirectUri: string | undefined): Promise<Authorisation> {
    const authorisation = Object.assign(new Authorisation(), {
      id: newResourceId(),
      kind,
      resourceId,
      status: 'received',
      tppRedirectUri: tppRedirectUri ?? null,
      createdAt: new Date().toISOString(),
    });
    await this.store.insert(Authorisation, authorisation);
    return authorisation;
  }

  async ids(kind: AuthorisationKind, resourceId: string): Promise<string[]> {
    return (await this.all(kind, resourceId)).map(({ id }) => id);
  }

  async find(kind: AuthorisationKind, resourceId: string, authorisationId: string): Promise<Authorisation> {
    const authorisation =
      authorisationId === IMPLICIT_AUTHORISATION_ID
        ? (await this.all(kind, resourceId))[0]
        : await this.store.findByKey(Authorisation, authorisationId);
    if (!authorisation || authorisation.kind !== kind || authorisation.resourceId !== resourceId) {
      throw new DomainError({ messageId: 'XS2A020E', description: `authorisation ${authorisationId} unknown` });
    }
    return authorisation;
  }

  /**
   * Moves every open authorisation of a resource; answers where the holder goes back to (the
   * newest address given). Part of the Store.write that also changes the resource, so that a
   * crash never leaves the two apart.
   */
  async moveOpen(kind: AuthorisationKind, resourceId: string, event: AuthorisationEvent): Promise<string | null> {
    const open = await this.store.read(Authorisation).find({
      where: { kind, resourceId, status: In(['received', 'started']) },
      order: { createdAt: 'ASC' },
    });
    for (const authorisation of open) await applyEvent(this.machine, authorisation, event);
    return open.map(({ tppRedirectUri }) => tppRedirectUri).filter((uri) => uri !== null).at(-1) ?? null;
  }

  private all(kind: AuthorisationKind, resourceId: string): Promise<Authorisation[]> {
    return this.store.read(Authorisation).find({ where: { kind, resourceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}
