import { nextStatus } from '../common/state-machine';
import { AuthorisationEvent, authorisationMachine, ScaStatus } from './authorisation.machine';

const EVENTS: AuthorisationEvent[] = [{ type: 'START' }, { type: 'FINALISE' }, { type: 'FAIL' }];

describe('authorisation machine', () => {
  const expected: Record<ScaStatus, (ScaStatus | null)[]> = {
    received: ['started', 'finalised', 'failed'],
    started: [null, 'finalised', 'failed'],
    finalised: [null, null, null],
    failed: [null, null, null],
  };
  const table = Object.entries(expected).flatMap(([from, targets]) => EVENTS.map((event, index) => [from, event.type, targets[index]] as const));

  it.each(table)('%s on %s gives %s', (from, type, to) => {
    expect(nextStatus(authorisationMachine, from, {}, { type })).toBe(to);
  });
});
