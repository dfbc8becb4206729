import { setup } from 'xstate';
import { isBelow } from '../common/amount';
import { initialStatus } from '../common/state-machine';

/**
 * Berlin Group transaction statuses this sandbox uses; RJCT and CANC are final, and ACSP is too but
 * for a periodic payment with instalments to come. RCVC, RVCM and RVNC are Verification of Payee's
 * (1.3.16, docs/verification-of-payee.md).
 */
export type PaymentStatus = 'RCVD' | 'RCVC' | 'RVCM' | 'RVNC' | 'PDNG' | 'ACSP' | 'RJCT' | 'CANC';

export interface PaymentContext {
  /** What the funds check compares: the amount, the bulk's sum, or one periodic instalment. */
  amount: string;
  /** requestedExecutionDate, or a periodic payment's startDate; null means at once. */
  executionDate: string | null;
  /** Instant payments execute at once and can never be cancelled. */
  instant: boolean;
  /** A periodic payment with instalments to come stays cancellable, ACSP as well as PDNG. */
  instalmentsToCome: boolean;
}

/**
 * ISO 20022 reasons a payment is rejected for (docs/failures.md): the creditor's side refuses it,
 * the funds do not cover it (AM04), or it would take a balance beyond what one holds (AM02,
 * docs/living-bank.md, "Ceiling").
 */
export type RejectionReason = 'AC01' | 'AC04' | 'AC06' | 'AM02' | 'AM04' | 'MS03';

export type PaymentEvent =
  /**
   * `available` is the debtor's interimAvailable balance, null when the debtor is no account of
   * ours; `refusal`, the reason a creditor of the payment is refused for, or its bookings would pass the ceiling for, if one is.
   */
  | { type: 'SCA_COMPLETED'; today: string; available: string | null; refusal: RejectionReason | null }
  | { type: 'SCA_DENIED' }
  | { type: 'CANCEL' }
  /** The payee check's outcome: every name matched; one did not (the payer must confirm); one payee's bank did not answer. */
  | { type: 'VOP_MATCHED' }
  | { type: 'VOP_MISMATCHED' }
  | { type: 'VOP_NOT_COMPLETED' }
  /** The payer pays anyway, whatever the check said (PUT .../creditor-confirmation). */
  | { type: 'CREDITOR_CONFIRMED' }
  | { type: 'CANCELLATION_AUTHORISED' }
  /**
   * The sandbox clock reached the execution date: a pending payment executes, if `available` (the
   * debtor's interimAvailable on that date, after what executed before it) covers it; null where
   * the debtor's balance does not move (the bank's fixture accounts, another bank's) or a periodic
   * payment starts, whose instalments meet the rule each on its own date; `refusal`, AM02 where
   * its bookings would pass the ceiling.
   */
  | { type: 'EXECUTE'; today: string; available: string | null; refusal?: 'AM02' };

const isDueOn = ({ executionDate }: PaymentContext, today: string) => executionDate !== null && executionDate <= today;

/**
 * Why a pending payment is rejected on its date (docs/living-bank.md), null where it executes:
 * AM04 where `available` no longer covers it, AM02 where its bookings would pass the ceiling.
 */
export function refusalOnItsDate(context: PaymentContext, event: Extract<PaymentEvent, { type: 'EXECUTE' }>): RejectionReason | null {
  if (event.available !== null && isBelow(event.available, context.amount)) return 'AM04';
  return event.refusal ?? null;
}

/** What a payment waiting for the payer after the payee check accepts, in RVCM and in RVNC: pay anyway (then SCA) or cancel, which nothing has been booked for yet, instant or not. */
const awaitingConfirmation = { CREDITOR_CONFIRMED: 'RCVC', CANCEL: 'CANC' } as const;

/** What a payment waiting for SCA accepts, in RCVD and in RCVC. */
const awaitingSca = {
  // A refused creditor first (docs/failures.md), then funds, then the date (docs/sca-flows.md); the first guard that holds wins.
  SCA_COMPLETED: [
    { target: 'RJCT', guard: 'isRefused' },
    { target: 'RJCT', guard: 'lacksFunds' },
    { target: 'PDNG', guard: 'isFutureDated' },
    { target: 'ACSP' },
  ],
  SCA_DENIED: 'RJCT',
  CANCEL: { target: 'CANC', guard: 'isCancellable' },
} as const;

export const paymentMachine = setup({
  types: {
    context: {} as PaymentContext,
    input: {} as PaymentContext,
    events: {} as PaymentEvent,
  },
  guards: {
    isRefused: ({ event }) => event.type === 'SCA_COMPLETED' && event.refusal !== null,
    lacksFunds: ({ context, event }) =>
      event.type === 'SCA_COMPLETED' && (event.available === null || isBelow(event.available, context.amount)),
    isFutureDated: ({ context, event }) =>
      event.type === 'SCA_COMPLETED' && context.executionDate !== null && context.executionDate > event.today,
    isCancellable: ({ context }) => !context.instant,
    isDue: ({ context, event }) => event.type === 'EXECUTE' && isDueOn(context, event.today),
    isRefusedOnItsDate: ({ context, event }) =>
      event.type === 'EXECUTE' && isDueOn(context, event.today) && refusalOnItsDate(context, event) !== null,
    hasInstalmentsToCome: ({ context }) => context.instalmentsToCome,
  },
}).createMachine({
  id: 'payment',
  initial: 'RCVD',
  context: ({ input }) => input,
  states: {
    RCVD: {
      on: {
        ...awaitingSca,
        VOP_MATCHED: 'RCVC',
        VOP_MISMATCHED: 'RVCM',
        VOP_NOT_COMPLETED: 'RVNC',
      },
    },
    // Checked, and nothing for the payer to confirm: SCA goes on as from RCVD.
    RCVC: { on: awaitingSca },
    RVCM: { on: awaitingConfirmation },
    RVNC: { on: awaitingConfirmation },
    PDNG: {
      // A pending payment is cancelled only once the account holder authorises the cancellation.
      on: {
        CANCELLATION_AUTHORISED: { target: 'CANC', guard: 'isCancellable' },
        // The funds rule again on its date (docs/living-bank.md): what was approved earlier may no longer be covered, or fit.
        EXECUTE: [
          { target: 'RJCT', guard: 'isRefusedOnItsDate' },
          { target: 'ACSP', guard: 'isDue' },
        ],
      },
    },
    // Executed; a periodic payment runs its instalments from here (docs/living-bank.md) and may be cancelled while some are to come.
    ACSP: { on: { CANCELLATION_AUTHORISED: { target: 'CANC', guard: 'hasInstalmentsToCome' } } },
    RJCT: { type: 'final' },
    CANC: { type: 'final' },
  },
});

export function initialPaymentStatus(): PaymentStatus {
  return initialStatus(paymentMachine) as PaymentStatus;
}

/** The holder has not decided on the payment yet (the machine accepts SCA_COMPLETED and SCA_DENIED). */
export const isAwaitingSca = (status: string): boolean => status === 'RCVD' || status === 'RCVC';

/** The payee check left something for the payer to confirm (the machine accepts CREDITOR_CONFIRMED). */
export const isAwaitingCreditorConfirmation = (status: string): boolean => status === 'RVCM' || status === 'RVNC';

/** Pending (or a periodic payment with instalments to come) and cancellable: only the holder's authorisation cancels it now (the machine accepts CANCELLATION_AUTHORISED). */
export const isAwaitingCancellationSca = (status: string, context: PaymentContext): boolean =>
  (status === 'PDNG' && !context.instant) || (status === 'ACSP' && context.instalmentsToCome);

/** Pending, and the clock reached its execution date (the machine accepts EXECUTE). */
export const isDue = (status: string, context: PaymentContext, today: string): boolean => status === 'PDNG' && isDueOn(context, today);
