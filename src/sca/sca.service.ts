import { Injectable } from '@nestjs/common';
import { Account, Psu } from '../bank/account.entity';
import { AccountStore } from '../bank/account-store';
import { isOwnedBy, World } from '../world/world';
import { worldLock } from '../world/world-scope';
import { DomainError, staysAsFixture, FormatError, refusal, detail, isRefusal } from '../common/error-catalogue';
import { Store } from '../database/store';
import type { Consent, ConsentedAccount } from '../consent/consent.entity';
import { consentedIbans, consentedMaskedPans } from '../consent/coverage';
import { AccountKinds } from '../consent/account-kinds.service';
import { Authorisation, AuthorisationKind } from '../authorisation/authorisation.entity';
import { AuthorisationEvent, MAX_FAILED_ATTEMPTS, ScaDecision } from '../authorisation/authorisation.machine';
import { AuthorisationRequest, AuthorisationService } from '../authorisation/authorisation.service';
import { AuthorisationPort, Decided } from '../authorisation/authorisation-port.service';
import { ConsentService } from '../consent/consent.service';
import { Actor, actingAs } from '../common/request-context';
import type { UpdatePsuDataDto } from './update-psu-data.dto';
import { personaOf, STATIC_TAN } from './psu-personas';
import { toScaStepResponse } from './sca-answers';
import type { ScaStepResponse } from '../authorisation/authorisation-response.dto';
import { BankProfile, ScaMethod } from '../profile/bank-profile';

/** Who decides: the SCA page checks the password too; the headless control endpoints name the PSU only. */
export interface PsuLogin {
  psuId: string;
  password?: string;
}

/** What an authorisation is of: a consent, a payment, a payment's cancellation, a signing basket (each kind registered in AuthorisationPort). */
export interface ScaTarget {
  kind: AuthorisationKind;
  resourceId: string;
}

/**
 * The account holder's decisions, with the same checks and effects for every channel: the pages,
 * the control endpoints, and the embedded and decoupled steps on the authorisation sub-resources
 * (docs/sca-approaches.md).
 */
@Injectable()
export class ScaService {
  constructor(
    private readonly store: Store,
    private readonly consents: ConsentService,
    private readonly authorisations: AuthorisationService,
    private readonly profile: BankProfile,
    private readonly port: AuthorisationPort,
    private readonly kinds: AccountKinds,
    private readonly accounts: AccountStore,
  ) {}

  /** The SCA methods of the authorisation's PSU (none while no PSU is named). */
  methodsOf({ psuId }: Authorisation): ScaMethod[] {
    return psuId === null ? [] : personaOf(this.profile, psuId).scaMethods;
  }

  /** Berlin Group's answer to a step of embedded or decoupled SCA, for the authorisation at `path`. */
  stepAnswer(authorisation: Authorisation, path: string): ScaStepResponse {
    return toScaStepResponse(authorisation, path, this.methodsOf(authorisation));
  }

  /**
   * The holder's decision on what `target` is, through the service that registered its kind
   * (AuthorisationPort). `world`: the headless control endpoints act for a client (strict mode);
   * the pages for everyone (undefined). `channel` names them in the event history. `Status` is
   * the status type of the kind's machine, which the caller names (the port keeps kinds apart at run time).
   */
  async decide<Status extends string = string>(
    target: ScaTarget,
    decision: ScaDecision,
    login: PsuLogin,
    world: World,
    channel: Actor['channel'],
  ): Promise<Decided<Status>> {
    const decide = async () => {
      try {
        return await this.port.of(target.kind).decide(target.resourceId, decision, await this.heldBy(login, world), world);
      } catch (error) {
        // A password typed on the SCA page counts as the embedded approach's does (docs/sca-flows.md).
        const waiting = login.password === undefined ? null : await this.authorisations.waitingOnPage(target.kind, target.resourceId);
        throw waiting ? await this.counted(target, waiting, error) : error;
      }
    };
    return actingAs({ psuId: login.psuId, channel }, decide) as Promise<Decided<Status>>;
  }

  /**
   * The holder withdraws a valid consent (the revocation page, the permission dashboard, the
   * control API), or re-establishes one they withdrew (the dashboard, docs/permission-dashboard.md).
   */
  async changeConsent(
    change: 'revoke' | 'reestablish',
    consentId: string,
    login: PsuLogin,
    world: World,
    channel: Actor['channel'],
  ): Promise<Consent> {
    return actingAs({ psuId: login.psuId, channel }, async () => this.consents[change](consentId, await this.heldBy(login, world), world));
  }

  /**
   * The names of the accounts a consent names, by IBAN or masked PAN, as the consent page shows
   * them: only those its client may see (docs/security.md, "Whose data"), so that a consent on
   * another client's account shows no name to whoever holds its link.
   */
  async accountNames({ access, ownerId }: Consent): Promise<Map<string, string>> {
    const world = World.of({ ownerId });
    const accounts = await this.accounts.find(consentedIbans(access), world);
    return new Map([
      ...accounts.map(({ iban, name }) => [iban, name] as const),
      ...(await this.kinds.names(consentedMaskedPans(access), world)),
    ]);
  }

  /**
   * Berlin Group start authorisation on a resource found waiting (`open`): the authorisation,
   * then what the request carries: a password (startAuthorisationWithPsuAuthentication), or a PSU
   * to identify (decoupled).
   */
  async start(
    target: ScaTarget,
    open: () => Promise<Authorisation>,
    body: UpdatePsuDataDto,
    request: AuthorisationRequest,
    world: World,
  ): Promise<Authorisation> {
    // A PSU the bank refuses outright (unknown for decoupled, blocked for either) opens nothing.
    if (request.approach === 'DECOUPLED' && request.psuId) await this.heldBy({ psuId: request.psuId }, world);
    if (request.approach === 'EMBEDDED' && request.psuId && personaOf(this.profile, request.psuId).blocked) throw blocked(request.psuId);
    const authorisation = await open();
    if (request.approach === 'EMBEDDED' && body.psuData?.password !== undefined)
      return this.update(target, authorisation, body, request.psuId, world);
    return authorisation;
  }

  /**
   * Update PSU data (PUT on the sub-resource): the next step of an embedded or decoupled
   * authorisation; the step is named by the body. A redirect one takes none: the page decides.
   */
  async update(
    target: ScaTarget,
    authorisation: Authorisation | null,
    body: UpdatePsuDataDto,
    psuIdHeader: string | null,
    world: World,
  ): Promise<Authorisation> {
    // As the bank answers any PUT: its redirect authorisations take no PSU data, and neither does one that is not there.
    if (authorisation === null) throw updatePsuDataNotOffered();
    if (this.authorisations.isFixture(authorisation))
      throw refusal(
        'notWaiting',
        `authorisation ${authorisation.id} is ${staysAsFixture('start the authorisation of a consent or payment of your own')}`,
      );
    if (authorisation.approach === 'REDIRECT') throw updatePsuDataNotOffered();
    if (authorisation.status === 'failed') throw refusal('scaFailed', `authorisation ${authorisation.id} failed: start a new one`);
    const psuId = psuIdHeader ?? authorisation.psuId;
    // The event history names the PSU and the channel of every change these steps make.
    if (psuId)
      return actingAs({ psuId, channel: authorisation.approach === 'DECOUPLED' ? 'decoupled' : 'embedded' }, () =>
        this.next(target, authorisation, body, psuId, world),
      );
    return this.next(target, authorisation, body, psuId, world);
  }

  private async next(
    target: ScaTarget,
    authorisation: Authorisation,
    body: UpdatePsuDataDto,
    psuId: string | null,
    world: World,
  ): Promise<Authorisation> {
    if (authorisation.approach === 'DECOUPLED') return this.identify(authorisation, psuId, world);
    if (body.psuData?.password !== undefined)
      return this.authenticate(
        target,
        this.expect(authorisation, 'received'),
        { psuId: required(psuId), password: body.psuData.password },
        world,
      );
    if (body.authenticationMethodId !== undefined)
      return this.selectMethod(this.expect(authorisation, 'psuAuthenticated'), body.authenticationMethodId);
    if (body.scaAuthenticationData !== undefined)
      return this.authorise(target, this.expect(authorisation, 'scaMethodSelected'), body.scaAuthenticationData, world);
    throw new FormatError('psuData', 'the body must carry psuData.password, authenticationMethodId or scaAuthenticationData');
  }

  /**
   * A TPP's read of the SCA status. A decoupled authorisation is the holder's app: a persona that
   * confirms by itself does so at its set poll (docs/sca-approaches.md, "Test PSUs").
   */
  async poll(target: ScaTarget, authorisation: Authorisation, world: World): Promise<Authorisation> {
    const confirmsAt = authorisation.psuId === null ? null : personaOf(this.profile, authorisation.psuId).decoupledConfirmsAtPoll;
    if (authorisation.approach !== 'DECOUPLED' || authorisation.status !== 'started' || confirmsAt === null) return authorisation;
    const polls = authorisation.polls + 1;
    if (polls < confirmsAt) {
      await this.store.write(() => this.store.change(Authorisation).update({ id: authorisation.id }, { polls }));
      return { ...authorisation, polls };
    }
    try {
      await actingAs({ psuId: authorisation.psuId!, channel: 'decoupled' }, () =>
        this.approve(target, { psuId: authorisation.psuId! }, world),
      );
    } catch (error) {
      // The app cannot confirm for a PSU who is unknown, blocked or does not hold the accounts: the SCA fails.
      if (!isRefusal(error, 'psuCredentialsInvalid', 'psuBlocked')) throw error;
      await this.store.write(() => this.fail(target));
    }
    return this.reread(authorisation);
  }

  /** Decoupled: the PSU is named, and the holder's app asks them (started). */
  private async identify(authorisation: Authorisation, psuId: string | null, world: World): Promise<Authorisation> {
    const identified = required(psuId);
    await this.heldBy({ psuId: identified }, world);
    return this.step(this.expect(authorisation, 'received'), { type: 'START' }, { psuId: identified });
  }

  /** Embedded, the password: a PSU with several methods chooses next, one with one gets its TAN, one with none is exempted. */
  private async authenticate(
    target: ScaTarget,
    authorisation: Authorisation,
    login: Required<PsuLogin>,
    world: World,
  ): Promise<Authorisation> {
    let held: ConsentedAccount[];
    try {
      held = await this.heldBy(login, world);
      if (!(await this.holds(target, held))) throw refusal('psuCredentialsInvalid', 'the PSU does not hold the accounts concerned');
    } catch (error) {
      throw await this.counted(target, authorisation, error);
    }
    const { scaMethods } = personaOf(this.profile, login.psuId);
    if (scaMethods.length === 0) {
      await this.port.of(target.kind).decide(target.resourceId, 'approve', held, world);
      return this.reread(authorisation);
    }
    const implicit = scaMethods.length === 1 ? scaMethods[0].authenticationMethodId : null;
    return this.step(authorisation, { type: 'AUTHENTICATE', methods: scaMethods.length }, { psuId: login.psuId, scaMethodId: implicit });
  }

  private async selectMethod(authorisation: Authorisation, methodId: string): Promise<Authorisation> {
    if (
      !personaOf(this.profile, authorisation.psuId!).scaMethods.some(({ authenticationMethodId }) => authenticationMethodId === methodId)
    ) {
      throw refusal('scaMethodUnknown', `${methodId} is none of the PSU's SCA methods`, 'authenticationMethodId');
    }
    return this.step(authorisation, { type: 'SELECT_METHOD' }, { scaMethodId: methodId });
  }

  /** Embedded, the TAN: the right one has the effects of an approval at the page. */
  private async authorise(target: ScaTarget, authorisation: Authorisation, tan: string, world: World): Promise<Authorisation> {
    if (tan !== STATIC_TAN) throw await this.counted(target, authorisation, refusal('psuCredentialsInvalid', 'wrong TAN'));
    await this.approve(target, { psuId: authorisation.psuId! }, world);
    return this.reread(authorisation);
  }

  /**
   * A wrong password or TAN counts, in its own write, and its 401 is answered; the last allowed
   * one fails the authorisation and rejects the consent or payment (a cancellation: the payment
   * stays as it is). Any other refusal (a blocked PSU) is answered as it is, counting nothing.
   */
  private async counted(target: ScaTarget, authorisation: Authorisation, error: unknown): Promise<unknown> {
    if (!isRefusal(error, 'psuCredentialsInvalid')) return error;
    const counted = await this.store.write(async () => {
      // Locks in the one order every decision takes them (docs/development.md, "Lock order"): the
      // world's, the resource's row, then its authorisations'. Counted first, the authorisation's
      // row was held while the last wrong one's denial waited for the resource's row that a right
      // one racing it held, waiting for the authorisation's: a deadlock.
      await this.store.lock(worldLock(World.of(authorisation)));
      await this.store.findForUpdate(this.port.of(target.kind).resource, { id: target.resourceId });
      // Counted on the row as it is when the write wins (applyEvent): attempts sent at once count one each.
      const { entity, accepted } = await this.authorisations.apply(authorisation, { type: 'WRONG_CREDENTIALS' }, ({ failedAttempts }) => ({
        failedAttempts: failedAttempts + 1,
      }));
      if (!accepted) throw notAtStep(entity);
      if (entity.status === 'failed') await this.fail(target);
      return entity;
    });
    return new WrongCredentials(
      error.message,
      counted.failedAttempts,
      counted.status === 'failed' ? `the authorisation failed and the ${this.port.of(target.kind).failedOutcome}` : null,
    );
  }

  /** The approval of `login`'s PSU, with every check of the page (the accounts held). */
  private async approve(target: ScaTarget, login: PsuLogin, world: World): Promise<void> {
    await this.port.of(target.kind).decide(target.resourceId, 'approve', await this.heldBy(login, world), world);
  }

  /** A failed SCA's effect on what it was for, inside the caller's write, with no holder known. */
  private fail({ kind, resourceId }: ScaTarget): Promise<void> {
    return this.port.of(kind).fail(resourceId);
  }

  /** Whether the accounts held cover what the authorisation is for: a consent's accounts, a payment's debtor, a basket's members. */
  private holds({ kind, resourceId }: ScaTarget, held: ConsentedAccount[]): Promise<boolean> {
    return this.port.of(kind).isHeldBy(resourceId, held);
  }

  private async step(authorisation: Authorisation, event: AuthorisationEvent, also: Partial<Authorisation>): Promise<Authorisation> {
    const { entity, accepted } = await this.store.write(() => this.authorisations.apply(authorisation, event, also));
    if (!accepted) throw notAtStep(entity); // another step won the race
    return entity;
  }

  private expect(authorisation: Authorisation, status: Authorisation['status']): Authorisation {
    if (authorisation.status !== status) throw notAtStep(authorisation);
    return authorisation;
  }

  private async reread({ id }: Authorisation): Promise<Authorisation> {
    return (await this.store.findByKey(Authorisation, id))!;
  }

  /**
   * The accounts of a PSU whose credentials hold; 401 PSU_CREDENTIALS_INVALID otherwise, 403
   * SERVICE_BLOCKED for a blocked one. A client (strict mode) acts only as the fixture PSUs and
   * its own scenarios' PSUs: another client's scenario PSU is answered exactly as an unknown one
   * (docs/security.md).
   */
  async heldBy({ psuId, password }: PsuLogin, world: World): Promise<ConsentedAccount[]> {
    const psu = await this.store.read(Psu).findOneBy({ psuId });
    const foreign = psu !== null && psu.scenarioId !== null && !isOwnedBy(psu, world);
    if (!psu || foreign || (password !== undefined && password !== psu.password)) {
      throw refusal('psuCredentialsInvalid', 'unknown PSU ID or wrong password');
    }
    if (personaOf(this.profile, psuId).blocked) throw blocked(psuId);
    const accounts = await this.store.read(Account).find({ where: { psuId }, order: { iban: 'ASC' } });
    return [...accounts.map(({ iban, currency }) => ({ iban, currency })), ...(await this.kinds.heldBy(psuId))];
  }
}

/** A wrong password or TAN, counted on its authorisation; `failure`: what came of the last allowed one, null before it. */
export class WrongCredentials extends DomainError {
  constructor(
    why: string,
    readonly attempt: number,
    readonly failure: string | null,
  ) {
    super(detail('psuCredentialsInvalid', `${why} (${attemptsOf(attempt)})${failure ? `: ${failure}` : ''}`));
  }
}

/** `2 of 3 attempts`: how a wrong password or TAN is counted, in the answer and on the page. */
export const attemptsOf = (attempt: number): string => `${attempt} of ${MAX_FAILED_ATTEMPTS} attempts`;

/** The PSU-ID header names whose password or app it is. */
function required(psuId: string | null): string {
  if (!psuId) throw new FormatError('PSU-ID', 'PSU-ID must name the PSU');
  return psuId;
}

const blocked = (psuId: string) => refusal('psuBlocked', `PSU ${psuId} is blocked by the bank`);

const notAtStep = ({ id, status }: Authorisation) =>
  refusal('stepInvalid', `authorisation ${id} is ${status}: this step does not apply to it now`);

/**
 * PUT on a redirect authorisation: it updates no PSU data, the SCA page decides. Berlin Group's
 * 405 SERVICE_INVALID answers it rather than "no route".
 */
export const updatePsuDataNotOffered = (): DomainError =>
  refusal('redirectTakesNoPsuData', 'PUT on an authorisation is not offered: the sandbox uses the redirect approach, follow scaRedirect');
