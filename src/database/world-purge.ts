import { Injectable, Type } from '@nestjs/common';
import { DataSource, ObjectLiteral } from 'typeorm';
import { Store } from './store';
import { WorldRows } from './world-rows';
import { inPurgeOrder, isState, scopeOf, ScopedWorld, worldLock, worldRowOf } from '../world/world-scope';

/**
 * What a purge forgets: a reset, the world's state and credentials (its client and tokens stay);
 * a restore, its state only (WorldSnapshots puts a snapshot's back); a deletion, everything.
 */
export type Purge = 'reset' | 'restore' | 'delete';

/**
 * Forgets a world's rows in every table, as each entity declares them its world's (`@WorldScoped`,
 * docs/security.md, "A world's life"). Rows found through a parent's go first, while the parent's
 * are there to find them by; those the database deletes with their parent are left to it; a
 * certificate is revoked and no longer the world's rather than deleted, so that it speaks for no
 * one. What instances keep of the world in memory (its clock, its conditions, what they remember of
 * its certificates' rows) is read again on every instance in the same write. Under the world's
 * lock: its clock moves and bookings run before or after a purge, never beside it.
 */
@Injectable()
export class WorldPurge {
  constructor(
    private readonly store: Store,
    private readonly dataSource: DataSource,
    private readonly rows: WorldRows,
  ) {}

  /** Inside a Store.write; answers how many rows it forgot. */
  async purge(world: ScopedWorld, what: Purge): Promise<number> {
    const forgotten = await this.forgetRows(world, what);
    await this.store.worldChanged(world.key);
    return forgotten;
  }

  /** The same, without telling the instances yet: for a write that puts rows back before it does (WorldSnapshots.restore). */
  async forgetRows(world: ScopedWorld, what: Purge): Promise<number> {
    await this.store.lock(worldLock(world));
    // A deletion holds its client's row first: a write inserting a row of the world holds it too
    // (Store.insert) and so commits before the purge reads, or finds the client gone after it.
    if (what === 'delete' && world.clientId !== null) {
      const { entity, where } = worldRowOf(world.clientId);
      await this.store.findForUpdate<ObjectLiteral>(entity, where);
    }
    let forgotten = 0;
    for (const entity of inPurgeOrder(this.dataSource)) forgotten += await this.forget(entity, world, what);
    return forgotten;
  }

  private async forget(entity: Type, world: ScopedWorld, what: Purge): Promise<number> {
    const scope = scopeOf(entity);
    if (scope === 'none' || 'cascade' in scope) return 0;
    if (what === 'restore' && !isState(scope)) return 0;
    if (what === 'reset' && 'keptOnReset' in scope && scope.keptOnReset) return 0;
    const change = this.store.change<ObjectLiteral>(entity);
    const revoke = 'revoke' in scope ? scope.revoke : undefined;
    let forgotten = 0;
    for (const where of await this.rows.where(entity, world)) {
      forgotten += await this.store.changeRows(entity, where, (rows) =>
        revoke && 'column' in scope ? change.update(rows, { [revoke.column]: true, [scope.column]: null }) : change.delete(rows),
      );
    }
    return forgotten;
  }
}
