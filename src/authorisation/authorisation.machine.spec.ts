import { nextStatus } from '../common/state-machine';
import { AuthorisationEvent, authorisationMachine, MAX_FAILED_ATTEMPTS, OPEN_SCA_STATUSES, ScaStatus } from './authorisation.machine';

const EVENTS: AuthorisationEvent[] = [
  { type: 'START' },
  { type: 'AUTHENTICATE', methods: 0 },
  { type: 'AUTHENTICATE', methods: 1 },
  { type: 'AUTHENTICATE', methods: 2 },
  { type: 'SELECT_METHOD' },
  { type: 'WRONG_CREDENTIALS' },
  { type: 'FINALISE' },
  { type: 'FAIL' },
];

describe('authorisation machine', () => {
  // Every status against every event (with no wrong credentials yet): the target, or null where refused.
  const expected: Record<ScaStatus, (ScaStatus | null)[]> = {
    received: ['started', null, 'scaMethodSelected', 'psuAuthenticated', null, 'received', 'finalised', 'failed'],
    psuAuthenticated: [null, null, null, null, 'scaMethodSelected', null, 'finalised', 'failed'],
    scaMethodSelected: [null, null, null, null, null, 'scaMethodSelected', 'finalised', 'failed'],
    started: [null, null, null, null, null, 'started', 'finalised', 'failed'],
    finalised: [null, null, null, null, null, null, null, null],
    failed: [null, null, null, null, null, null, null, null],
  };
  const table = Object.entries(expected).flatMap(([from, targets]) => EVENTS.map((event, index) => [from, event, targets[index]] as const));

  it.each(table)('%s on %j gives %s', (from, event, to) => {
    expect(nextStatus(authorisationMachine, from, { failedAttempts: 0 }, event)).toBe(to);
  });

  it.each(['received', 'scaMethodSelected', 'started'])(
    'the failure counter: in %s, wrong credentials fail it at the third attempt, not before',
    (from) => {
      const after = (failedAttempts: number) => nextStatus(authorisationMachine, from, { failedAttempts }, { type: 'WRONG_CREDENTIALS' });
      expect(MAX_FAILED_ATTEMPTS).toBe(3);
      expect([0, 1, 2].map(after)).toEqual([from, from, 'failed']);
    },
  );

  it('names every status that is not final as open', () => {
    const states = Object.entries(authorisationMachine.states);
    expect(OPEN_SCA_STATUSES).toEqual(states.filter(([, state]) => state.type !== 'final').map(([name]) => name));
  });
});
