import { nextStatus } from '../common/state-machine';
import {
  initialPaymentStatus,
  isAwaitingCancellationSca,
  isAwaitingCreditorConfirmation,
  isAwaitingSca,
  isDue,
  PaymentContext,
  PaymentEvent,
  paymentMachine,
  PaymentStatus,
  RejectionReason,
} from './payment.machine';

const TODAY = '2026-03-15';
const now: PaymentContext = { amount: '100.00', executionDate: null, instant: false, instalmentsToCome: false };
const later: PaymentContext = { ...now, executionDate: '2026-03-16' };
const instant: PaymentContext = { ...now, instant: true };
/** A periodic payment with an instalment to come, and one whose instalments have all run. */
const running: PaymentContext = { ...later, instalmentsToCome: true };
const ended: PaymentContext = { ...later };

const completed = (available: string | null, refusal: RejectionReason | null = null): PaymentEvent => ({
  type: 'SCA_COMPLETED',
  today: TODAY,
  available,
  refusal,
});
const FUNDED = completed('100.00');
const SHORT = completed('99.99');
const NO_ACCOUNT = completed(null);
const REFUSED = completed('100.00', 'AC04');
const DENIED: PaymentEvent = { type: 'SCA_DENIED' };
const CANCEL: PaymentEvent = { type: 'CANCEL' };
const CANCELLATION_AUTHORISED: PaymentEvent = { type: 'CANCELLATION_AUTHORISED' };
const executeOn = (today: string, available: string | null = null): PaymentEvent => ({ type: 'EXECUTE', today, available });
const MATCHED: PaymentEvent = { type: 'VOP_MATCHED' };
const MISMATCHED: PaymentEvent = { type: 'VOP_MISMATCHED' };
const NOT_COMPLETED: PaymentEvent = { type: 'VOP_NOT_COMPLETED' };
const CONFIRMED: PaymentEvent = { type: 'CREDITOR_CONFIRMED' };
const VOP_EVENTS = [MATCHED, MISMATCHED, NOT_COMPLETED, CONFIRMED];
const ALL_EVENTS = [FUNDED, SHORT, NO_ACCOUNT, REFUSED, DENIED, CANCEL, CANCELLATION_AUTHORISED, executeOn('2099-01-01'), ...VOP_EVENTS];

describe('payment machine', () => {
  it('starts in RCVD', () => {
    expect(initialPaymentStatus()).toBe('RCVD');
  });

  const table: [string, PaymentStatus, PaymentContext, PaymentEvent, PaymentStatus | null][] = [
    ['funds cover the amount exactly', 'RCVD', now, FUNDED, 'ACSP'],
    ['funds short by a cent', 'RCVD', now, SHORT, 'RJCT'],
    ['the debtor is no account of ours', 'RCVD', now, NO_ACCOUNT, 'RJCT'],
    ['future-dated and funded', 'RCVD', later, FUNDED, 'PDNG'],
    ['a creditor refused, though funded', 'RCVD', now, REFUSED, 'RJCT'],
    ['a creditor refused, future-dated: the refusal comes first', 'RCVD', later, REFUSED, 'RJCT'],
    ['future-dated but short: funds come first', 'RCVD', later, SHORT, 'RJCT'],
    ['dated today', 'RCVD', { ...now, executionDate: TODAY }, FUNDED, 'ACSP'],
    ['instant and funded', 'RCVD', instant, FUNDED, 'ACSP'],
    ['SCA denied', 'RCVD', now, DENIED, 'RJCT'],
    ['cancelled before SCA', 'RCVD', now, CANCEL, 'CANC'],
    ['an instant payment is never cancelled', 'RCVD', instant, CANCEL, null],
    ['no cancellation to authorise before SCA', 'RCVD', now, CANCELLATION_AUTHORISED, null],
    ['pending: cancellation needs authorisation', 'PDNG', later, CANCEL, null],
    ['pending: authorised cancellation', 'PDNG', later, CANCELLATION_AUTHORISED, 'CANC'],
    ['pending: SCA is over', 'PDNG', later, FUNDED, null],
    ['pending: SCA cannot be denied any more', 'PDNG', later, DENIED, null],
    ['pending: executes on its date', 'PDNG', later, executeOn('2026-03-16'), 'ACSP'],
    ['pending: executes once its date has passed', 'PDNG', later, executeOn('2026-04-01'), 'ACSP'],
    ['pending: not before its date', 'PDNG', later, executeOn(TODAY), null],
    ['nothing executes before SCA', 'RCVD', later, executeOn('2026-03-16'), null],
    ['the payee matched', 'RCVD', now, MATCHED, 'RCVC'],
    ['the payee did not match', 'RCVD', now, MISMATCHED, 'RVCM'],
    ["the payee's bank did not answer", 'RCVD', now, NOT_COMPLETED, 'RVNC'],
    ['nothing to confirm in RCVD', 'RCVD', now, CONFIRMED, null],
    ['checked and matched: SCA as from RCVD', 'RCVC', now, FUNDED, 'ACSP'],
    ['checked and matched: short as from RCVD', 'RCVC', now, SHORT, 'RJCT'],
    ['checked and matched: cancelled before SCA', 'RCVC', now, CANCEL, 'CANC'],
    ['checked and matched: instant, never cancelled', 'RCVC', instant, CANCEL, null],
    ['checked once only', 'RCVC', now, MISMATCHED, null],
    ...(['RVCM', 'RVNC'] as const).flatMap((status): [string, PaymentStatus, PaymentContext, PaymentEvent, PaymentStatus | null][] => [
      ['the payer pays anyway', status, now, CONFIRMED, 'RCVC'],
      ['the payer cancels, nothing booked yet', status, now, CANCEL, 'CANC'],
      ['the payer cancels an instant payment too', status, instant, CANCEL, 'CANC'],
      ['no SCA before the confirmation', status, now, FUNDED, null],
      ['no denial before the confirmation', status, now, DENIED, null],
      ['checked once only', status, now, MATCHED, null],
    ]),
    ['periodic, first instalment to come: pending, cancellable with authorisation', 'PDNG', running, CANCELLATION_AUTHORISED, 'CANC'],
    ['periodic with instalments to come: ACSP, and cancellable with authorisation', 'ACSP', running, CANCELLATION_AUTHORISED, 'CANC'],
    ['periodic with instalments to come: not cancelled at once', 'ACSP', running, CANCEL, null],
    ['periodic with instalments to come: SCA is over', 'ACSP', running, FUNDED, null],
    ...(['ACSP', 'RJCT', 'CANC'] as const).flatMap((final) =>
      [now, ended].flatMap((context) =>
        ALL_EVENTS.map((event): [string, PaymentStatus, PaymentContext, PaymentEvent, null] => [
          `${final} is final`,
          final,
          context,
          event,
          null,
        ]),
      ),
    ),
    ...ALL_EVENTS.filter((event) => event !== CANCELLATION_AUTHORISED).map(
      (event): [string, PaymentStatus, PaymentContext, PaymentEvent, null] => [
        'periodic ACSP takes only its cancellation',
        'ACSP',
        running,
        event,
        null,
      ],
    ),
  ];

  it.each(table)('%s: %s on %j', (_, from, context, event, to) => {
    expect(nextStatus(paymentMachine, from, context, event)).toBe(to);
  });
});

describe('payment status questions, asked by name', () => {
  const cases = Object.keys(paymentMachine.states).flatMap((status) =>
    [now, later, instant, running, ended].map((context): [string, PaymentContext] => [status, context]),
  );

  it.each(cases)('isAwaitingSca(%s) holds exactly where the machine accepts SCA_DENIED (context %j)', (status, context) => {
    expect(isAwaitingSca(status)).toBe(nextStatus(paymentMachine, status, context, DENIED) !== null);
  });

  it.each(cases)(
    'isAwaitingCreditorConfirmation(%s) holds exactly where the machine accepts CREDITOR_CONFIRMED (context %j)',
    (status, context) => {
      expect(isAwaitingCreditorConfirmation(status)).toBe(nextStatus(paymentMachine, status, context, CONFIRMED) !== null);
    },
  );

  it.each(cases)('isAwaitingCancellationSca(%s, %j) holds exactly where the machine accepts CANCELLATION_AUTHORISED', (status, context) => {
    expect(isAwaitingCancellationSca(status, context)).toBe(nextStatus(paymentMachine, status, context, CANCELLATION_AUTHORISED) !== null);
  });

  it.each(
    cases.flatMap(([status, context]) => [TODAY, '2026-03-16'].map((today): [string, PaymentContext, string] => [status, context, today])),
  )('isDue(%s, %j, %s) holds exactly where the machine accepts EXECUTE', (status, context, today) => {
    expect(isDue(status, context, today)).toBe(nextStatus(paymentMachine, status, context, executeOn(today)) !== null);
  });
});
