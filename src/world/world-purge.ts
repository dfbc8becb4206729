import { Injectable, Type } from '@nestjs/common';
import { DataSource, FindOptionsWhere, In, IsNull, Not, ObjectLiteral } from 'typeorm';
import { Store } from '../database/store';
import { inPurgeOrder, rowsOfWorld, scopeOf, ScopedWorld, WorldScope } from './world-scope';

/** Values per IN list: far below what any engine binds to one statement. */
const CHUNK = 500;

/**
 * Forgets a world's rows in every table, as each entity declares them its world's (`@WorldScoped`,
 * docs/security.md, "A world's life"): a reset keeps the client and its tokens, a deletion takes
 * them too. Rows found through a parent's go first, while the parent's are there to find them by;
 * a certificate is revoked and no longer the world's rather than deleted, so that it speaks for no
 * one. What instances keep of the world in memory (its clock, its conditions) is forgotten on every
 * instance in the same write.
 */
@Injectable()
export class WorldPurge {
  constructor(
    private readonly store: Store,
    private readonly dataSource: DataSource,
  ) {}

  /** Inside a Store.write; answers how many rows it forgot. */
  async purge(world: ScopedWorld, what: 'reset' | 'delete'): Promise<number> {
    let forgotten = 0;
    for (const entity of inPurgeOrder(this.dataSource)) forgotten += await this.forget(entity, scopeOf(entity), world, what);
    await this.store.forgetWorld(world.key);
    return forgotten;
  }

  private async forget(entity: Type, scope: WorldScope, world: ScopedWorld, what: 'reset' | 'delete'): Promise<number> {
    if (scope === 'none' || 'cascade' in scope) return 0;
    const change = this.store.change<ObjectLiteral>(entity);
    const deleted = async (where: FindOptionsWhere<ObjectLiteral>) => (await change.delete(where)).affected ?? 0;
    if ('key' in scope) return deleted({ [scope.key]: world.key });
    if ('through' in scope) {
      const values = await this.valuesOf(scope.through(), scope.parentColumn, world);
      return (await inChunks(values, (chunk) => deleted({ [scope.column]: In(chunk) }))).reduce((sum, affected) => sum + affected, 0);
    }
    if (what === 'reset' && scope.keptOnReset) return 0;
    if (scope.revoke)
      return (await change.update(rowsOfWorld(scope, world), { [scope.revoke.column]: true, [scope.column]: null })).affected ?? 0;
    return deleted(rowsOfWorld(scope, world));
  }

  /** The values of `column` in the world's rows of `entity` (non-null): what rows found through them hold. */
  private async valuesOf(entity: Type, column: string, world: ScopedWorld): Promise<unknown[]> {
    const scope = scopeOf(entity);
    if (scope === 'none' || 'cascade' in scope || 'key' in scope)
      throw new Error(`${entity.name} is no parent a world's rows are found through`);
    const read = (where: FindOptionsWhere<ObjectLiteral>) =>
      this.store.change<ObjectLiteral>(entity).find({ select: { [column]: true }, where: { ...where, [column]: Not(IsNull()) } });
    const rows =
      'through' in scope
        ? (
            await inChunks(await this.valuesOf(scope.through(), scope.parentColumn, world), (chunk) => read({ [scope.column]: In(chunk) }))
          ).flat()
        : await read(rowsOfWorld(scope, world));
    return [...new Set(rows.map((row) => row[column] as unknown))];
  }
}

/** `work` on each IN list of at most CHUNK values, one after the other (one transaction's statements never overlap). */
async function inChunks<T>(values: unknown[], work: (chunk: unknown[]) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < values.length; start += CHUNK) results.push(await work(values.slice(start, start + CHUNK)));
  return results;
}
