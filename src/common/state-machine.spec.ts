import fc from 'fast-check';
import { createActor, setup } from 'xstate';
import { PaymentContext, PaymentEvent, paymentMachine, RejectionReason } from '../payment-initiation/payment.machine';
import { initialStatus, nextStatus } from './state-machine';

describe('the machines, asked by stored status', () => {
  const day = fc.integer({ min: 1, max: 28 }).map((date) => `2026-03-${String(date).padStart(2, '0')}`);
  const amount = fc.integer({ min: 1, max: 400_000 }).map((cents) => (cents / 100).toFixed(2));
  const context: fc.Arbitrary<PaymentContext> = fc.record({
    amount,
    executionDate: fc.option(day),
    instant: fc.boolean(),
    instalmentsToCome: fc.boolean(),
  });
  const event: fc.Arbitrary<PaymentEvent> = fc.oneof(
    fc.record({
      type: fc.constant('SCA_COMPLETED' as const),
      today: day,
      available: fc.option(amount),
      refusal: fc.option(fc.constantFrom<RejectionReason>('AC01', 'AC04', 'AC06', 'AM04', 'MS03')),
    }),
    fc.record({ type: fc.constant('EXECUTE' as const), today: day, available: fc.constantFrom(null, '0.00', '1000.00') }),
    fc.constantFrom<PaymentEvent>({ type: 'SCA_DENIED' }, { type: 'CANCEL' }, { type: 'CANCELLATION_AUTHORISED' }),
  );

  it('answers the initial status, and what a status rebuilt from the row becomes, as a running actor does', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(paymentMachine.states)), context, event, (status, context, event) => {
        // The declared initial state is where an actor starts, whatever its input.
        expect(initialStatus(paymentMachine)).toBe(createActor(paymentMachine, { input: context }).getSnapshot().value);
        // An actor started in the stored status: a refused event leaves it where it was.
        const actor = createActor(paymentMachine, {
          snapshot: paymentMachine.resolveState({ value: status, context }),
          input: context,
        }).start();
        const accepted = actor.getSnapshot().can(event);
        actor.send(event);
        expect(nextStatus(paymentMachine, status, context, event)).toBe(accepted ? actor.getSnapshot().value : null);
        actor.stop();
      }),
      { numRuns: 500 },
    );
  });
});

describe('initialStatus', () => {
  it('refuses a machine whose initial state moves on by itself, where the input could decide the status', () => {
    const moving = setup({ types: { context: {} as { ready: boolean }, input: {} as { ready: boolean } } }).createMachine({
      id: 'moving',
      initial: 'waiting',
      context: ({ input }) => input,
      states: { waiting: { always: { target: 'ready', guard: ({ context }) => context.ready } }, ready: {} },
    });
    expect(() => initialStatus(moving)).toThrow('the moving machine moves on from its initial state by itself');
  });
});
