import { jsonTwinOf } from './payment-products';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { LessThanOrEqual } from 'typeorm';
import type { Transaction } from '../bank/account.entity';
import { Ledger, LedgerRun } from '../bank/ledger';
import { ClockService } from '../clock/clock.service';
import { EventEntry, EventHistory } from '../events/event-history.service';
import { isBelow } from '../common/amount';
import { applyEvent, MachineBinding } from '../database/status-change';
import { Store } from '../database/store';
import { ownedBy, World } from '../world/world';
import type { PeriodicPaymentDto } from './dto/periodic-payment.dto';
import { FailedInstalment } from './failed-instalment.entity';
import { Payment } from './payment.entity';
import { isAwaitingSca, isDue, PaymentContext, PaymentEvent, paymentMachine, PaymentStatus, refusalOnItsDate } from './payment.machine';
import { accountsOf, bookingsOf, entriesAhead, standingOrderOf } from './payment-bookings';
import { countInstalments, instalments, Instalment as ScheduledInstalment, ScheduleResume } from './schedule';

/** Executions per write when the clock catches up: however far it jumps, a write stays this size, and other worlds' requests are answered between two (docs/scenarios-and-clock.md). */
const CHUNK = 250;

export const contextOf = ({
  amount,
  executionDate,
  product,
  nextExecutionDate,
}: Pick<Payment, 'amount' | 'executionDate' | 'product' | 'nextExecutionDate'>): PaymentContext => ({
  amount,
  executionDate,
  instant: jsonTwinOf(product) === 'instant-sepa-credit-transfers',
  instalmentsToCome: nextExecutionDate !== null,
});

export const isPeriodic = (payment: Pick<Payment, 'service'>) => payment.service === 'periodic-payments';

/** One thing that falls due: a future-dated payment's execution, or one instalment of a periodic payment. */
interface Execution {
  payment: Payment;
  date: string;
  instalment?: ScheduledInstalment;
}

/** What a decision on a payment sees of its debtor (settle): interimAvailable, null for no account of ours; whether its bookings stay within the ceiling. */
export interface Funds {
  available: string | null;
  fits: boolean;
}

/**
 * Where payments and accounts meet (docs/living-bank.md): a status change that executes a
 * payment, or puts it ahead, books on the ledger in the same write, and the clock's moves run
 * what fell due in date order.
 */
@Injectable()
export class PaymentExecutionService implements OnModuleInit {
  readonly machine: MachineBinding<Payment, typeof paymentMachine>;

  constructor(
    private readonly store: Store,
    private readonly ledger: Ledger,
    private readonly clock: ClockService,
    private readonly history: EventHistory,
  ) {
    this.machine = {
      store,
      target: Payment,
      machine: paymentMachine,
      contextOf,
      history,
      kind: 'payment',
      placeOf: ({ ownerId }) => ({ ownerId, parentId: null }),
    };
  }

  onModuleInit(): void {
    this.clock.whenTimeMoves(
      (world, today) => this.executeDue(world, today),
      (world, today, limit) => this.countDue(world, today, limit),
    );
  }

  /**
   * Inside a write: the machine decides `event` (given the debtor's interimAvailable as it stands
   * now, for the funds rule), and what the new status means is booked: executed at once, pending
   * until its date, a standing order, or cancelled and taken away again; or refused, with the reason.
   */
  async settle(payment: Payment, event: (funds: Funds) => PaymentEvent): Promise<{ entity: Payment; accepted: boolean }> {
    const world = World.of(payment);
    const today = this.clock.today(world);
    const ledger = await this.ledger.open(accountsOf(payment), world);
    const from = payment.status;
    const decided = event({ available: ledger.available(payment.debtorIban), fits: await this.fits(ledger, payment, today) });
    // The machine refuses a refused creditor first: the reason goes with the RJCT it gives.
    const reason = decided.type === 'SCA_COMPLETED' && decided.refusal ? { reasonCode: decided.refusal } : {};
    const settled = await applyEvent(this.machine, payment, decided, reason);
    if (settled.accepted) await this.book(ledger, from, settled.entity, today);
    await ledger.commit(today);
    return settled;
  }

  /**
   * Whether what SCA would book of the payment, at once or pending until its date, leaves every
   * balance within the ceiling; a periodic payment's instalments are checked each on its date.
   */
  private async fits(ledger: LedgerRun, payment: Payment, today: string): Promise<boolean> {
    const debtor = ledger.live(payment.debtorIban);
    if (!debtor || isPeriodic(payment) || !isAwaitingSca(payment.status)) return true;
    const ahead = payment.executionDate !== null && payment.executionDate > today;
    const terms = ahead ? ({ date: payment.executionDate!, status: 'pending' } as const) : ({ date: today, status: 'booked' } as const);
    return ledger.fits(bookingsOf(payment, debtor, ledger, terms));
  }

  /** How many executions and instalments fall due in the world by `today`, counted up to `limit` (beyond it, limit + 1). */
  private async countDue(world: World, today: string, limit: number): Promise<number> {
    let count = 0;
    for (const payment of await this.dueIn(world, today)) {
      const most = limit + 1 - count;
      count +=
        isPeriodic(payment) && payment.nextExecutionDate !== null
          ? countInstalments(payment.body as PeriodicPaymentDto, resumeOf(payment), today, most)
          : executionsOf(payment, today, most).length;
      if (count > limit) break;
    }
    return count;
  }

  private dueIn(world: World, today: string): Promise<Payment[]> {
    const due = LessThanOrEqual(today);
    return this.store.read(Payment).find({
      where: [
        { status: 'PDNG', executionDate: due, ...ownedBy(world) },
        { status: 'ACSP', nextExecutionDate: due, ...ownedBy(world) },
      ],
    });
  }

  /** What fell due in the world by its `today`, in date order and each on its own date, in writes of at most CHUNK executions. */
  async executeDue(world: World, today: string): Promise<void> {
    let executed: number;
    do {
      executed = await this.store.write(async () => {
        await this.ledger.serialize(world);
        const payments = await this.dueIn(world, today);
        // Each was settled on a ledger of its world's accounts (settle): what falls due books only on those.
        const ledger = await this.ledger.open(payments.flatMap(accountsOf), world);
        const count = await this.execute(ledger, payments, today);
        await ledger.commit(today);
        return count;
      });
    } while (executed === CHUNK);
  }

  private async book(ledger: LedgerRun, from: PaymentStatus, payment: Payment, today: string): Promise<void> {
    const debtor = ledger.live(payment.debtorIban);
    const add = (rows: Transaction[]) => this.history.record(...this.enter(ledger, payment, rows));
    const periodic = isPeriodic(payment);
    if (payment.status === 'CANC') {
      if (debtor) await ledger.remove(entriesAhead(payment));
    } else if (payment.status === 'PDNG') {
      if (debtor)
        await add(
          periodic
            ? [standingOrderOf(payment, debtor)]
            : bookingsOf(payment, debtor, ledger, { date: payment.executionDate!, status: 'pending' }),
        );
    } else if (payment.status === 'ACSP' && isAwaitingSca(from)) {
      if (periodic) {
        await this.execute(ledger, [payment], today);
        if (debtor && payment.nextExecutionDate !== null) await add([standingOrderOf(payment, debtor)]);
      } else if (debtor) {
        await add(bookingsOf(payment, debtor, ledger, { date: today, status: 'booked' }));
      }
    }
  }

  /** Entries of a payment go into the ledger; answers what the history records of them (docs/events.md). */
  private enter(ledger: LedgerRun, payment: Payment, rows: Transaction[]): EventEntry[] {
    rows.forEach((row) => ledger.add(row));
    return rows.map((row) => ({
      kind: 'booking' as const,
      resourceId: row.transactionId,
      parentId: payment.id,
      // The account it is booked on, where a status change has its former status.
      fromStatus: row.accountIban,
      toStatus: row.bookingStatus,
      event: 'BOOKED',
      ownerId: payment.ownerId,
      // A booking happens on its date (an instalment's, say), a pending entry today.
      sandboxDate: row.bookingStatus === 'booked' ? (row.bookingDate ?? undefined) : undefined,
    }));
  }

  /** Executes, in date order, the first CHUNK of what fell due by `today` among `payments`; answers how many it executed. */
  private async execute(ledger: LedgerRun, payments: Payment[], today: string): Promise<number> {
    // A pending periodic payment is executed (ACSP) from its startDate; its instalments run on their own dates.
    for (const payment of payments.filter(isPeriodic)) {
      if (isDue(payment.status, contextOf(payment), today))
        await applyEvent(this.machine, payment, { type: 'EXECUTE', today: payment.executionDate!, available: null });
    }
    const executions = payments
      .flatMap((payment) => executionsOf(payment, today))
      .sort(
        (a, b) =>
          compare(a.date, b.date) || compare(a.payment.id, b.payment.id) || (a.instalment?.number ?? 0) - (b.instalment?.number ?? 0),
      )
      .slice(0, CHUNK);
    const failed: FailedInstalment[] = [];
    // Recorded at once at the end: a jump of years runs thousands of instalments.
    const events: EventEntry[] = [];
    const ran = new Map<Payment, ScheduledInstalment>();
    for (const { payment, date, instalment } of executions) {
      const debtor = ledger.live(payment.debtorIban);
      if (payment.status === 'PDNG') {
        // A single or bulk payment meets the funds rule again on its date, after what executed before it: approvals do not reserve.
        const available = debtor ? ledger.available(payment.debtorIban) : null;
        const fits = !debtor || (await ledger.fits(bookingsOf(payment, debtor, ledger, { date, status: 'booked' }), entriesAhead(payment)));
        const event: Extract<PaymentEvent, { type: 'EXECUTE' }> = {
          type: 'EXECUTE',
          today: date,
          available,
          ...(fits ? {} : { refusal: 'AM02' }),
        };
        const reasonCode = refusalOnItsDate(contextOf(payment), event);
        const { entity, accepted } = await applyEvent(this.machine, payment, event, reasonCode ? { reasonCode } : {});
        if (!accepted) continue;
        if (entity.status === 'RJCT' && debtor) await ledger.remove(entriesAhead(entity));
      }
      if (payment.status !== 'ACSP') continue;
      if (!instalment) {
        if (debtor) {
          await ledger.remove(entriesAhead(payment));
          events.push(...this.enter(ledger, payment, bookingsOf(payment, debtor, ledger, { date, status: 'booked' })));
        }
        continue;
      }
      // Each instalment meets the funds rule on its own date; one the balance cannot cover fails and books nothing.
      const available = ledger.available(payment.debtorIban);
      const rows = debtor ? bookingsOf(payment, debtor, ledger, { date, status: 'booked', instalment: instalment.number }) : [];
      const reasonCode =
        available === null ? 'AC04' : isBelow(available, payment.amount) ? 'AM04' : (await ledger.fits(rows)) ? null : 'AM02';
      if (reasonCode)
        failed.push({ paymentId: payment.id, number: instalment.number, dueDate: instalment.due, executionDate: date, reasonCode });
      else events.push(...this.enter(ledger, payment, rows));
      events.push({
        kind: 'instalment',
        resourceId: `${payment.id}/${instalment.number}`,
        parentId: payment.id,
        fromStatus: null,
        toStatus: reasonCode ? `failed ${reasonCode}` : 'executed',
        event: 'INSTALMENT',
        ownerId: payment.ownerId,
        sandboxDate: date,
      });
      ran.set(payment, instalment);
    }
    for (const [payment, last] of ran) {
      const [next] = instalments(payment.body as PeriodicPaymentDto, last);
      const progress = { instalmentsRun: last.number, lastDueDate: last.due, nextExecutionDate: next?.executionDate ?? null };
      await this.store.change(Payment).update({ id: payment.id }, progress);
      Object.assign(payment, progress);
      if (payment.nextExecutionDate === null && ledger.live(payment.debtorIban)) await ledger.remove(entriesAhead(payment));
    }
    await this.store.insertMany(FailedInstalment, failed);
    await this.history.record(...events);
    return executions.length;
  }
}

/** What of a payment fell due by `today`: a future-dated payment's one execution, or a periodic payment's instalments (at most CHUNK). */
function executionsOf(payment: Payment, today: string, most = CHUNK): Execution[] {
  if (!isPeriodic(payment))
    return payment.executionDate !== null && payment.executionDate <= today ? [{ payment, date: payment.executionDate }] : [];
  if (payment.nextExecutionDate === null) return [];
  const due: Execution[] = [];
  for (const instalment of instalments(payment.body as PeriodicPaymentDto, resumeOf(payment))) {
    if (instalment.executionDate > today || due.length >= most) break;
    due.push({ payment, date: instalment.executionDate, instalment });
  }
  return due;
}

/** Where a periodic payment's schedule goes on from: after the last instalment that fell due. */
const resumeOf = (payment: Payment): ScheduleResume | undefined =>
  payment.lastDueDate === null ? undefined : { number: payment.instalmentsRun, due: payment.lastDueDate };

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
