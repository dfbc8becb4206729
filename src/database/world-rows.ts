import { Injectable, Type } from '@nestjs/common';
import { DataSource, FindOptionsWhere, In, IsNull, Not, ObjectLiteral } from 'typeorm';
import { Store } from './store';
import { rowsOfWorld, scopeOf, ScopedWorld } from '../world/world-scope';

/** Values per IN list: far below what any engine binds to one statement. */
const CHUNK = 500;

type Where = FindOptionsWhere<ObjectLiteral>;

/**
 * Finds a world's rows of each table as its entity declares them (`@WorldScoped`, docs/security.md,
 * "A world's life"): what a purge forgets and a snapshot keeps. Rows found through a parent's
 * (declared, or deleted with it by the database) are found by the parent's values, read now.
 */
@Injectable()
export class WorldRows {
  constructor(
    private readonly store: Store,
    private readonly dataSource: DataSource,
  ) {}

  /** Where-clauses that together select the world's rows of `entity`: none for a table that is no world's. */
  async where(entity: Type, world: ScopedWorld): Promise<Where[]> {
    const scope = scopeOf(entity);
    if (scope === 'none') return [];
    if ('key' in scope) return [{ [scope.key]: world.key }];
    if (!('through' in scope) && !('cascade' in scope)) return [rowsOfWorld(scope, world)];
    const { parent, column, parentColumn } =
      'through' in scope ? { ...scope, parent: scope.through() } : this.foreignKey(entity, scope.cascade());
    const values = new Set<unknown>();
    for (const where of await this.where(parent, world)) {
      const rows = await this.store
        .read<ObjectLiteral>(parent)
        .find({ select: { [parentColumn]: true }, where: { ...where, [parentColumn]: Not(IsNull()) } });
      for (const row of rows) values.add(row[parentColumn]);
    }
    const all = [...values];
    const wheres: Where[] = [];
    for (let start = 0; start < all.length; start += CHUNK) wheres.push({ [column]: In(all.slice(start, start + CHUNK)) });
    return wheres;
  }

  /** The rows of `entity` deleted with `parent`'s: the column of its foreign key to it. */
  private foreignKey(entity: Type, parent: Type): { parent: Type; column: string; parentColumn: string } {
    const key = this.dataSource
      .getMetadata(entity)
      .foreignKeys.find(({ referencedEntityMetadata }) => referencedEntityMetadata.target === parent);
    if (!key) throw new Error(`${entity.name} is declared deleted with ${parent.name}, but has no foreign key to it`);
    return { parent, column: key.columns[0].propertyName, parentColumn: key.referencedColumns[0].propertyName };
  }
}
