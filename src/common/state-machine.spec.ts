import fc from 'fast-check';
import { AnyMachineSnapshot, initialTransition, transition } from 'xstate';
import { authorisationMachine } from '../authorisation/authorisation.machine';
import { ConsentEvent, consentMachine } from '../consent/consent.machine';
import { PaymentContext, PaymentEvent, paymentMachine } from '../payment-initiation/payment.machine';
import { initialStatus, nextStatus } from './state-machine';

const expireOn = (today: string): ConsentEvent => ({ type: 'EXPIRE', today });

describe('the machines, remembering answers', () => {
  it('answers an initial status asked again as the first time, apart from the transitions asked', () => {
    const context = { validUntil: '2026-03-15' };
    expect(initialStatus(consentMachine, context)).toBe('received');
    expect(nextStatus(consentMachine, 'received', context, { type: 'APPROVE' })).toBe('valid');
    expect(initialStatus(consentMachine, context)).toBe('received');
  });

  it('answers a question asked again as it did the first time, and tells apart contexts and events', () => {
    const answers = () => [
      nextStatus(consentMachine, 'valid', { validUntil: '2026-03-15' }, expireOn('2026-03-16')),
      nextStatus(consentMachine, 'valid', { validUntil: '2026-03-16' }, expireOn('2026-03-16')),
      nextStatus(consentMachine, 'valid', { validUntil: '2026-03-15' }, expireOn('2026-03-15')),
      nextStatus(consentMachine, 'received', { validUntil: '2026-03-15' }, expireOn('2026-03-16')),
    ];
    const first = answers();
    expect(first).toEqual(['expired', null, null, 'expired']);
    expect(answers()).toEqual(first);
  });

  it('keeps the answers of each machine apart', () => {
    expect(nextStatus(authorisationMachine, 'received', {}, { type: 'START' })).toBe('started');
    // The same question to the consent machine, which knows no START.
    expect(nextStatus(consentMachine, 'received', {} as { validUntil: string }, { type: 'START' } as unknown as ConsentEvent)).toBeNull();
  });

  it('still answers right after it has forgotten what it kept', () => {
    for (let day = 0; day < 10_001; day++) {
      const validUntil = new Date(Date.UTC(2000, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
      nextStatus(consentMachine, 'valid', { validUntil }, expireOn('2100-01-01'));
    }
    expect(nextStatus(consentMachine, 'valid', { validUntil: '2026-03-15' }, expireOn('2026-03-16'))).toBe('expired');
    expect(nextStatus(consentMachine, 'valid', { validUntil: '2026-03-15' }, expireOn('2026-03-15'))).toBeNull();
  });
});

describe('the machines, asked in one shared scope', () => {
  const day = fc.integer({ min: 1, max: 28 }).map((date) => `2026-03-${String(date).padStart(2, '0')}`);
  const amount = fc.integer({ min: 1, max: 400_000 }).map((cents) => (cents / 100).toFixed(2));
  const context: fc.Arbitrary<PaymentContext> = fc.record({ amount, executionDate: fc.option(day), instant: fc.boolean() });
  const event: fc.Arbitrary<PaymentEvent> = fc.oneof(
    fc.record({ type: fc.constant('SCA_COMPLETED' as const), today: day, available: fc.option(amount) }),
    fc.record({ type: fc.constant('EXECUTE' as const), today: day }),
    fc.constantFrom<PaymentEvent>({ type: 'SCA_DENIED' }, { type: 'CANCEL' }, { type: 'CANCELLATION_AUTHORISED' }),
  );

  it("answers as xstate's own initialTransition and transition, which build a scope for every call", () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(paymentMachine.states)), context, event, (status, context, event) => {
        expect(initialStatus(paymentMachine, context)).toBe((initialTransition(paymentMachine, context)[0] as AnyMachineSnapshot).value);
        const snapshot = paymentMachine.resolveState({ value: status, context });
        const expected = snapshot.can(event) ? (transition(paymentMachine, snapshot, event)[0] as AnyMachineSnapshot).value : null;
        expect(nextStatus(paymentMachine, status, context, event)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});
