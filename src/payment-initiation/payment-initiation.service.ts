import { Injectable } from '@nestjs/common';
import { isOwnedBy, World } from '../world/world';
import { Authorisation, AuthorisationKind } from '../authorisation/authorisation.entity';
import type { Authorisable } from '../authorisation/authorisation-port.service';
import { AuthorisationRequest, AuthorisationService, IMPLICIT_AUTHORISATION_ID } from '../authorisation/authorisation.service';
import { ClockService } from '../clock/clock.service';
import { fixtureOr, refusal } from '../common/error-catalogue';
import { Fixtures } from '../bank/fixtures';
import { newResourceId } from '../common/resource-id';
import type { NotificationRequest } from '../notifications/notification-headers.decorator';
import { NotificationsService } from '../notifications/notifications.service';
import { applyEvent, insertNew } from '../database/status-change';
import { Store } from '../database/store';
import type { ScaDecision } from '../authorisation/authorisation.machine';
import type { ConsentedAccount } from '../consent/consent.entity';
import { FailedInstalment } from './failed-instalment.entity';
import { Payment } from './payment.entity';
import { contextOf, Funds, isPeriodic, PaymentExecutionService } from './payment-execution.service';
import { initialPaymentStatus, isAwaitingCancellationSca, isAwaitingSca, PaymentEvent } from './payment.machine';
import { jsonTwinOf, PaymentType } from './payment-products';
import { checkDates, creditorsOf, PaymentBody, termsOf } from './payment-terms';
import { ScaExemptions } from './sca-exemptions.service';
import { VerificationOfPayeeService, vopEventOf, VopRequest } from '../verification-of-payee/verification-of-payee.service';
import { refusalOf } from './refusals';

/** Whether a payment waits for the holder's decision of this kind of authorisation. */
const awaits = (payment: Payment, kind: Exclude<AuthorisationKind, 'consent'>): boolean =>
  kind === 'payment' ? isAwaitingSca(payment.status) : isAwaitingCancellationSca(payment.status, contextOf(payment));

@Injectable()
export class PaymentInitiationService {
  constructor(
    private readonly store: Store,
    private readonly authorisations: AuthorisationService,
    private readonly execution: PaymentExecutionService,
    private readonly clock: ClockService,
    private readonly notifications: NotificationsService,
    private readonly vop: VerificationOfPayeeService,
    private readonly exemptions: ScaExemptions,
    private readonly fixtures: Fixtures,
  ) {}

  /** A payment's SCA and its cancellation's are two authorisable kinds (docs/development.md, "Authorisation"; registered in src/service-ports.ts). */
  authorisables(): Authorisable[] {
    return (['payment', 'cancellation'] as const).map((kind) => ({
      kind,
      resource: Payment,
      failedOutcome: kind === 'payment' ? 'payment is rejected' : 'payment stays as it is',
      isHeldBy: async (paymentId: string, held: ConsentedAccount[]) => this.isHeldBy(await this.findWaiting(paymentId, kind), held),
      decide: async (paymentId: string, decision: ScaDecision, held: ConsentedAccount[], world: World) => {
        const { payment, redirectUri } = await this.decide(paymentId, kind, decision, held, world);
        return { status: payment.status, redirectUri };
      },
      fail: async (paymentId: string) => void (await this.settle(await this.findWaiting(paymentId, kind), kind, 'deny')),
    }));
  }

  /**
   * Stores the payment, RCVD, with its implicit authorisation: once answered 200 both are in the
   * database. Where the payee is checked, the result moves it on at once (RCVC, or RVCM and RVNC,
   * whose authorisation waits for the payer's confirmation: docs/verification-of-payee.md). A
   * payment the bank exempts from SCA (ScaExemptions) moves on as if authorised,
   * and has no authorisation (null); nor has one whose TPP starts it explicitly (docs/signing-baskets.md).
   */
  async initiate(
    type: PaymentType,
    body: PaymentBody,
    {
      request,
      notification,
      vop,
      document = null,
    }: { request: AuthorisationRequest; notification: NotificationRequest | null; vop: VopRequest; document?: string | null },
    world: World,
  ): Promise<{ payment: Payment; authorisation: Authorisation | null }> {
    checkDates(body, this.clock.today(world));
    const terms = termsOf(body);
    const creditors = creditorsOf(body);
    const vopResults = await this.vop.checkCreditors(creditors, vop, world);
    const exempted = await this.exemptions.exempts(
      terms.debtorIban,
      creditors.map(({ iban }) => iban),
      world,
    );
    const payment = Object.assign(new Payment(), {
      id: newResourceId(),
      ...type,
      ...terms,
      status: initialPaymentStatus(),
      instalmentsRun: 0,
      lastDueDate: null,
      reasonCode: null,
      body,
      ownerId: world.ownerId,
      vopResults,
      document,
    });
    const authorisation = await this.store.write(async () => {
      await insertNew(this.execution.machine, payment);
      if (notification)
        await this.notifications.subscribe(
          notification,
          { resourceId: payment.id, kind: 'payment', ownerId: payment.ownerId },
          `/v1/${type.service}/${type.product}/${payment.id}`,
        );
      if (vopResults) await applyEvent(this.execution.machine, payment, { type: vopEventOf(vopResults) });
      if (exempted && isAwaitingSca(payment.status)) {
        Object.assign(payment, (await this.execution.settle(payment, this.scaCompleted(payment))).entity);
        return null;
      }
      // The TPP starts the authorisation itself (a signing basket); a payee confirmation keeps the held one it releases.
      if (request.explicit && isAwaitingSca(payment.status)) return null;
      return this.authorisations.open('payment', payment.id, request, payment.ownerId, !isAwaitingSca(payment.status));
    });
    return { payment, authorisation };
  }

  /** The payment as it stands (catchUp). */
  async find(type: PaymentType, paymentId: string, world: World): Promise<Payment> {
    return this.catchUp(await this.findStored(type, paymentId, world));
  }

  /** The payment as it stands, under whichever service and product it was initiated (the cockpit). */
  async findAnyProduct(paymentId: string, world: World): Promise<Payment> {
    return this.catchUp(await this.findById(paymentId, world));
  }

  /**
   * Catch-up, the one place a read writes (docs/development.md, "Catch-up"): in auto mode a
   * payment's first read completes SCA (docs/behaviour.md). What falls due later is the clock's
   * business (ClockService.catchUp).
   */
  private async catchUp(stored: Payment): Promise<Payment> {
    if (!this.authorisations.decidesAtOnce || !isAwaitingSca(stored.status)) return stored; // the common read opens no transaction
    return this.store.write(async () => {
      // The holder approves at once; the payment's authorisations are finalised with it.
      const { entity, accepted } = await this.execution.settle(stored, this.scaCompleted(stored));
      if (accepted) await this.authorisations.moveOpen('payment', entity.id, { type: 'FINALISE' });
      return entity;
    });
  }

  /**
   * The payer pays anyway after the payee check (RVCM, RVNC): the payment moves to RCVC and its
   * authorisation, held until now, is answered with the links SCA needs. 409 in any other status.
   */
  async confirmCreditor(type: PaymentType, paymentId: string, world: World): Promise<{ payment: Payment; authorisation: Authorisation }> {
    const stored = this.changeable(await this.findStored(type, paymentId, world), payeeNotAwaited);
    return this.store.write(async () => {
      const { entity, accepted } = await applyEvent(this.execution.machine, stored, { type: 'CREDITOR_CONFIRMED' });
      if (!accepted) throw payeeNotAwaited(entity);
      const authorisation = await this.authorisations.find('payment', paymentId, IMPLICIT_AUTHORISATION_ID);
      return { payment: entity, authorisation: await this.authorisations.release(authorisation) };
    });
  }

  /** DELETE: RCVD is cancelled at once; PDNG needs the holder to authorise the cancellation. */
  async cancel(type: PaymentType, paymentId: string, world: World): Promise<{ cancelled: true } | { cancelled: false; payment: Payment }> {
    const stored = this.changeable(await this.findStored(type, paymentId, world), cancellationInvalid);
    const { entity: payment, accepted } = await this.store.write(async () => {
      const cancelled = await applyEvent(this.execution.machine, stored, { type: 'CANCEL' });
      if (cancelled.accepted) await this.authorisations.moveOpen('payment', paymentId, { type: 'FAIL' });
      return cancelled;
    });
    if (accepted) return { cancelled: true };
    if (awaits(payment, 'cancellation')) return { cancelled: false, payment };
    throw cancellationInvalid(payment);
  }

  /** Berlin Group start authorisation: of the payment (RCVD) or of its cancellation (PDNG); in SCA_MODE=auto decided at once. */
  async startAuthorisation(
    type: PaymentType,
    paymentId: string,
    kind: 'payment' | 'cancellation',
    request: AuthorisationRequest,
    world: World,
  ): Promise<Authorisation> {
    const payment = this.changeable(await this.findStored(type, paymentId, world), notWaiting);
    if (kind === 'cancellation' && jsonTwinOf(payment.product) === 'instant-sepa-credit-transfers') throw cancellationNotOffered(payment);
    if (!awaits(payment, kind)) throw notWaiting(payment);
    return this.store.write(() =>
      this.authorisations.start(kind, paymentId, request, payment.ownerId, () => this.settle(payment, kind, 'approve')),
    );
  }

  async authorisationIds(type: PaymentType, paymentId: string, kind: 'payment' | 'cancellation', world: World): Promise<string[]> {
    await this.findStored(type, paymentId, world);
    return this.authorisations.ids(kind, paymentId);
  }

  async findAuthorisation(
    type: PaymentType,
    paymentId: string,
    kind: 'payment' | 'cancellation',
    authorisationId: string,
    world: World,
  ): Promise<Authorisation | null> {
    await this.findStored(type, paymentId, world);
    return this.authorisations.lookUp(kind, paymentId, authorisationId);
  }

  async findById(paymentId: string, world: World): Promise<Payment> {
    const payment = await this.lookUp(paymentId);
    // The bank's fixture payments are everyone's; what a client initiated is its own.
    if (!payment || !(this.isFixture(payment) || isOwnedBy(payment, world))) throw paymentUnknown(paymentId);
    return payment;
  }

  /**
   * The account holder's decision on the payment (approve: the funds and date rules) or on its
   * cancellation (approve: CANC; deny: it stays PDNG). Only the debtor account's holder decides.
   */
  async decide(
    paymentId: string,
    kind: 'payment' | 'cancellation',
    decision: ScaDecision,
    held: ConsentedAccount[],
    world: World,
  ): Promise<{ payment: Payment; redirectUri: string | null }> {
    const payment = this.assertWaiting(await this.findById(paymentId, world), kind);
    if (!this.isHeldBy(payment, held)) {
      throw refusal('psuCredentialsInvalid', `the PSU does not hold the debtor account of payment ${paymentId}`);
    }
    return this.store.write(() => this.settle(payment, kind, decision));
  }

  /** Whether the accounts held include the debtor account: the check of every decision on the payment. */
  isHeldBy(payment: Payment, held: ConsentedAccount[]): boolean {
    return held.some((account) => 'iban' in account && account.iban === payment.debtorIban);
  }

  /**
   * The effects of a decision, inside a Store.write, once the holder is known to hold the debtor
   * account (decide). A failed SCA (the third wrong TAN) denies with no holder known.
   */
  async settle(
    payment: Payment,
    kind: 'payment' | 'cancellation',
    decision: ScaDecision,
  ): Promise<{ payment: Payment; redirectUri: string | null }> {
    const events: Record<typeof kind, Record<ScaDecision, ((funds: Funds) => PaymentEvent) | null>> = {
      payment: { approve: this.scaCompleted(payment), deny: () => ({ type: 'SCA_DENIED' }) },
      // A denied cancellation leaves the payment as it is: only its authorisations fail.
      cancellation: { approve: () => ({ type: 'CANCELLATION_AUTHORISED' }), deny: null },
    };
    const event = events[kind][decision];
    let decided = payment;
    if (event) {
      const { entity, accepted } = await this.execution.settle(payment, event);
      if (!accepted) throw notWaiting(entity); // another decision won the race
      decided = entity;
    }
    const redirectUri = await this.authorisations.moveOpen(kind, payment.id, { type: decision === 'approve' ? 'FINALISE' : 'FAIL' });
    return { payment: decided, redirectUri };
  }

  /** A payment waiting for this kind of decision, as the SCA page shows it; 409 otherwise. */
  async findWaiting(paymentId: string, kind: 'payment' | 'cancellation'): Promise<Payment> {
    // The holder's side: the ID in the page's link opens the payment, in its client's world (docs/security.md, "Worlds").
    const payment = await this.lookUp(paymentId);
    if (!payment) throw paymentUnknown(paymentId);
    return this.assertWaiting(payment, kind);
  }

  /** The SCA page was opened: open authorisations of that kind are started. */
  async markStarted(paymentId: string, kind: 'payment' | 'cancellation'): Promise<Payment> {
    const payment = await this.findWaiting(paymentId, kind);
    await this.store.write(() => this.authorisations.moveOpen(kind, paymentId, { type: 'START' }));
    return payment;
  }

  /** A periodic payment's progress: how many instalments ran, when the next one runs, and those that failed. */
  async instalments(
    paymentId: string,
    world: World,
  ): Promise<{ instalmentsRun: number; nextExecutionDate: string | null; failed: FailedInstalment[] }> {
    const payment = await this.findById(paymentId, world);
    if (!isPeriodic(payment)) throw paymentUnknown(paymentId);
    // Cancellable exactly while instalments are to come (payment.machine.ts).
    const toCome = isAwaitingCancellationSca(payment.status, contextOf(payment));
    const failed = await this.store.read(FailedInstalment).find({ where: { paymentId }, order: { number: 'ASC' } });
    return { instalmentsRun: payment.instalmentsRun, nextExecutionDate: toCome ? payment.nextExecutionDate : null, failed };
  }

  /**
   * SCA done: the machine then refuses a payment to a refused creditor (docs/failures.md), applies
   * the funds rule against the debtor's interimAvailable balance as it stands, then the date.
   */
  private scaCompleted(payment: Payment): (funds: Funds) => PaymentEvent {
    return ({ available, fits }) => ({
      type: 'SCA_COMPLETED',
      today: this.clock.today(World.of(payment)),
      available,
      refusal: refusalOf(payment.body) ?? (fits ? null : 'AM02'),
    });
  }

  /** A fixture payment from memory (docs/profiles.md, "Fixtures"), any other from the database. */
  private async lookUp(paymentId: string): Promise<Payment | null> {
    return this.fixtures.with(Payment, 'id', paymentId)[0] ?? (await this.store.findByKey(Payment, paymentId));
  }

  /** Whether it is one of the bank's fixture payments (docs/profiles.md, "Fixtures"), which nothing changes. */
  isFixture({ id }: Payment): boolean {
    return this.fixtures.has(Payment, 'id', id);
  }

  /** The payment, unless it is one of the bank's fixtures, which nothing changes: then the refusal a change of it would get. */
  private changeable(payment: Payment, refused: (payment: Payment, fixture: boolean) => Error): Payment {
    if (this.isFixture(payment)) throw refused(payment, true);
    return payment;
  }

  private assertWaiting(payment: Payment, kind: 'payment' | 'cancellation'): Payment {
    if (this.isFixture(payment)) throw notWaiting(payment, true);
    if (!awaits(payment, kind)) throw notWaiting(payment);
    return payment;
  }

  private async findStored({ service, product }: PaymentType, paymentId: string, world: World): Promise<Payment> {
    const payment = await this.findById(paymentId, world);
    if (payment.service !== service || payment.product !== product) throw paymentUnknown(paymentId);
    return payment;
  }
}

const paymentUnknown = (paymentId: string) => refusal('paymentUnknown', `payment ${paymentId} unknown`);
/** What a refusal says of a payment: of one of the bank's fixtures, that it stays as it is, and what to do instead. */
const paymentIs = ({ id, service, product }: Payment, fixture: boolean, why: string): string =>
  `payment ${id} is ${fixtureOr(fixture, `initiate a payment of your own (POST /v1/${service}/${product})`, why)}`;
const notWaiting = (payment: Payment, fixture = false) =>
  refusal('notWaiting', paymentIs(payment, fixture, `${payment.status}, not waiting for the account holder`));
const payeeNotAwaited = (payment: Payment, fixture = false) =>
  refusal('payeeNotAwaited', paymentIs(payment, fixture, `${payment.status}, not waiting for the payer to confirm the payee`));
const cancellationNotOffered = ({ id }: Payment) =>
  refusal('neverCancellable', `payment ${id} is an instant payment and can never be cancelled`);
const cancellationInvalid = (payment: Payment, fixture = false) =>
  refusal('cancellationInvalid', paymentIs(payment, fixture, `${payment.status} and cannot be cancelled`));
