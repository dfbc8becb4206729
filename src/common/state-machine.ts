import { AnyMachineSnapshot, AnyStateMachine, ContextFrom, EventFromLogic, SnapshotFrom, transition } from 'xstate';

/**
 * The status a machine starts in: the initial state its definition declares. Where that state
 * does not move on by itself (`always`) no input can change it, and it is read, not computed:
 * xstate's initialTransition builds an actor for it, about 30 µs of every POST (docs/benchmark.md).
 */
export function initialStatus(machine: AnyStateMachine): string {
  const [initial] = machine.root.initial.target;
  if (initial.always?.length)
    throw new Error(`the ${machine.id} machine moves on from its initial state by itself: ask initialTransition with the input`);
  return initial.key;
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
