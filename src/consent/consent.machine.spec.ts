import { createActor } from 'xstate';
import { nextStatus } from '../common/state-machine';
import {
  ConsentEvent,
  consentMachine,
  ConsentStatus,
  initialConsentStatus,
  isAwaitingSca,
  isDueToExpire,
  isReestablishable,
  isRevocable,
} from './consent.machine';

const context = { validUntil: '2026-03-15' };
const EXPIRE_AFTER: ConsentEvent = { type: 'EXPIRE', today: '2026-03-16' };
const EXPIRE_ON_LAST_DAY: ConsentEvent = { type: 'EXPIRE', today: '2026-03-15' };
const REESTABLISH_ON_LAST_DAY: ConsentEvent = { type: 'REESTABLISH', today: '2026-03-15' };
const REESTABLISH_AFTER: ConsentEvent = { type: 'REESTABLISH', today: '2026-03-16' };

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
    ['valid', REESTABLISH_ON_LAST_DAY, null],
    ['received', REESTABLISH_ON_LAST_DAY, null],
    // The permission dashboard's way back, until the consent's last day (docs/permission-dashboard.md).
    ['revokedByPsu', REESTABLISH_ON_LAST_DAY, 'valid'],
    ['revokedByPsu', REESTABLISH_AFTER, null],
    ...(['APPROVE', 'DENY', 'TERMINATE', 'REVOKE'] as const).map((type): [ConsentStatus, ConsentEvent, null] => [
      'revokedByPsu',
      { type },
      null,
    ]),
    ['revokedByPsu', EXPIRE_AFTER, null],
    ...(['rejected', 'expired', 'terminatedByTpp'] as const).flatMap((final) =>
      [
        { type: 'APPROVE' } as const,
        { type: 'DENY' } as const,
        EXPIRE_AFTER,
        { type: 'TERMINATE' } as const,
        { type: 'REVOKE' } as const,
        REESTABLISH_ON_LAST_DAY,
      ].map((event): [ConsentStatus, ConsentEvent, null] => [final, event, null]),
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

  it.each(statuses.flatMap((status) => days.map((today) => [status, today])))(
    'isReestablishable(%s, today %s) holds exactly where the machine accepts REESTABLISH',
    (status, today) => {
      expect(isReestablishable({ status, ...context }, today)).toBe(
        nextStatus(consentMachine, status, context, { type: 'REESTABLISH', today }) !== null,
      );
    },
  );

  it.each(statuses.flatMap((status) => days.map((today) => [status, today])))(
    'isDueToExpire(%s, today %s) holds exactly where the machine accepts EXPIRE',
    (status, today) => {
      expect(isDueToExpire({ status, ...context }, today)).toBe(
        nextStatus(consentMachine, status, context, { type: 'EXPIRE', today }) !== null,
      );
    },
  );
});
