import { AnyMachineSnapshot, AnyStateMachine, ContextFrom, EventFromLogic, SnapshotFrom, transition } from 'xstate';

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
  const [next] = transition(machine, snapshot as SnapshotFrom<TMachine>, event);
  return (next as AnyMachineSnapshot).value as string;
}
