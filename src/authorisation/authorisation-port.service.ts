import { Injectable } from '@nestjs/common';
import type { EntityTarget } from 'typeorm';
import type { ConsentedAccount } from '../consent/consent.entity';
import type { World } from '../world/world';
import type { AuthorisationKind } from './authorisation.entity';
import type { ScaDecision } from './authorisation.machine';

/** What a decision left of the resource: its new status (of its kind's machine), and where its SCA page sends the holder back. */
export interface Decided<Status extends string = string> {
  status: Status;
  redirectUri: string | null;
}

/**
 * What a resource that the account holder authorises lends the SCA of every channel (docs/development.md,
 * "Authorisation"): each kind (consent, payment, payment cancellation, signing basket, and the next
 * ones) registers one, and ScaService looks it up by kind instead of branching on it.
 */
export interface Authorisable {
  kind: AuthorisationKind;
  /** The table of what it authorises (its `id` is the resourceId): the row a wrong attempt locks before its authorisation's. */
  resource: EntityTarget<{ id: string }>;
  /** What a failed authorisation leaves of the resource (the last wrong TAN's 401 says it). */
  failedOutcome: string;
  /** Whether `held` covers what it is for (its accounts, its debtor, its members) as it waits now; 409 once it waits no more. */
  isHeldBy(resourceId: string, held: ConsentedAccount[]): Promise<boolean>;
  /** The holder's decision in one write, with its holder check (401 where `held` does not cover it). */
  decide(resourceId: string, decision: ScaDecision, held: ConsentedAccount[], world: World): Promise<Decided>;
  /** Inside the caller's write: a failed SCA denies, with no holder known. */
  fail(resourceId: string): Promise<void>;
}

/** The one list of authorisable kinds, filled in one place (src/service-ports.ts): the core's and the services' ports. */
@Injectable()
export class AuthorisationPort {
  private readonly adapters = new Map<AuthorisationKind, Authorisable>();

  register(...adapters: Authorisable[]): void {
    for (const adapter of adapters) this.adapters.set(adapter.kind, adapter);
  }

  of(kind: AuthorisationKind): Authorisable {
    const adapter = this.adapters.get(kind);
    if (!adapter) throw new Error(`no service registered authorisations of kind ${kind}`);
    return adapter;
  }
}
