import { setup } from 'xstate';

/** Berlin Group SCA statuses of an authorisation sub-resource; finalised and failed are final. */
export type ScaStatus = 'received' | 'started' | 'finalised' | 'failed';

/** What the account holder decides on an authorisation, on the SCA pages or headless. */
export type ScaDecision = 'approve' | 'deny';

export type AuthorisationEvent = { type: 'START' } | { type: 'FINALISE' } | { type: 'FAIL' };

export const authorisationMachine = setup({
  types: { events: {} as AuthorisationEvent },
}).createMachine({
  id: 'authorisation',
  initial: 'received',
  states: {
    // START: the account holder opened the SCA page.
    received: { on: { START: 'started', FINALISE: 'finalised', FAIL: 'failed' } },
    started: { on: { FINALISE: 'finalised', FAIL: 'failed' } },
    finalised: { type: 'final' },
    failed: { type: 'final' },
  },
});
