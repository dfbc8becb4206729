import { setup } from 'xstate';
import { initialStatus } from '../common/state-machine';

/**
 * Berlin Group's statuses of a signing basket (transactionStatus_SBS): received until its SCA,
 * then accepted (ACTC: every member still waiting was authorised with it) or rejected; CANC once
 * the TPP deleted it. The last three are final (docs/signing-baskets.md).
 */
export type BasketStatus = 'RCVD' | 'ACTC' | 'RJCT' | 'CANC';

export type BasketEvent = { type: 'SCA_COMPLETED' } | { type: 'SCA_DENIED' } | { type: 'CANCEL' };

export const basketMachine = setup({
  types: { events: {} as BasketEvent },
}).createMachine({
  id: 'signing-basket',
  initial: 'RCVD',
  states: {
    RCVD: { on: { SCA_COMPLETED: 'ACTC', SCA_DENIED: 'RJCT', CANCEL: 'CANC' } },
    ACTC: { type: 'final' },
    RJCT: { type: 'final' },
    CANC: { type: 'final' },
  },
});

export function initialBasketStatus(): BasketStatus {
  return initialStatus(basketMachine) as BasketStatus;
}

/** Its SCA has not happened yet: it may be authorised, denied or deleted (the machine accepts each). */
export const isOpen = (status: string): boolean => status === 'RCVD';
