import { randomUUID } from 'node:crypto';
import { Injectable, Type } from '@nestjs/common';
import { DataSource, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import { refusal } from '../common/error-catalogue';
import { Store } from './store';
import { WorldPurge } from './world-purge';
import { WorldRows } from './world-rows';
import { inPurgeOrder, isState, OwnColumn, rowsOfWorld, scopeOf, ScopedWorld, worldLock } from '../world/world-scope';
import { AS_NEW, WorldSnapshot } from './world-snapshot.entity';

/** Snapshots a world keeps at most, and the most rows one holds (docs/scenarios-and-clock.md, "Snapshots"). */
export const MAX_SNAPSHOTS = 10;
export const MAX_SNAPSHOT_ROWS = 50_000;

export type SnapshotSummary = Omit<WorldSnapshot, 'ownerId' | 'rows'>;

const summary = ({ snapshotId, name, createdAt, sandboxDate, resources }: SnapshotSummary): SnapshotSummary => ({
  snapshotId,
  name,
  createdAt,
  sandboxDate,
  resources,
});

/**
 * A world's recovery points (docs/scenarios-and-clock.md, "Snapshots"): the rows of its state, as
 * its entities declare them (`@WorldScoped`, credentials left out), kept table by table; a
 * restore forgets the world's state as a reset would and puts the snapshot's rows back, in one
 * write under the world's lock, so that its clock moves and bookings run before or after it, never
 * beside it. Another world's snapshot is unknown.
 */
@Injectable()
export class WorldSnapshots {
  constructor(
    private readonly store: Store,
    private readonly dataSource: DataSource,
    private readonly rows: WorldRows,
    private readonly purge: WorldPurge,
  ) {}

  async take(world: ScopedWorld, name: string, sandboxDate: string): Promise<SnapshotSummary> {
    return this.store.write(async () => {
      await this.store.lock(worldLock(world));
      const kept = await this.store.read(WorldSnapshot).count({ where: this.ofWorld(world) });
      if (kept >= MAX_SNAPSHOTS) throw full(`this world keeps ${MAX_SNAPSHOTS} snapshots, the most it may: delete one first`);
      const tables: Record<string, ObjectLiteral[]> = {};
      let rows = 0;
      let resources = 0;
      for (const entity of this.stateEntities()) {
        const found: ObjectLiteral[] = [];
        for (const where of await this.rows.where(entity, world))
          found.push(...(await this.store.read<ObjectLiteral>(entity).find({ where })));
        rows += found.length;
        if (rows > MAX_SNAPSHOT_ROWS)
          throw full(`this world's state is more than ${MAX_SNAPSHOT_ROWS} rows, more than a snapshot holds: reset it first`);
        const scope = scopeOf(entity);
        if (typeof scope === 'object' && 'resource' in scope && scope.resource) resources += found.length;
        if (found.length) tables[this.dataSource.getMetadata(entity).tableName] = found;
      }
      const snapshot: WorldSnapshot = {
        snapshotId: randomUUID(),
        ownerId: world.clientId,
        name,
        createdAt: new Date().toISOString(),
        sandboxDate,
        resources,
        rows: JSON.stringify(tables),
      };
      await this.store.insert(WorldSnapshot, snapshot);
      return summary(snapshot);
    });
  }

  /** The world's snapshots, `as new` (whose date is `firstDay`, where a new world's clock stands) first. */
  async list(world: ScopedWorld, firstDay: string): Promise<SnapshotSummary[]> {
    const snapshots = await this.store.read(WorldSnapshot).find({
      select: { snapshotId: true, name: true, createdAt: true, sandboxDate: true, resources: true },
      where: this.ofWorld(world),
      order: { createdAt: 'ASC', snapshotId: 'ASC' },
    });
    return [summary({ ...AS_NEW, sandboxDate: firstDay }), ...snapshots.map(summary)];
  }

  /** Brings the world back to the snapshot: what was made after is unknown again, what was changed or deleted after is as it was, its clock and conditions too. */
  async restore(world: ScopedWorld, snapshotId: string, firstDay: string): Promise<SnapshotSummary> {
    return this.store.write(async () => {
      const snapshot =
        snapshotId === AS_NEW.snapshotId ? { ...AS_NEW, sandboxDate: firstDay, rows: '{}' } : await this.find(world, snapshotId);
      const tables = JSON.parse(snapshot.rows) as Record<string, ObjectLiteral[]>;
      // The world's lock is taken here; the instances hear of the world once, as restored.
      await this.purge.forgetRows(world, 'restore');
      for (const entity of [...this.stateEntities()].reverse()) {
        const rows = tables[this.dataSource.getMetadata(entity).tableName];
        if (rows) await this.store.insertMany(entity, rows);
      }
      await this.store.worldChanged(world.key);
      return summary(snapshot);
    });
  }

  async delete(world: ScopedWorld, snapshotId: string): Promise<void> {
    if (snapshotId === AS_NEW.snapshotId)
      throw refusal('snapshotFixed', 'the snapshot "as new" is every world\'s and stays: delete one this world took');
    await this.store.write(async () => {
      await this.find(world, snapshotId);
      await this.store.change(WorldSnapshot).delete({ snapshotId });
    });
  }

  private async find(world: ScopedWorld, snapshotId: string): Promise<WorldSnapshot> {
    const found = await this.store.read(WorldSnapshot).findOneBy({ ...this.ofWorld(world), snapshotId });
    if (!found) throw refusal('snapshotUnknown', `snapshot ${snapshotId} unknown`);
    return found;
  }

  /** The world's snapshots, by the rule every world's rows are found by. */
  private ofWorld(world: ScopedWorld): FindOptionsWhere<WorldSnapshot> {
    return rowsOfWorld(scopeOf(WorldSnapshot) as OwnColumn, world);
  }

  /** The tables of a world's state, in purge order: what a snapshot holds. */
  private stateEntities(): Type[] {
    return inPurgeOrder(this.dataSource).filter((entity) => isState(scopeOf(entity)));
  }
}

const full = (text: string) => refusal('snapshotsFull', text);
