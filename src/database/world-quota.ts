import { Inject, Injectable, Type } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { refusal } from '../common/error-catalogue';
import type { Environment } from '../config/environment';
import { Store } from './store';
import { scopeOf, ScopedWorld } from '../world/world-scope';
import type { CountedColumns } from './prebuilt-statements';

/**
 * WORLD_MAX_RESOURCES (docs/security.md, "A world's life"): what one world stores is bounded, so
 * that no client fills the disk every world shares. Counted where a route stores a resource
 * (StoresResource), over the tables whose entities declare their rows resources (`@WorldScoped`):
 * consents, payments, baskets, payee checks, scenarios, certificates. Past the bound the creation
 * is refused before anything is stored; other worlds go on. A client's world only: the open world
 * (AUTH_MODE=open) is its one user's, whose every row is its own (a database of a million
 * payments stays usable, and is not counted on each creation).
 */
@Injectable()
export class WorldQuota {
  private readonly limit: number;
  /** The resource tables and their owner columns: read from the declarations once, at the first creation. */
  private resourceTables: CountedColumns | undefined;

  constructor(
    private readonly store: Store,
    private readonly dataSource: DataSource,
    @Inject(ConfigService) config: ConfigService<Environment, true>,
  ) {
    this.limit = config.get('WORLD_MAX_RESOURCES', { infer: true });
  }

  async assertRoom(world: ScopedWorld): Promise<void> {
    if (this.limit === 0 || world.clientId === null) return;
    // A client's rows are those whose owner column holds its ID (world-scope.ts, rowsOfWorld): one count over every table.
    this.resourceTables ??= this.resources();
    if ((await this.store.countEqual(this.resourceTables, world.clientId)) >= this.limit)
      throw refusal(
        'worldFull',
        `this world stores ${this.limit} resources, its quota (WORLD_MAX_RESOURCES): make room with POST /sandbox/world/reset, a restore of an earlier snapshot (POST /sandbox/world/snapshots/{snapshotId}/restore), or by deleting what it no longer needs`,
      );
  }

  private resources(): CountedColumns {
    return this.dataSource.entityMetadatas.flatMap(({ target }) => {
      const scope = scopeOf(target as Type);
      return typeof scope === 'object' && 'column' in scope && !('through' in scope) && scope.resource
        ? [{ target: target as Type, column: scope.column }]
        : [];
    });
  }
}
