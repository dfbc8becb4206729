import { AnyMachineSnapshot, AnyStateMachine, ContextFrom, EventFromLogic, InputFrom, initialTransition, SnapshotFrom, transition } from 'xstate';

/** The status a machine starts in for this input (its context). */
export function initialStatus<TMachine extends AnyStateMachine>(machine: TMachine, input: InputFrom<TMachine>): string {
  return (initialTransition(machine, input)[0] as AnyMachineSnapshot).value as string;
}

/**
 * Asks a machine what a stored status becomes on an event: the snapshot is rebuilt from the
 * stored status on every call (nothing but the status value is persisted). Null means refused.
 */
export function nextStatus<TMachine extends AnyStateMachine>(
  machine: TMachine,
  status: string,
  context: ContextFrom<TMachine>,
  event: EventFromLogic<TMachine>,
): string | null {
  const snapshot = machine.resolveState({ value: status, context });
  if (!snapshot.can(event)) return null;
  return (transition(machine, snapshot as SnapshotFrom<TMachine>, event)[0] as AnyMachineSnapshot).value as string;
}

/** The states a machine declares final (`type: 'final'`), read from its definition. */
export function finalStatuses(machine: AnyStateMachine): string[] {
  return Object.values(machine.root.states)
    .filter((state) => state.type === 'final')
    .map((state) => state.key);
}
