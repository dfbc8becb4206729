import { authorisationMachine } from '../authorisation/authorisation.machine';
import { ConsentEvent, consentMachine } from '../consent/consent.machine';
import { nextStatus } from './state-machine';

const expireOn = (today: string): ConsentEvent => ({ type: 'EXPIRE', today });

describe('nextStatus, remembering answers', () => {
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
