import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Environment } from '../config/environment';
import { BankProfile } from '../profile/bank-profile';
import { Fixtures } from '../bank/fixtures';
import { EventHistory } from '../events/event-history.service';
import type { ScaHeaders } from '../http/sca-headers.decorator';
import { In } from 'typeorm';
import { refusal } from '../common/error-catalogue';
import { newResourceId } from '../common/resource-id';
import { applyEvent, insertNew, MachineBinding } from '../database/status-change';
import { Store } from '../database/store';
import { Authorisation, AuthorisationKind, ScaApproach } from './authorisation.entity';
import { AuthorisationEvent, authorisationMachine, OPEN_SCA_STATUSES } from './authorisation.machine';

/** The link the bank's payment initiation answer carries: it names the first, implicit authorisation. */
export const IMPLICIT_AUTHORISATION_ID = 'authorization_not_yet_available';

/** What the request that opens an authorisation says of it (the TPP-* and PSU-ID headers, docs/sca-approaches.md). */
export interface AuthorisationRequest {
  approach: ScaApproach;
  psuId: string | null;
  redirectUri: string | null;
  nokRedirectUri: string | null;
  /** No implicit authorisation: the TPP starts one itself, or puts the resource in a signing basket (docs/signing-baskets.md). */
  explicit: boolean;
}

@Injectable()
export class AuthorisationService {
  private readonly machine: MachineBinding<Authorisation, typeof authorisationMachine>;
  /** Whether a TPP may ask to start a resource's authorisation itself (TPP-Explicit-Authorisation-Preferred). */
  private explicitStart = false;
  /**
   * SCA_MODE=auto: there is no holder to ask, so an SCA is deemed done as soon as it would start
   * (docs/sca-flows.md): at a consent's creation, at a further authorisation's start, at the first
   * read of a payment or a signing basket that awaits one. The one place the rule is read.
   */
  readonly decidesAtOnce: boolean;

  constructor(
    private readonly store: Store,
    config: ConfigService<Environment, true>,
    history: EventHistory,
    private readonly profile: BankProfile,
    private readonly fixtures: Fixtures,
  ) {
    this.machine = {
      store,
      target: Authorisation,
      machine: authorisationMachine,
      contextOf: ({ failedAttempts }) => ({ failedAttempts }),
      history,
      kind: 'authorisation',
      placeOf: ({ ownerId, resourceId }) => ({ ownerId, parentId: resourceId }),
      // Wrong passwords sent at once each count: none is lost to another's write.
      comparedOn: ({ failedAttempts }) => ({ failedAttempts }),
    };
    this.decidesAtOnce = config.get('SCA_MODE', { infer: true }) === 'auto';
  }

  /**
   * Part of a Store.write: a further authorisation of a resource waiting for its holder (Berlin
   * Group start authorisation); where SCA is deemed done at once (decidesAtOnce), `approve` settles
   * the resource, and the authorisation is answered as that left it.
   */
  async start(
    kind: AuthorisationKind,
    resourceId: string,
    request: AuthorisationRequest,
    ownerId: string | null,
    approve: () => Promise<unknown>,
  ): Promise<Authorisation> {
    const opened = await this.open(kind, resourceId, request, ownerId);
    if (!this.decidesAtOnce) return opened;
    await approve();
    return this.find(kind, resourceId, opened.id);
  }

  /**
   * Part of a Store.write, which also stores the resource when it is new. A decoupled one whose
   * PSU is named starts at once: the holder's app asks them; unless `held`, for a payment whose
   * payer must first confirm the payee (release, docs/verification-of-payee.md).
   */
  async open(
    kind: AuthorisationKind,
    resourceId: string,
    request: AuthorisationRequest,
    ownerId: string | null,
    held = false,
  ): Promise<Authorisation> {
    const authorisation = Object.assign(new Authorisation(), {
      id: newResourceId(),
      kind,
      resourceId,
      status: 'received',
      approach: request.approach,
      psuId: request.psuId,
      scaMethodId: null,
      failedAttempts: 0,
      polls: 0,
      tppRedirectUri: request.redirectUri,
      tppNokRedirectUri: request.nokRedirectUri,
      ownerId,
      createdAt: new Date().toISOString(),
    });
    await insertNew(this.machine, authorisation);
    return held ? authorisation : this.release(authorisation);
  }

  /** Starts a decoupled authorisation whose PSU is named (the holder's app asks them); any other stays as it is. Part of a Store.write. */
  async release(authorisation: Authorisation): Promise<Authorisation> {
    if (authorisation.approach === 'DECOUPLED' && authorisation.psuId !== null)
      return (await this.apply(authorisation, { type: 'START' })).entity;
    return authorisation;
  }

  /** One step of an authorisation (embedded, decoupled), with the columns it sets; part of a Store.write. */
  apply(
    authorisation: Authorisation,
    event: AuthorisationEvent,
    also: Partial<Authorisation> | ((authorisation: Authorisation) => Partial<Authorisation>) = {},
  ): Promise<{ entity: Authorisation; accepted: boolean }> {
    return applyEvent(this.machine, authorisation, event, also);
  }

  async ids(kind: AuthorisationKind, resourceId: string): Promise<string[]> {
    return (await this.all(kind, resourceId)).map(({ id }) => id);
  }

  /** The resource's authorisation with this ID, or null where it has none such. */
  async lookUp(kind: AuthorisationKind, resourceId: string, authorisationId: string): Promise<Authorisation | null> {
    const authorisation =
      authorisationId === IMPLICIT_AUTHORISATION_ID
        ? (await this.all(kind, resourceId))[0]
        : (this.fixtures.with(Authorisation, 'id', authorisationId)[0] ?? (await this.store.findByKey(Authorisation, authorisationId)));
    return authorisation && authorisation.kind === kind && authorisation.resourceId === resourceId ? authorisation : null;
  }

  /** One the sandbox has just opened or knows to be there: 404 RESOURCE_UNKNOWN otherwise. */
  async find(kind: AuthorisationKind, resourceId: string, authorisationId: string): Promise<Authorisation> {
    const authorisation = await this.lookUp(kind, resourceId, authorisationId);
    if (!authorisation) throw refusal('authorisationUnknown', `authorisation ${authorisationId} unknown`);
    return authorisation;
  }

  /** The oldest open authorisation of a resource the SCA page decides (REDIRECT); null when none waits. */
  waitingOnPage(kind: AuthorisationKind, resourceId: string): Promise<Authorisation | null> {
    return this.store
      .read(Authorisation)
      .findOne({ where: { kind, resourceId, approach: 'REDIRECT', status: In(OPEN_SCA_STATUSES) }, order: { createdAt: 'ASC' } });
  }

  /**
   * Moves every open authorisation of a resource; answers where the holder goes back to (the
   * newest address given): after a failure the TPP-Nok-Redirect-URI where one was given, else the
   * TPP-Redirect-URI. Part of the Store.write that also changes the resource, so that a crash
   * never leaves the two apart.
   */
  async moveOpen(kind: AuthorisationKind, resourceId: string, event: AuthorisationEvent): Promise<string | null> {
    const open = await this.store.read(Authorisation).find({
      where: { kind, resourceId, status: In(OPEN_SCA_STATUSES) },
      order: { createdAt: 'ASC' },
    });
    for (const authorisation of open) await this.apply(authorisation, event);
    const back = ({ tppRedirectUri, tppNokRedirectUri }: Authorisation) =>
      event.type === 'FAIL' ? (tppNokRedirectUri ?? tppRedirectUri) : tppRedirectUri;
    return (
      open
        .map(back)
        .filter((uri) => uri !== null)
        .at(-1) ?? null
    );
  }

  /**
   * Honours TPP-Explicit-Authorisation-Preferred from now on: a service where one authorisation
   * covers several resources (signing baskets) asks for it in its descriptor's ports. Berlin Group: the
   * preference "might be ignored by the ASPSP, if a signing basket is not supported".
   */
  acceptExplicitStart(): void {
    this.explicitStart = true;
  }

  /**
   * What a request opens: with SCA_MODE=redirect the approach the TPP prefers, among the profile's;
   * a further authorisation (`of`) whose request states none takes that of the resource's first one
   * of its kind. In auto mode no holder is asked: the bank's default approach, whatever the headers.
   */
  async requestOf(headers: ScaHeaders, of?: { kind: AuthorisationKind; resourceId: string }): Promise<AuthorisationRequest> {
    const inherited = async () => (of ? (await this.all(of.kind, of.resourceId))[0]?.approach : undefined) ?? null;
    // The bank decides among the approaches it supports: an unsupported preference gets its default (docs/profiles.md).
    const approach: ScaApproach = this.decidesAtOnce
      ? this.profile.defaultApproach
      : this.profile.approachFor(headers.preferred ?? (await inherited()));
    const explicit = headers.explicitPreferred && this.explicitStart;
    return { approach, psuId: headers.psuId, redirectUri: headers.redirectUri, nokRedirectUri: headers.nokRedirectUri, explicit };
  }

  /** Whether it is the record of a fixture resource's SCA (docs/profiles.md, "Fixtures"), which nothing changes. */
  isFixture({ id }: Authorisation): boolean {
    return this.fixtures.has(Authorisation, 'id', id);
  }

  /** A fixture resource's authorisations are fixtures, from memory; any other resource's are in the database. */
  private async all(kind: AuthorisationKind, resourceId: string): Promise<Authorisation[]> {
    const fixtures = this.fixtures.with(Authorisation, 'resourceId', resourceId);
    if (fixtures.length) return fixtures.filter((authorisation) => authorisation.kind === kind);
    return this.store.read(Authorisation).find({ where: { kind, resourceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}
