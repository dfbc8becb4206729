import { setup } from 'xstate';

/**
 * Berlin Group SCA statuses of an authorisation sub-resource (docs/sca-approaches.md); finalised
 * and failed are final. Redirect and decoupled go received → started; embedded goes through
 * psuAuthenticated (the password) and scaMethodSelected (the method) to the TAN.
 */
export type ScaStatus = 'received' | 'psuAuthenticated' | 'scaMethodSelected' | 'started' | 'finalised' | 'failed';

/** What the account holder decides on an authorisation, on the SCA pages or headless. */
export type ScaDecision = 'approve' | 'deny';

/** Wrong passwords and TANs an authorisation takes: the last of them fails it. */
export const MAX_FAILED_ATTEMPTS = 3;

export interface AuthorisationContext {
  /** Wrong passwords and TANs so far. */
  failedAttempts: number;
}

export type AuthorisationEvent =
  | { type: 'START' }
  /** The password holds; `methods`: how many SCA methods the PSU has (one is chosen implicitly). */
  | { type: 'AUTHENTICATE'; methods: number }
  | { type: 'SELECT_METHOD' }
  /** A wrong password or TAN. */
  | { type: 'WRONG_CREDENTIALS' }
  | { type: 'FINALISE' }
  | { type: 'FAIL' };

const open = { FINALISE: 'finalised', FAIL: 'failed' } as const;
/** A wrong password or TAN: the last attempt fails the authorisation, an earlier one leaves it where it is (the count goes up). */
const wrongCredentials = <T extends ScaStatus>(stay: T) => [{ target: 'failed', guard: 'isLastAttempt' }, { target: stay }] as const;

export const authorisationMachine = setup({
  types: { context: {} as AuthorisationContext, input: {} as AuthorisationContext, events: {} as AuthorisationEvent },
  guards: {
    hasSeveralMethods: ({ event }) => event.type === 'AUTHENTICATE' && event.methods > 1,
    hasOneMethod: ({ event }) => event.type === 'AUTHENTICATE' && event.methods === 1,
    isLastAttempt: ({ context }) => context.failedAttempts + 1 >= MAX_FAILED_ATTEMPTS,
  },
}).createMachine({
  id: 'authorisation',
  initial: 'received',
  context: ({ input }) => input,
  states: {
    // START: the holder opened the SCA page, or the decoupled app asks them.
    received: {
      on: {
        ...open,
        START: 'started',
        // A PSU without a method is exempted: the password finalises it (FINALISE).
        AUTHENTICATE: [
          { target: 'psuAuthenticated', guard: 'hasSeveralMethods' },
          { target: 'scaMethodSelected', guard: 'hasOneMethod' },
        ],
        WRONG_CREDENTIALS: wrongCredentials('received'),
      },
    },
    psuAuthenticated: { on: { ...open, SELECT_METHOD: 'scaMethodSelected' } },
    scaMethodSelected: { on: { ...open, WRONG_CREDENTIALS: wrongCredentials('scaMethodSelected') } },
    // A wrong password on the SCA page counts as an embedded one does (docs/sca-flows.md).
    started: { on: { ...open, WRONG_CREDENTIALS: wrongCredentials('started') } },
    finalised: { type: 'final' },
    failed: { type: 'final' },
  },
});

/** Not final: the holder may still finalise or fail it. */
export const OPEN_SCA_STATUSES: ScaStatus[] = ['received', 'psuAuthenticated', 'scaMethodSelected', 'started'];
