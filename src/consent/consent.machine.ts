import { setup } from 'xstate';
import { initialStatus } from '../common/state-machine';

/**
 * Berlin Group consent statuses this sandbox uses. rejected, expired and terminatedByTpp are
 * final; so is revokedByPsu in Berlin Group's model, but the PSR's permission dashboard lets the
 * holder re-establish a withdrawn consent while it has not expired (docs/permission-dashboard.md).
 */
export type ConsentStatus = 'received' | 'valid' | 'rejected' | 'expired' | 'terminatedByTpp' | 'revokedByPsu';

export interface ConsentContext {
  validUntil: string;
}

export type ConsentEvent =
  | { type: 'APPROVE' }
  | { type: 'DENY' }
  | { type: 'EXPIRE'; today: string }
  | { type: 'TERMINATE' }
  /** The account holder withdrew a valid consent at the bank (docs/failures.md). */
  | { type: 'REVOKE' }
  /** The account holder re-established a consent they had withdrawn (docs/permission-dashboard.md): not Berlin Group's. */
  | { type: 'REESTABLISH'; today: string };

// validUntil is the last day of validity: the consent expires the day after.
const isPast = (validUntil: string, today: string) => today > validUntil;

export const consentMachine = setup({
  types: {
    context: {} as ConsentContext,
    input: {} as ConsentContext,
    events: {} as ConsentEvent,
  },
  guards: {
    isPastValidUntil: ({ context, event }) => event.type === 'EXPIRE' && isPast(context.validUntil, event.today),
    isWithinValidity: ({ context, event }) => event.type === 'REESTABLISH' && !isPast(context.validUntil, event.today),
  },
}).createMachine({
  id: 'consent',
  initial: 'received',
  context: ({ input }) => ({ validUntil: input.validUntil }),
  states: {
    received: {
      on: {
        APPROVE: 'valid',
        DENY: 'rejected',
        EXPIRE: { target: 'expired', guard: 'isPastValidUntil' },
        TERMINATE: 'terminatedByTpp',
      },
    },
    valid: {
      on: {
        EXPIRE: { target: 'expired', guard: 'isPastValidUntil' },
        TERMINATE: 'terminatedByTpp',
        REVOKE: 'revokedByPsu',
      },
    },
    rejected: { type: 'final' },
    expired: { type: 'final' },
    terminatedByTpp: { type: 'final' },
    revokedByPsu: {
      on: { REESTABLISH: { target: 'valid', guard: 'isWithinValidity' } },
    },
  },
});

export function initialConsentStatus(): ConsentStatus {
  return initialStatus(consentMachine) as ConsentStatus;
}

/** The holder has not decided yet: SCA may approve or deny it (the machine accepts APPROVE). */
export const isAwaitingSca = (status: string): boolean => status === 'received';

/** Valid: the holder may revoke it (the machine accepts REVOKE). */
export const isRevocable = (status: string): boolean => status === 'valid';

/** Withdrawn by the holder and not past its validUntil: the holder may re-establish it (the machine accepts REESTABLISH). */
export const isReestablishable = ({ status, validUntil }: { status: string } & ConsentContext, today: string): boolean =>
  status === 'revokedByPsu' && !isPast(validUntil, today);

/** The clock has passed its validUntil and it is not final yet: it expires (the machine accepts EXPIRE). */
export const isDueToExpire = ({ status, validUntil }: { status: string } & ConsentContext, today: string): boolean =>
  (status === 'received' || status === 'valid') && isPast(validUntil, today);
