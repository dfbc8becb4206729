import { Injectable } from '@nestjs/common';
import type { Authorisation } from '../authorisation/authorisation.entity';
import type { ScaDecision } from '../authorisation/authorisation.machine';
import { AuthorisationRequest, AuthorisationService } from '../authorisation/authorisation.service';
import type { Authorisable } from '../authorisation/authorisation-port.service';
import { Ledger } from '../bank/ledger';
import { fixtureOr, FormatError, refusal, isRefusal, staysAsFixture } from '../common/error-catalogue';
import { Fixtures } from '../bank/fixtures';
import { newResourceId } from '../common/resource-id';
import type { Consent, ConsentedAccount } from '../consent/consent.entity';
import { isAwaitingSca as consentAwaitsSca } from '../consent/consent.machine';
import { accessDecidedBy } from '../consent/consent-access';
import { ConsentService } from '../consent/consent.service';
import { applyEvent, insertNew, MachineBinding } from '../database/status-change';
import { Store } from '../database/store';
import { EventHistory } from '../events/event-history.service';
import { isOwnedBy, ownedBy, World } from '../world/world';
import type { Payment } from '../payment-initiation/payment.entity';
import { isAwaitingSca as paymentAwaitsSca } from '../payment-initiation/payment.machine';
import { PaymentInitiationService } from '../payment-initiation/payment-initiation.service';
import { SigningBasket } from './signing-basket.entity';
import { basketPath } from './signing-basket.dto';
import type { NotificationRequest } from '../notifications/notification-headers.decorator';
import { NotificationsService } from '../notifications/notifications.service';
import { basketMachine, BasketEvent, initialBasketStatus, isOpen } from './signing-basket.machine';

/** What a basket asks to authorise: payment and consent IDs of its client. */
export interface BasketRequest {
  paymentIds?: string[];
  consentIds?: string[];
}

/** A basket's members as they stand now. */
interface Members {
  payments: Payment[];
  consents: Consent[];
}

/**
 * Signing baskets (docs/signing-baskets.md): one SCA authorises every member still waiting for
 * its own, each then moving as if authorised alone, all in one write. A member stays the TPP's
 * to cancel or delete until then; the basket's SCA skips what no longer waits.
 */
@Injectable()
export class SigningBasketService {
  private readonly machine: MachineBinding<SigningBasket, typeof basketMachine>;

  constructor(
    private readonly store: Store,
    private readonly authorisations: AuthorisationService,
    private readonly consents: ConsentService,
    private readonly payments: PaymentInitiationService,
    private readonly ledger: Ledger,
    history: EventHistory,
    private readonly notifications: NotificationsService,
    private readonly fixtures: Fixtures,
  ) {
    this.machine = {
      store,
      target: SigningBasket,
      machine: basketMachine,
      contextOf: () => ({}),
      history,
      kind: 'basket',
      placeOf: ({ ownerId }) => ({ ownerId, parentId: null }),
    };
  }

  /** A basket as an authorisable kind: what the SCA of every channel asks of it (the descriptor's ports). */
  authorisable(): Authorisable {
    return {
      kind: 'basket',
      resource: SigningBasket,
      failedOutcome: 'signing basket is rejected (its members wait for their own SCA)',
      isHeldBy: async (basketId, held) => this.holds((await this.findWaiting(basketId)).waiting, held),
      decide: async (basketId, decision, held, world) => {
        const { basket, redirectUri } = await this.decide(basketId, decision, held, world);
        return { status: basket.status, redirectUri };
      },
      fail: async (basketId) => void (await this.settle((await this.findWaiting(basketId)).basket, 'deny')),
    };
  }

  /**
   * Stores the basket, RCVD, with its implicit authorisation. Its members must be the client's,
   * waiting for SCA and in no other open basket: checked inside the write, under a lock, so that
   * two baskets created at once cannot share a member.
   */
  async create(
    request: BasketRequest,
    authorisationRequest: AuthorisationRequest,
    world: World,
    notification: NotificationRequest | null,
  ): Promise<{ basket: SigningBasket; authorisation: Authorisation }> {
    const paymentIds = [...new Set(request.paymentIds ?? [])];
    const consentIds = [...new Set(request.consentIds ?? [])];
    if (paymentIds.length + consentIds.length === 0)
      throw new FormatError('paymentIds', 'the basket must name at least one payment or consent (paymentIds, consentIds)');
    const basket = Object.assign(new SigningBasket(), {
      id: newResourceId(),
      status: initialBasketStatus(),
      paymentIds,
      consentIds,
      ownerId: world.ownerId,
    });
    const authorisation = await this.store.write(async () => {
      await this.store.lock('signing-baskets');
      await this.assertFree(await this.membersOf(basket, world), world);
      await insertNew(this.machine, basket);
      if (notification)
        await this.notifications.subscribe(
          notification,
          { resourceId: basket.id, kind: 'basket', ownerId: basket.ownerId },
          basketPath(basket.id),
        );
      return this.authorisations.open('basket', basket.id, authorisationRequest, basket.ownerId);
    });
    return { basket, authorisation };
  }

  /**
   * The basket as a read answers it: in SCA_MODE=auto its first read completes its SCA, as a
   * payment's or a consent's is deemed done (docs/signing-baskets.md), so that a generic client's
   * basket completes without the control API.
   */
  async read(basketId: string, world: World): Promise<SigningBasket> {
    const basket = await this.find(basketId, world);
    if (!this.authorisations.decidesAtOnce || basket.status !== 'RCVD') return basket;
    try {
      return (await this.store.write(() => this.settle(basket, 'approve'))).basket;
    } catch (error) {
      // A concurrent read or the TPP's delete settled it first: answer it as it now stands.
      if (isRefusal(error, 'basketClosed')) return this.find(basketId, world);
      throw error;
    }
  }

  async find(basketId: string, world: World): Promise<SigningBasket> {
    const basket = await this.lookUp(basketId);
    // The fixture basket is everyone's (docs/profiles.md, "Fixtures"); what a client created is its own.
    if (!basket || !(this.isFixture(basket) || isOwnedBy(basket, world))) throw basketUnknown(basketId);
    return basket;
  }

  private async lookUp(basketId: string): Promise<SigningBasket | null> {
    return this.fixtures.with(SigningBasket, 'id', basketId)[0] ?? (await this.store.findByKey(SigningBasket, basketId));
  }

  private isFixture({ id }: SigningBasket): boolean {
    return this.fixtures.has(SigningBasket, 'id', id);
  }

  /** The basket, unless it is the fixture, which nothing changes. */
  private changeable(basket: SigningBasket): SigningBasket {
    if (this.isFixture(basket)) throw notOpen(basket, true);
    return basket;
  }

  /** DELETE: only an open basket goes (CANC), with its open authorisations; its members stay as they are. */
  async delete(basketId: string, world: World): Promise<void> {
    const basket = this.changeable(await this.find(basketId, world));
    await this.store.write(async () => {
      const { entity, accepted } = await this.apply(basket, { type: 'CANCEL' });
      if (!accepted) throw notOpen(entity);
      await this.authorisations.moveOpen('basket', basketId, { type: 'FAIL' });
    });
  }

  /** A further authorisation of an open basket (Berlin Group start authorisation). */
  async startAuthorisation(basketId: string, request: AuthorisationRequest, world: World): Promise<Authorisation> {
    const basket = assertOpen(this.changeable(await this.find(basketId, world)));
    return this.store.write(() => this.authorisations.open('basket', basketId, request, basket.ownerId));
  }

  async authorisationIds(basketId: string, world: World): Promise<string[]> {
    await this.find(basketId, world);
    return this.authorisations.ids('basket', basketId);
  }

  async findAuthorisation(basketId: string, authorisationId: string, world: World): Promise<Authorisation | null> {
    await this.find(basketId, world);
    return this.authorisations.lookUp('basket', basketId, authorisationId);
  }

  /** An open basket, as the SCA page shows it, with its members still waiting; 409 otherwise. */
  async findWaiting(basketId: string): Promise<{ basket: SigningBasket; waiting: Members }> {
    // The holder's side: the ID in the page's link opens the basket, in its client's world (docs/security.md, "Worlds").
    const found = await this.lookUp(basketId);
    if (!found) throw basketUnknown(basketId);
    const basket = assertOpen(this.changeable(found));
    return { basket, waiting: waitingOf(await this.membersOf(basket, World.of(basket))) };
  }

  /** The page was opened: the basket's open authorisations are started. */
  async markStarted(basketId: string): Promise<{ basket: SigningBasket; waiting: Members }> {
    const found = await this.findWaiting(basketId);
    await this.store.write(() => this.authorisations.moveOpen('basket', basketId, { type: 'START' }));
    return found;
  }

  /** The holder's decision (docs/signing-baskets.md); 401 where they do not hold every member still waiting. */
  async decide(
    basketId: string,
    decision: ScaDecision,
    held: ConsentedAccount[],
    world: World,
  ): Promise<{ basket: SigningBasket; redirectUri: string | null }> {
    const basket = assertOpen(this.changeable(await this.find(basketId, world)));
    return this.store.write(() => this.settle(basket, decision, held));
  }

  /**
   * Inside a Store.write: approval authorises each member still waiting as its own SCA would (its
   * authorisations finalised), then the basket; denial (or a failed SCA, with no holder known)
   * rejects the basket only, and its members wait for their own SCA. A holder named (`held`) must
   * hold every member still waiting: 401 otherwise, and the write changes nothing.
   */
  async settle(
    basket: SigningBasket,
    decision: ScaDecision,
    held?: ConsentedAccount[],
  ): Promise<{ basket: SigningBasket; redirectUri: string | null }> {
    // Payments book: the ledger first, before any other change of this write (bank/ledger.ts).
    if (decision === 'approve') await this.ledger.serialize(World.of(basket));
    const { consents, payments } = waitingOf(await this.membersOf(basket, World.of(basket)));
    if (held && !this.holds({ consents, payments }, held)) {
      throw refusal('psuCredentialsInvalid', `the PSU does not hold the accounts of every member of signing basket ${basket.id}`);
    }
    if (decision === 'approve') {
      for (const consent of consents)
        await unlessGone(this.consents.settle(consent, 'approve', accessDecidedBy(consent.access, held ?? []) ?? undefined));
      for (const payment of payments) await unlessGone(this.payments.settle(payment, 'payment', 'approve'));
    }
    const { entity, accepted } = await this.apply(basket, decision === 'approve' ? { type: 'SCA_COMPLETED' } : { type: 'SCA_DENIED' });
    if (!accepted) throw notOpen(entity); // another decision or the TPP's delete won the race
    const redirectUri = await this.authorisations.moveOpen('basket', basket.id, { type: decision === 'approve' ? 'FINALISE' : 'FAIL' });
    return { basket: entity, redirectUri };
  }

  /** The members as they stand; 400 RESOURCE_UNKNOWN for an ID that is not one of the client's. */
  private async membersOf({ paymentIds, consentIds }: SigningBasket, world: World): Promise<Members> {
    const member = async <T>(find: () => Promise<T>, id: string): Promise<T> => {
      try {
        return await find();
      } catch (error) {
        if (isRefusal(error, 'paymentUnknown', 'consentUnknown')) throw unknownMember(id);
        throw error;
      }
    };
    const payments: Payment[] = [];
    for (const id of paymentIds) payments.push(await member(() => this.payments.findById(id, world), id));
    const consents: Consent[] = [];
    for (const id of consentIds) consents.push(await member(() => this.consents.findCurrent(id, world), id));
    return { payments, consents };
  }

  /** Every member waits for SCA and is in no other open basket (of the same client: members are its own); 409 REFERENCE_STATUS_INVALID otherwise. */
  private async assertFree({ payments, consents }: Members, world: World): Promise<void> {
    const open = await this.store.read(SigningBasket).findBy({ status: 'RCVD', ...ownedBy(world) });
    const inBasket = (id: string, of: 'paymentIds' | 'consentIds') => open.find((basket) => basket[of].includes(id));
    for (const payment of payments) {
      if (this.payments.isFixture(payment))
        throw referenceInvalid(
          `payment ${payment.id} is ${staysAsFixture('initiate a payment of your own with TPP-Explicit-Authorisation-Preferred: true and name it here')}`,
        );
      if (!paymentAwaitsSca(payment.status)) throw referenceInvalid(`payment ${payment.id} is ${payment.status}, not waiting for SCA`);
      const other = inBasket(payment.id, 'paymentIds');
      if (other) throw referenceInvalid(`payment ${payment.id} is in signing basket ${other.id} already`);
    }
    for (const consent of consents) {
      if (!consentAwaitsSca(consent.status) || consent.fixture)
        throw referenceInvalid(
          `consent ${consent.id} is ${consent.fixture ? "one of the bank's fixtures" : consent.status}, not waiting for SCA`,
        );
      const other = inBasket(consent.id, 'consentIds');
      if (other) throw referenceInvalid(`consent ${consent.id} is in signing basket ${other.id} already`);
    }
  }

  /** Whether `held` covers the members: their consents' accounts and their payments' debtors. */
  private holds({ consents, payments }: Members, held: ConsentedAccount[]): boolean {
    return (
      consents.every((consent) => this.consents.isHeldBy(consent, held)) &&
      payments.every((payment) => this.payments.isHeldBy(payment, held))
    );
  }

  private apply(basket: SigningBasket, event: BasketEvent): Promise<{ entity: SigningBasket; accepted: boolean }> {
    return applyEvent(this.machine, basket, event);
  }
}

/** A member the TPP cancelled or deleted, or that was authorised alone, after it was read here: it no longer waits, and is skipped. */
async function unlessGone(settled: Promise<unknown>): Promise<void> {
  try {
    await settled;
  } catch (error) {
    if (!isRefusal(error, 'notWaiting')) throw error;
  }
}

const waitingOf = ({ payments, consents }: Members): Members => ({
  payments: payments.filter(({ status }) => paymentAwaitsSca(status)),
  consents: consents.filter(({ status }) => consentAwaitsSca(status)),
});

function assertOpen(basket: SigningBasket): SigningBasket {
  if (!isOpen(basket.status)) throw notOpen(basket);
  return basket;
}

const notOpen = ({ id, status }: SigningBasket, fixture = false) =>
  refusal(
    'basketClosed',
    `signing basket ${id} is ${fixtureOr(fixture, 'create a basket of your own (POST /v1/signing-baskets)', `${status}: only an open (RCVD) basket is authorised or deleted`)}`,
  );

const unknownMember = (id: string) => refusal('basketMemberUnknown', `${id} is no payment or consent of this client`);

const referenceInvalid = (description: string) => refusal('basketMemberInvalid', description);

const basketUnknown = (basketId: string) => refusal('basketUnknown', `signing basket ${basketId} unknown`);
