import { Injectable, OnModuleInit } from '@nestjs/common';
import { In, IsNull, LessThan, Not } from 'typeorm';
import { Account } from '../bank/account.entity';
import { Fixtures } from '../bank/fixtures';
import { isOwnedBy, ownedBy, World } from '../world/world';
import { Authorisation } from '../authorisation/authorisation.entity';
import type { Authorisable } from '../authorisation/authorisation-port.service';
import { AuthorisationRequest, AuthorisationService } from '../authorisation/authorisation.service';
import type { ScaDecision } from '../authorisation/authorisation.machine';
import { addDays } from '../common/dates';
import { ClockService } from '../clock/clock.service';
import { ConsentUnknownError, fixtureOr as fixtureOrAny, FormatError, refusal, type MessageName } from '../common/error-catalogue';
import { newResourceId } from '../common/resource-id';
import { nextStatus } from '../common/state-machine';
import { BankProfile } from '../profile/bank-profile';
import { EventHistory } from '../events/event-history.service';
import type { NotificationRequest } from '../notifications/notification-headers.decorator';
import { NotificationsService } from '../notifications/notifications.service';
import { applyEvent, insertNew, MachineBinding } from '../database/status-change';
import { Store } from '../database/store';
import { CreateConsentDto } from './dto/create-consent.dto';
import { accessDecidedBy, allAccountsGranted } from './consent-access';
import { banksAccess, berlinGroupAccess } from './requested-access';
import { AccountKinds } from './account-kinds.service';
import { Consent, ConsentAccess, ConsentedAccount, ConsentPurpose, consentPath, purposeOf } from './consent.entity';
import {
  ConsentEvent,
  consentMachine,
  ConsentStatus,
  initialConsentStatus,
  isAwaitingSca,
  isDueToExpire,
  isRevocable,
} from './consent.machine';

@Injectable()
export class ConsentService implements OnModuleInit {
  private readonly machine: MachineBinding<Consent, typeof consentMachine>;

  constructor(
    private readonly store: Store,
    private readonly authorisations: AuthorisationService,
    private readonly clock: ClockService,
    history: EventHistory,
    private readonly notifications: NotificationsService,
    private readonly profile: BankProfile,
    private readonly kinds: AccountKinds,
    private readonly fixtures: Fixtures,
  ) {
    this.machine = {
      store,
      target: Consent,
      machine: consentMachine,
      contextOf: ({ validUntil }) => ({ validUntil }),
      history,
      kind: 'consent',
      placeOf: ({ ownerId }) => ({ ownerId, parentId: null }),
    };
  }

  onModuleInit(): void {
    this.clock.whenTimeMoves((world, today) => this.expireDue(world, today));
  }

  /** A consent as an authorisable kind: what the SCA of every channel asks of it (registered in src/service-ports.ts). */
  authorisable(): Authorisable {
    return {
      kind: 'consent',
      resource: Consent,
      failedOutcome: 'consent is rejected',
      isHeldBy: async (consentId, held) => this.isHeldBy(await this.findWaiting(consentId), held),
      decide: async (consentId, decision, held, world) => {
        const { consent, redirectUri } = await this.decide(consentId, decision, held, world);
        return { status: consent.status, redirectUri };
      },
      fail: async (consentId) => void (await this.settle(await this.findWaiting(consentId), 'deny')),
    };
  }

  /** Answers the Consent-ID, the status to report (docs/behaviour.md) and the implicit authorisation, if one was stored. */
  async create(
    request: CreateConsentDto,
    authorisationRequest: AuthorisationRequest,
    world: World,
    notification: NotificationRequest | null,
  ): Promise<{ consentId: string; consentStatus: ConsentStatus; authorisation: Authorisation | null; stored: boolean }> {
    const today = this.clock.today(world);
    if (request.validUntil < today) throw new FormatError('validUntil', `validUntil must not be before today (${today})`);
    const auto = this.autoDecides(authorisationRequest);
    const requested = this.profile.consentAccess === 'berlin-group' ? berlinGroupAccess(request) : banksAccess(request.access);
    // As the bank's sandbox does: an explicit account list gets the first valid fixture consent, and nothing is stored (answers: bank).
    const fixture = this.profile.consentForExplicitAccounts;
    if (auto && requested.availableAccounts === null && fixture)
      return { consentId: fixture, consentStatus: 'received', authorisation: null, stored: false };

    // The profile's limits (docs/profiles.md, "consents"): a later date or a higher frequency is cut down, and the consent shows what it got.
    const { validUntil, frequencyPerDay } = this.profile.consentTerms(request.validUntil, request.frequencyPerDay, today);
    const granted = auto ? await this.grantedAtOnce(requested) : requested;
    return this.createStored(
      { access: granted, recurringIndicator: request.recurringIndicator, validUntil, frequencyPerDay, card: null },
      authorisationRequest,
      world,
      notification,
    );
  }

  /** A new consent on these terms with its history, its subscription and its first authorisation (none for an explicit start), in one write; in SCA_MODE=auto it is valid at once (autoDecides). */
  async createStored(
    terms: Pick<Consent, 'access' | 'recurringIndicator' | 'validUntil' | 'frequencyPerDay' | 'card'>,
    authorisationRequest: AuthorisationRequest,
    world: World,
    notification: NotificationRequest | null,
  ): Promise<{ consentId: string; consentStatus: ConsentStatus; authorisation: Authorisation | null; stored: true }> {
    const auto = this.autoDecides(authorisationRequest);
    const received = initialConsentStatus();
    const consent = Object.assign(new Consent(), {
      ...terms,
      id: newResourceId(),
      // In auto mode strong customer authentication is deemed done at once.
      status: auto
        ? (nextStatus(consentMachine, received, { validUntil: terms.validUntil }, { type: 'APPROVE' }) as ConsentStatus)
        : received,
      lastActionDate: this.clock.today(world),
      fixture: false,
      scenarioId: null,
      ownerId: world.ownerId,
    });
    const authorisation = await this.store.write(async () => {
      await insertNew(this.machine, consent);
      if (notification)
        await this.notifications.subscribe(
          notification,
          { resourceId: consent.id, kind: 'consent', ownerId: consent.ownerId },
          consentPath(consent),
        );
      if (authorisationRequest.explicit) return null;
      const opened = await this.authorisations.open('consent', consent.id, authorisationRequest, consent.ownerId);
      if (auto) await this.authorisations.moveOpen('consent', consent.id, { type: 'FINALISE' });
      return opened;
    });
    return { consentId: consent.id, consentStatus: consent.status, authorisation, stored: true };
  }

  /** A new consent's SCA is deemed done (decidesAtOnce), unless the TPP will authorise it explicitly (docs/signing-baskets.md): then there is none to deem done. */
  private autoDecides({ explicit }: AuthorisationRequest): boolean {
    return this.authorisations.decidesAtOnce && !explicit;
  }

  /**
   * The consent in Consent-ID, which must be valid for any use (docs/behaviour.md, "Account
   * information"): 401 with `expiredMessageId` where it expired, XS2A008E where it is not valid.
   */
  async findValid(consentId: string, world: World, purpose: ConsentPurpose, expired: MessageName): Promise<Consent> {
    const consent = await this.findCurrent(consentId, world, purpose);
    if (consent.status === 'expired') throw refusal(expired, `consent ${consentId} expired`);
    if (consent.status !== 'valid') throw refusal('consentNotValid', `consent ${consentId} is ${consent.status}, not valid`);
    return consent;
  }

  /**
   * The consent as it stands today: one whose validUntil has passed is expired first (catchUp).
   * Asked for one `purpose` (a TPP's path names it), a consent for the other is unknown there.
   */
  async findCurrent(consentId: string, world: World, purpose?: ConsentPurpose): Promise<Consent> {
    // The profile's fixture consents from its index: no request changes them (a TPP's delete leaves them, none waits for a decision).
    const [fixture] = this.fixtures.with(Consent, 'id', consentId);
    const consent = fixture ?? (await this.store.findByKey(Consent, consentId));
    // The bank's fixtures are everyone's; what a client created is its own.
    if (!consent || !(isBanksFixture(consent) || isOwnedBy(consent, world)) || (purpose && purposeOf(consent) !== purpose))
      throw new ConsentUnknownError(consentId);
    // A fixture is served from memory and never changes: each world sees it at its own date (docs/security.md, "Worlds").
    return isBanksFixture(consent) ? asOf(consent, this.clock.today(world)) : this.catchUp(consent);
  }

  /** Terminates a consent; a fixture, the bank's scenery, stays as it is (answered 204 all the same: 'fixture'). */
  async delete(consentId: string, world: World, purpose?: ConsentPurpose): Promise<'terminated' | 'fixture'> {
    const consent = await this.findCurrent(consentId, world, purpose);
    if (consent.fixture) return 'fixture';
    await this.store.write(async () => {
      const { entity: now, accepted } = await this.apply(consent, { type: 'TERMINATE' });
      if (!accepted) {
        throw refusal('consentAlreadyFinal', `consent ${consentId} is ${now.status} and cannot be deleted`);
      }
      await this.authorisations.moveOpen('consent', consentId, { type: 'FAIL' });
    });
    return 'terminated';
  }

  /**
   * A further authorisation of a consent still waiting for the holder (Berlin Group start
   * authorisation); in SCA_MODE=auto its SCA is deemed done at once, as a creation's is: the consent is valid.
   */
  async startAuthorisation(
    consentId: string,
    request: AuthorisationRequest,
    world: World,
    purpose: ConsentPurpose,
  ): Promise<Authorisation> {
    const consent = this.assertWaiting(await this.findCurrent(consentId, world, purpose));
    return this.store.write(async () =>
      this.authorisations.start('consent', consentId, request, consent.ownerId, async () =>
        this.settle(consent, 'approve', await this.grantedAtOnce(consent.access)),
      ),
    );
  }

  async authorisationIds(consentId: string, world: World, purpose: ConsentPurpose): Promise<string[]> {
    await this.findCurrent(consentId, world, purpose);
    return this.authorisations.ids('consent', consentId);
  }

  async findAuthorisation(
    consentId: string,
    authorisationId: string,
    world: World,
    purpose: ConsentPurpose,
  ): Promise<Authorisation | null> {
    await this.findCurrent(consentId, world, purpose);
    return this.authorisations.lookUp('consent', consentId, authorisationId);
  }

  /**
   * The account holder's decision (docs/sca-flows.md): approval makes the consent valid over the
   * accounts they hold, denial rejects it. Answers the consent and where to send the holder back.
   */
  async decide(
    consentId: string,
    decision: ScaDecision,
    held: ConsentedAccount[],
    world: World,
  ): Promise<{ consent: Consent; redirectUri: string | null }> {
    const consent = this.assertWaiting(await this.findCurrent(consentId, world));
    const access = accessHeldBy(consent, held);
    return this.store.write(() => this.settle(consent, decision, access));
  }

  /**
   * The effects of a decision, inside a Store.write, once the holder is known to hold `access`
   * (decide). A failed SCA (the third wrong TAN) denies with no holder known.
   */
  async settle(consent: Consent, decision: ScaDecision, access?: ConsentAccess): Promise<{ consent: Consent; redirectUri: string | null }> {
    const { entity, accepted } = await this.apply(
      consent,
      decision === 'approve' ? { type: 'APPROVE' } : { type: 'DENY' },
      access ? { access } : {},
    );
    if (!accepted) throw notWaiting(entity); // another decision won the race
    const redirectUri = await this.authorisations.moveOpen('consent', consent.id, { type: decision === 'approve' ? 'FINALISE' : 'FAIL' });
    return { consent: entity, redirectUri };
  }

  /** The account holder withdraws a valid consent at the bank (docs/failures.md): revokedByPsu, and it reads nothing any more. */
  async revoke(consentId: string, held: ConsentedAccount[], world: World): Promise<Consent> {
    const consent = await this.findRevocable(consentId, world);
    accessHeldBy(consent, held);
    return this.store.write(async () => {
      const { entity, accepted } = await this.apply(consent, { type: 'REVOKE' });
      if (!accepted) throw notRevocable(entity);
      return entity;
    });
  }

  /**
   * The holder re-establishes a consent they withdrew, while it has not expired
   * (docs/permission-dashboard.md): valid again, with the same access and limits.
   */
  async reestablish(consentId: string, held: ConsentedAccount[], world: World): Promise<Consent> {
    const consent = await this.findCurrent(consentId, world);
    accessHeldBy(consent, held);
    return this.store.write(async () => {
      const { entity, accepted } = await this.apply(consent, { type: 'REESTABLISH', today: this.clock.today(world) });
      if (!accepted)
        throw refusal(
          'notWaiting',
          `consent ${consentId} is ${fixtureOr(consent, `${entity.status}${entity.status === 'revokedByPsu' ? ' and past its validUntil' : ''}, not a withdrawn consent the holder can re-establish`)}`,
        );
      return entity;
    });
  }

  /** A valid consent the holder can revoke, as the revocation page shows it; 409 otherwise. */
  async findRevocable(consentId: string, world: World): Promise<Consent> {
    const consent = await this.findCurrent(consentId, world);
    // The bank's fixtures are scenery (docs/behaviour.md, "Consents"): only what a TPP or a suite created moves.
    if (isBanksFixture(consent) || !isRevocable(consent.status)) throw notRevocable(consent);
    return consent;
  }

  /** Whether `held` covers the accounts of the consent: the check of every decision on it. */
  isHeldBy(consent: Consent, held: ConsentedAccount[]): boolean {
    return accessDecidedBy(consent.access, held) !== null;
  }

  /**
   * The holder's side (the SCA pages): the consent its ID names, as it stands today, in the world of
   * the client that created it (docs/security.md, "Worlds"): the ID in the link is what opens it.
   */
  async findForHolder(consentId: string): Promise<Consent> {
    const consent = await this.store.findByKey(Consent, consentId);
    if (!consent) throw new ConsentUnknownError(consentId);
    return this.catchUp(consent);
  }

  /** A consent the account holder can still decide on, as the SCA page shows it; 409 otherwise. */
  async findWaiting(consentId: string): Promise<Consent> {
    return this.assertWaiting(await this.findForHolder(consentId));
  }

  /** The page was opened: the consent's open authorisations are started. */
  async markStarted(consentId: string): Promise<Consent> {
    const consent = await this.findWaiting(consentId);
    await this.store.write(() => this.authorisations.moveOpen('consent', consentId, { type: 'START' }));
    return consent;
  }

  /** When the world's date changed (ClockService.enter): each of its consents past its validUntil expires now, not only when next read; the bank's fixtures never change (asOf). */
  private async expireDue(world: World, today: string): Promise<void> {
    const due = { status: In<ConsentStatus>(['received', 'valid']), validUntil: LessThan(today), ...ownedBy(world) };
    for (const consent of await this.store.read(Consent).findBy([
      { ...due, fixture: false },
      { ...due, scenarioId: Not(IsNull()) },
    ]))
      await this.catchUp(consent);
  }

  /**
   * Catch-up, the one place a read writes (docs/development.md, "Catch-up"): a consent whose
   * validUntil the clock has passed expires when it is next read, and its open authorisations
   * fail with it, as it can no longer be authorised.
   */
  private async catchUp(consent: Consent): Promise<Consent> {
    const today = this.clock.today(World.of(consent));
    if (!isDueToExpire(consent, today)) return consent; // the common read opens no transaction
    return this.store.write(async () => {
      const { entity, accepted } = await this.apply(consent, { type: 'EXPIRE', today });
      if (accepted) await this.authorisations.moveOpen('consent', consent.id, { type: 'FAIL' });
      return entity;
    });
  }

  private apply(consent: Consent, event: ConsentEvent, also: Partial<Consent> = {}): Promise<{ entity: Consent; accepted: boolean }> {
    // A consent of a client's (never one of the bank's fixtures): dated in its world.
    return applyEvent(this.machine, consent, event, { ...also, lastActionDate: this.clock.today(World.of(consent)) });
  }

  /** Only a consent the holder has not decided on yet can be authorised (409 otherwise). */
  private assertWaiting(consent: Consent): Consent {
    if (!isAwaitingSca(consent.status)) throw notWaiting(consent);
    return consent;
  }

  /** SCA deemed done with no holder to ask (SCA_MODE=auto): a consent for every account gets the bank's accounts (and keeps what else it asked). */
  private async grantedAtOnce(access: ConsentAccess): Promise<ConsentAccess> {
    return access.availableAccounts === 'allAccounts' ? allAccountsGranted(access, await this.banksAccounts()) : access;
  }

  private async banksAccounts(): Promise<ConsentedAccount[]> {
    // The bank's accounts only: a scenario's accounts belong to the suite that created it; so do the other kinds' (AccountKinds).
    const accounts = await this.store.read(Account).find({ where: { scenarioId: IsNull() }, order: { iban: 'ASC' } });
    return [...accounts.map(({ iban, currency }) => ({ iban, currency })), ...this.kinds.bankOwned()];
  }
}

/**
 * A fixture consent as a world sees it at its date `today`: expired the day after its validUntil,
 * as the clock's catch-up would have made it, without a write (the fixtures are shared).
 */
function asOf(fixture: Consent, today: string): Consent {
  return isDueToExpire(fixture, today) ? { ...fixture, status: 'expired', lastActionDate: addDays(fixture.validUntil, 1) } : { ...fixture };
}

/** One of the bank's fixture consents, which are everyone's; a scenario's consent is its suite's. */
const isBanksFixture = ({ fixture, scenarioId }: Consent): boolean => fixture && scenarioId === null;

/** What the consent grants, decided by the accounts `held`; 401 when the PSU does not hold them all. */
function accessHeldBy(consent: Consent, held: ConsentedAccount[]): ConsentAccess {
  const access = accessDecidedBy(consent.access, held);
  if (!access) throw refusal('psuCredentialsInvalid', `the PSU does not hold the accounts of consent ${consent.id}`);
  return access;
}

/** What a refusal says of a consent: of one of the bank's fixtures, that it stays as it is, and what to do instead. */
const fixtureOr = (consent: Consent, why: string): string =>
  fixtureOrAny(isBanksFixture(consent), 'create a consent of your own (POST /v1/consents with availableAccounts)', why);

const notRevocable = (consent: Consent) =>
  refusal('notWaiting', `consent ${consent.id} is ${fixtureOr(consent, `${consent.status}, not a valid consent the holder can revoke`)}`);

const notWaiting = (consent: Consent) =>
  refusal('notWaiting', `consent ${consent.id} is ${fixtureOr(consent, `${consent.status}, not waiting for the account holder`)}`);
