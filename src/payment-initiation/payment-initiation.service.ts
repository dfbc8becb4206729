import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LessThanOrEqual } from 'typeorm';
import { Balance } from '../bank/account.entity';
import { isOwnedBy, Owner } from '../oauth/owner';
import { Authorisation, AuthorisationKind } from '../authorisation/authorisation.entity';
import { AuthorisationService } from '../authorisation/authorisation.service';
import { ClockService } from '../clock/clock.service';
import { DomainError } from '../common/error-catalogue';
import { newResourceId } from '../common/resource-id';
import { Environment } from '../config/environment';
import { applyEvent, MachineBinding } from '../database/status-change';
import { Store } from '../database/store';
import type { ScaDecision } from '../authorisation/authorisation.machine';
import { Payment } from './payment.entity';
import { initialPaymentStatus, isAwaitingCancellationSca, isAwaitingSca, isDue, PaymentContext, PaymentEvent, paymentMachine, PaymentStatus } from './payment.machine';
import { PaymentType } from './payment-products';
import { checkDates, PaymentBody, termsOf } from './payment-terms';

const contextOf = ({ amount, executionDate, product }: Pick<Payment, 'amount' | 'executionDate' | 'product'>): PaymentContext => ({
  amount,
  executionDate,
  instant: product === 'instant-sepa-credit-transfers',
});

/** Whether a payment waits for the holder's decision of this kind of authorisation. */
const awaits = (payment: Payment, kind: Exclude<AuthorisationKind, 'consent'>): boolean =>
  kind === 'payment' ? isAwaitingSca(payment.status) : isAwaitingCancellationSca(payment.status, contextOf(payment));

@Injectable()
export class PaymentInitiationService {
  private readonly machine: MachineBinding<Payment, typeof paymentMachine>;

  constructor(
    private readonly store: Store,
    private readonly authorisations: AuthorisationService,
    private readonly clock: ClockService,
    private readonly config: ConfigService<Environment, true>,
  ) {
    this.machine = { store, target: Payment, machine: paymentMachine, contextOf };
  }

  /** Stores the payment, RCVD, with its implicit authorisation: once answered 200 both are in the database. */
  async initiate(type: PaymentType, body: PaymentBody, redirectUri: string | undefined, owner: Owner): Promise<Payment> {
    checkDates(body, this.clock.today());
    const terms = termsOf(body);
    const payment = Object.assign(new Payment(), {
      id: newResourceId(),
      ...type,
      ...terms,
      status: initialPaymentStatus(contextOf({ ...terms, product: type.product })),
      body,
      ownerId: owner ?? null,
    });
    await this.store.write(async () => {
      await this.store.insert(Payment, payment);
      await this.authorisations.open('payment', payment.id, redirectUri);
    });
    return payment;
  }

  /** The payment as it stands (catchUp). */
  async find(type: PaymentType, paymentId: string, owner: Owner): Promise<Payment> {
    return this.catchUp(await this.findStored(type, paymentId, owner));
  }

  /**
   * Catch-up, the one place a read writes (docs/development.md, "Catch-up"): in auto mode a
   * payment's first read completes SCA (docs/behaviour.md), and a PDNG payment whose date the
   * clock has reached executes.
   */
  private async catchUp(stored: Payment): Promise<Payment> {
    const today = this.clock.today();
    // The balance look-up is spared once SCA is over.
    const auto = this.config.get('SCA_MODE', { infer: true }) === 'auto' && isAwaitingSca(stored.status);
    const completed = auto ? await this.scaCompleted(stored) : null;
    if (!completed && !isDue(stored.status, contextOf(stored), today)) return stored; // the common read opens no transaction
    return this.store.write(async () => {
      let payment = stored;
      if (completed) {
        // The holder approves at once; the payment's authorisations are finalised with it.
        payment = (await applyEvent(this.machine, payment, completed)).entity;
        await this.authorisations.moveOpen('payment', payment.id, { type: 'FINALISE' });
      }
      return (await applyEvent(this.machine, payment, { type: 'EXECUTE', today })).entity;
    });
  }

  /** DELETE: RCVD is cancelled at once; PDNG needs the holder to authorise the cancellation. */
  async cancel(type: PaymentType, paymentId: string, owner: Owner): Promise<{ cancelled: true } | { cancelled: false; status: PaymentStatus }> {
    const stored = await this.findStored(type, paymentId, owner);
    const { entity: payment, accepted } = await this.store.write(async () => {
      const cancelled = await applyEvent(this.machine, stored, { type: 'CANCEL' });
      if (cancelled.accepted) await this.authorisations.moveOpen('payment', paymentId, { type: 'FAIL' });
      return cancelled;
    });
    if (accepted) return { cancelled: true };
    if (awaits(payment, 'cancellation')) return { cancelled: false, status: payment.status };
    throw cancellationInvalid(payment);
  }

  /** Berlin Group start authorisation: of the payment (RCVD) or of its cancellation (PDNG). */
  async startAuthorisation(
    type: PaymentType,
    paymentId: string,
    kind: 'payment' | 'cancellation',
    redirectUri: string | undefined,
    owner: Owner,
  ): Promise<Authorisation> {
    const payment = await this.findStored(type, paymentId, owner);
    if (kind === 'cancellation' && payment.product === 'instant-sepa-credit-transfers') throw cancellationNotOffered(payment);
    if (!awaits(payment, kind)) throw notWaiting(payment);
    return this.store.write(() => this.authorisations.open(kind, paymentId, redirectUri));
  }

  async authorisationIds(type: PaymentType, paymentId: string, kind: 'payment' | 'cancellation', owner: Owner): Promise<string[]> {
    await this.findStored(type, paymentId, owner);
    return this.authorisations.ids(kind, paymentId);
  }

  async findAuthorisation(
    type: PaymentType,
    paymentId: string,
    kind: 'payment' | 'cancellation',
    authorisationId: string,
    owner: Owner,
  ): Promise<Authorisation> {
    await this.findStored(type, paymentId, owner);
    return this.authorisations.find(kind, paymentId, authorisationId);
  }

  async findById(paymentId: string, owner: Owner): Promise<Payment> {
    const payment = await this.store.findByKey(Payment, paymentId);
    if (!payment || !isOwnedBy(payment, owner)) throw paymentUnknown(paymentId);
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
    heldIbans: string[],
    owner: Owner,
  ): Promise<{ payment: Payment; redirectUri: string | null }> {
    const payment = this.assertWaiting(await this.findById(paymentId, owner), kind);
    if (!heldIbans.includes(payment.debtorIban)) {
      throw new DomainError({ messageId: 'XS2A022E', description: `the PSU does not hold the debtor account of payment ${paymentId}` });
    }
    const events: Record<typeof kind, Record<ScaDecision, () => Promise<PaymentEvent | null>>> = {
      payment: { approve: () => this.scaCompleted(payment), deny: async () => ({ type: 'SCA_DENIED' }) },
      // A denied cancellation leaves the payment as it is: only its authorisations fail.
      cancellation: { approve: async () => ({ type: 'CANCELLATION_AUTHORISED' }), deny: async () => null },
    };
    const event = await events[kind][decision]();
    return this.store.write(async () => {
      let decided = payment;
      if (event) {
        const { entity, accepted } = await applyEvent(this.machine, payment, event);
        if (!accepted) throw notWaiting(entity); // another decision won the race
        decided = entity;
      }
      const redirectUri = await this.authorisations.moveOpen(kind, paymentId, { type: decision === 'approve' ? 'FINALISE' : 'FAIL' });
      return { payment: decided, redirectUri };
    });
  }

  /** A payment waiting for this kind of decision, as the SCA page shows it; 409 otherwise. */
  async findWaiting(paymentId: string, kind: 'payment' | 'cancellation'): Promise<Payment> {
    return this.assertWaiting(await this.findById(paymentId, undefined), kind);
  }

  /** The SCA page was opened: open authorisations of that kind are started. */
  async markStarted(paymentId: string, kind: 'payment' | 'cancellation'): Promise<Payment> {
    const payment = await this.findWaiting(paymentId, kind);
    await this.store.write(() => this.authorisations.moveOpen(kind, paymentId, { type: 'START' }));
    return payment;
  }

  /** After the clock moved: every pending payment whose date has come executes now. */
  async executeDue(): Promise<void> {
    const today = this.clock.today();
    const due = await this.store.read(Payment).findBy({ status: 'PDNG', executionDate: LessThanOrEqual(today) });
    await this.store.write(async () => {
      for (const payment of due) await applyEvent(this.machine, payment, { type: 'EXECUTE', today });
    });
  }

  /** SCA done: the machine then applies the funds rule against the debtor's interimAvailable balance, then the date. */
  private async scaCompleted(payment: Payment): Promise<PaymentEvent> {
    const available = await this.store.read(Balance).findOneBy({ accountIban: payment.debtorIban, balanceType: 'interimAvailable' });
    return { type: 'SCA_COMPLETED', today: this.clock.today(), available: available?.amount ?? null };
  }

  private assertWaiting(payment: Payment, kind: 'payment' | 'cancellation'): Payment {
    if (!awaits(payment, kind)) throw notWaiting(payment);
    return payment;
  }

  private async findStored({ service, product }: PaymentType, paymentId: string, owner: Owner): Promise<Payment> {
    const payment = await this.findById(paymentId, owner);
    if (payment.service !== service || payment.product !== product) throw paymentUnknown(paymentId);
    return payment;
  }
}

const paymentUnknown = (paymentId: string) => new DomainError({ messageId: 'XS2A015E', description: `payment ${paymentId} unknown` });
const notWaiting = ({ id, status }: Payment) =>
  new DomainError({ messageId: 'XS2A021E', description: `payment ${id} is ${status}, not waiting for the account holder` });
const cancellationNotOffered = ({ id }: Payment) =>
  new DomainError({ messageId: 'XS2A030E', description: `payment ${id} is an instant payment and can never be cancelled` });
const cancellationInvalid = ({ id, status }: Payment) =>
  new DomainError({ messageId: 'XS2A018E', description: `payment ${id} is ${status} and cannot be cancelled` });
