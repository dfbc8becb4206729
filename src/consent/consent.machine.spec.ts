import { createActor } from 'xstate';
import { nextStatus } from '../common/state-machine';
import { ConsentEvent, consentMachine, ConsentStatus, initialConsentStatus, isAwaitingSca, isDueToExpire, isRevocable } from './consent.machine';

const context = { validUntil: '2026-03-15' };
const EXPIRE_AFTER: ConsentEvent = { type: 'EXPIRE', today: '2026-03-16' };
const EXPIRE_ON_LAST_DAY: ConsentEvent = { type: 'EXPIRE', today: '2026-03-15' };

describe('consent machine', () => {
  it('starts in received', () => {
    expect(initialConsentStatus()).toBe('received');
    expect(createActor(consentMachine, { input: context }).getSnapshot().value).toBe('received');
  });

  // Every status against every event: the target status, or null where the machine refuses.
  const table: [ConsentStatus, ConsentEvent, ConsentStatus | null][] = [
    ['received', { type: 'APPROVE' }, 'valid'],
    ['received', { type: 'DENY' }, 'rejected'],
    ['received', EXPIRE_AFTER, 'expired'],
    ['received', EXPIRE_ON_LAST_DAY, null],
    ['received', { type: 'TERMINATE' }, 'terminatedByTpp'],
    ['received', { type: 'REVOKE' }, null],
    ['valid', { type: 'APPROVE' }, null],
    ['valid', { type: 'DENY' }, null],
    ['valid', EXPIRE_AFTER, 'expired'],
    ['valid', EXPIRE_ON_LAST_DAY, null],
    ['valid', { type: 'TERMINATE' }, 'terminatedByTpp'],
    ['valid', { type: 'REVOKE' }, 'revokedByPsu'],
    ...(['rejected', 'expired', 'terminatedByTpp', 'revokedByPsu'] as const).flatMap((final) =>
      [{ type: 'APPROVE' } as const, { type: 'DENY' } as const, EXPIRE_AFTER, { type: 'TERMINATE' } as const, { type: 'REVOKE' } as const].map(
        (event): [ConsentStatus, ConsentEvent, null] => [final, event, null],
      ),
    ),
  ];

  it.each(table)('%s on %j gives %s', (from, event, to) => {
    expect(nextStatus(consentMachine, from, context, event)).toBe(to);
  });
});

describe('consent status questions, asked by name', () => {
  const statuses = Object.keys(consentMachine.states);
  const days = ['2026-03-14', '2026-03-15', '2026-03-16'];

  it.each(statuses)('isAwaitingSca(%s) holds exactly where the machine accepts APPROVE', (status) => {
    expect(isAwaitingSca(status)).toBe(nextStatus(consentMachine, status, context, { type: 'APPROVE' }) !== null);
  });

  it.each(statuses)('isRevocable(%s) holds exactly where the machine accepts REVOKE', (status) => {
    expect(isRevocable(status)).toBe(nextStatus(consentMachine, status, context, { type: 'REVOKE' }) !== null);
  });

  it.each(statuses.flatMap((status) => days.map((today) => [status, today])))('isDueToExpire(%s, today %s) holds exactly where the machine accepts EXPIRE', (status, today) => {
    expect(isDueToExpire({ status, ...context }, today)).toBe(nextStatus(consentMachine, status, context, { type: 'EXPIRE', today }) !== null);
  });
});
