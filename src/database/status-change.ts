import { AnyStateMachine, ContextFrom, EventFromLogic } from 'xstate';
import { EntityTarget, FindOptionsWhere } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { nextStatus } from '../common/state-machine';
import type { EventHistory } from '../events/event-history.service';
import type { EventKind } from '../events/sandbox-event.entity';
import { Store } from './store';

/** An aggregate whose `status` column a machine governs. */
export interface StatusOwner {
  id: string;
  status: string;
}

/** How one aggregate's rows meet its machine, and its changes the history (docs/events.md). */
export interface MachineBinding<TEntity extends StatusOwner, TMachine extends AnyStateMachine> {
  store: Store;
  target: EntityTarget<TEntity>;
  machine: TMachine;
  contextOf(entity: TEntity): ContextFrom<TMachine>;
  history: EventHistory;
  kind: EventKind;
  /** Whose it is (AUTH_MODE=strict), and the consent or payment it belongs to. */
  placeOf(entity: TEntity): { ownerId: string | null; parentId: string | null };
  /**
   * The columns besides `status` that the compare-and-set holds: those the machine's guards read
   * and a concurrent write may change without changing the status (an authorisation's failed
   * attempts), so that no such change is lost.
   */
  comparedOn?(entity: TEntity): Partial<TEntity>;
}

/** A new aggregate, in its first status, stored with its creation in the history, in the caller's Store.write. */
export async function insertNew<TEntity extends StatusOwner, TMachine extends AnyStateMachine>(
  binding: MachineBinding<TEntity, TMachine>,
  entity: TEntity,
): Promise<void> {
  await binding.store.insert(binding.target, entity);
  await binding.history.record({
    kind: binding.kind,
    resourceId: entity.id,
    fromStatus: null,
    toStatus: entity.status,
    event: 'CREATED',
    ...binding.placeOf(entity),
  });
}

/**
 * Lets the machine decide an event, then writes the new status (with `also`, or what `also` makes
 * of the row as it is) by a compare-and-set on the old status (and the binding's `comparedOn`
 * columns), so that of two racing requests only one wins, on either engine. The loser reads the
 * row again and the machine decides on what the winner left. The change goes into the event
 * history in the same write. Runs inside a Store.write.
 */
export async function applyEvent<TEntity extends StatusOwner, TMachine extends AnyStateMachine>(
  binding: MachineBinding<TEntity, TMachine>,
  entity: TEntity,
  event: EventFromLogic<TMachine>,
  alsoOf: Partial<TEntity> | ((entity: TEntity) => Partial<TEntity>) = {},
): Promise<{ entity: TEntity; accepted: boolean }> {
  const status = nextStatus(binding.machine, entity.status, binding.contextOf(entity), event);
  if (!status) return { entity, accepted: false };
  const also = typeof alsoOf === 'function' ? alsoOf(entity) : alsoOf;
  const where = { id: entity.id, status: entity.status, ...binding.comparedOn?.(entity) } as FindOptionsWhere<TEntity>;
  const { affected } = await binding.store.change(binding.target).update(where, { ...also, status } as QueryDeepPartialEntity<TEntity>);
  if (affected) {
    await binding.history.record({
      kind: binding.kind,
      resourceId: entity.id,
      fromStatus: entity.status,
      toStatus: status,
      event: event.type,
      ...binding.placeOf(entity),
    });
    return { entity: Object.assign(entity, also, { status }), accepted: true };
  }
  const current = await binding.store.read(binding.target).findOneByOrFail({ id: entity.id } as FindOptionsWhere<TEntity>);
  return applyEvent(binding, current, event, alsoOf);
}
