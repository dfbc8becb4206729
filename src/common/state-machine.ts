import { EntityManager, FindOptionsWhere, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AnyActorScope, AnyMachineSnapshot, AnyStateMachine, ContextFrom, createEmptyActor, EventFromLogic, InputFrom } from 'xstate';
import { AnswerMemo } from './answer-memo';

/**
 * The scope every question is asked in. xstate's `initialTransition` and `transition` build an
 * inert scope like this one, with a new actor and two actor systems, on every call: most of their
 * 8 to 18 µs. Our machines have no actions, children or delays, so one scope serves them all.
 */
const self = createEmptyActor();
const inert: AnyActorScope = {
  self,
  id: '',
  sessionId: '',
  system: self.system,
  logger: () => {},
  defer: () => {},
  emit: () => {},
  stopChild: () => {},
  actionExecutor: () => {},
};

/**
 * The machines' answers, remembered. A machine is pure (its answer depends only on what it is
 * asked), and even in the shared scope a question costs a few µs: every consent read asks whether
 * the consent is due to expire, every new payment its initial status. Remembering still saved 2-6 %
 * of a POST's CPU in alternating runs.
 */
const answers = new AnswerMemo<string | null>();

function remembered(machine: AnyStateMachine, question: unknown[], ask: () => string | null): string | null {
  const key = JSON.stringify(question);
  const known = answers.recall(machine, key);
  return known !== undefined ? known : answers.keep(machine, key, ask());
}

/** The status a machine starts in for this input (its context). */
export function initialStatus<TMachine extends AnyStateMachine>(machine: TMachine, input: InputFrom<TMachine>): string {
  return remembered(machine, [input], () => (machine.getInitialSnapshot(inert, input) as AnyMachineSnapshot).value as string)!;
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
  return remembered(machine, [status, context, event], () => {
    const snapshot = machine.resolveState({ value: status, context });
    if (!snapshot.can(event)) return null;
    return (machine.transition(snapshot, event, inert) as AnyMachineSnapshot).value as string;
  });
}

/** An aggregate whose `status` column a machine governs. */
export interface StatusOwner {
  id: string;
  status: string;
}

/** How one aggregate's rows meet its machine. */
export interface MachineBinding<TEntity extends StatusOwner, TMachine extends AnyStateMachine> {
  repository: Repository<TEntity>;
  machine: TMachine;
  contextOf(entity: TEntity): ContextFrom<TMachine>;
}

/**
 * Lets the machine decide an event, then writes the new status (with `also`) by a
 * compare-and-set on the old status, so that of two racing requests only one wins. The loser
 * reads the row again and the machine decides on what the winner left. `manager`: the
 * GroupCommit write the change belongs to (no write may go beside one: see GroupCommit).
 */
export async function applyEvent<TEntity extends StatusOwner, TMachine extends AnyStateMachine>(
  binding: MachineBinding<TEntity, TMachine>,
  entity: TEntity,
  event: EventFromLogic<TMachine>,
  manager: EntityManager,
  also: Partial<TEntity> = {},
): Promise<{ entity: TEntity; accepted: boolean }> {
  const status = nextStatus(binding.machine, entity.status, binding.contextOf(entity), event);
  if (!status) return { entity, accepted: false };
  const repository = manager.withRepository(binding.repository);
  const where = { id: entity.id, status: entity.status } as FindOptionsWhere<TEntity>;
  const { affected } = await repository.update(where, { ...also, status } as QueryDeepPartialEntity<TEntity>);
  if (affected) return { entity: Object.assign(entity, also, { status }), accepted: true };
  const current = await repository.findOneByOrFail({ id: entity.id } as FindOptionsWhere<TEntity>);
  return applyEvent(binding, current, event, manager, also);
}
