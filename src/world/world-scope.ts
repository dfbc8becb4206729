import type { Type } from '@nestjs/common';
import { DataSource, FindOptionsWhere, IsNull, Not, ObjectLiteral } from 'typeorm';

/** A world as its rows name it: its client (null: the open world) and its key (World.key). */
export interface ScopedWorld {
  clientId: string | null;
  key: string;
}

/**
 * A column that holds the world's client ID (null: the open world). `sharedWhen`: among the rows of
 * no client, those that are the bank's fixtures and no world's (a reset of the open world keeps
 * them). `keptOnReset`: the client itself (its registration, its tokens, its snapshots), gone only
 * with it. `revoke`: its rows are revoked and no longer the world's, rather than deleted
 * (certificates). `resource`: each row is a resource a TPP created, counted against
 * WORLD_MAX_RESOURCES. `credential`: a reset takes them, but they are not the world's state: no
 * snapshot holds them and a restore leaves them as they are (a revoked certificate stays revoked,
 * a spent request ID stays spent). `theWorld`: its rows are the worlds themselves (the clients): a
 * world lives while its row does.
 */
export interface OwnColumn {
  column: string;
  theWorld?: true;
  resource?: true;
  sharedWhen?: { column: string; is: true | null };
  keptOnReset?: true;
  revoke?: { column: string };
  credential?: true;
}

/**
 * How a table's rows belong to a world (docs/security.md, "A world's life"), declared on its
 * entity class with `@WorldScoped`: what a reset forgets and a deletion purges is read from here,
 * and a start that finds an entity without a declaration, or a column naming a world in an entity
 * declared as no world's, stops with a message naming it.
 */
export type WorldScope =
  | OwnColumn
  /** Its `world` column holds the world's key ("" for the open world): one row a world. */
  | { key: string }
  /** Its rows belong to the world of the parent rows whose `parentColumn` holds its `column`'s value. */
  | { through: () => Type; column: string; parentColumn: string; credential?: true }
  /** Deleted with its parent rows by the database (ON DELETE CASCADE). */
  | { cascade: () => Type }
  /** No world's: the bank's own (its CA, its secrets, the seeded profile), or kept by address or session until it ends. */
  | 'none';

const SCOPES = new Map<object, WorldScope>();

/** Declares the entity's world scope (docs/security.md, "A world's life"). */
export function WorldScoped(scope: WorldScope): ClassDecorator {
  return (target) => void SCOPES.set(target, scope);
}

/** The entity's declared scope; the start-up check has made sure every entity has one. */
export function scopeOf(entity: Type): WorldScope {
  const scope = SCOPES.get(entity);
  if (scope === undefined) throw new Error(`${entity.name} declares no world scope (@WorldScoped)`);
  return scope;
}

/** Columns that name a world: an entity with one must say how it is the world's. */
const WORLD_COLUMNS = ['ownerId', 'clientId', 'world', 'scenarioId'];

/** What the schema's entities declare against what their columns say: one line per problem, naming the entity. */
export function worldScopeProblems(dataSource: DataSource): string[] {
  return dataSource.entityMetadatas.flatMap(({ target, columns }) => {
    const entity = target as Type;
    const scope = SCOPES.get(entity);
    if (scope === undefined) return [`${entity.name} declares no world scope: add @WorldScoped(…) (src/world/world-scope.ts)`];
    const named = columns.map(({ propertyName }) => propertyName).filter((name) => WORLD_COLUMNS.includes(name));
    if (scope === 'none' && named.length) return [`${entity.name} is declared no world's, but its column ${named[0]} names a world`];
    return [];
  });
}

/**
 * The schema's entities in the order a purge deletes their rows: those found through a parent's
 * first, deepest first (while the parent's rows are there to find them by), then those with a
 * foreign key, before the tables they name. Reversed, the order a restore inserts them in.
 */
export function inPurgeOrder(dataSource: DataSource): Type[] {
  const depth = (entity: Type): number => {
    const scope = scopeOf(entity);
    if (typeof scope !== 'object') return 0;
    if ('through' in scope) return 1 + depth(scope.through());
    return 'cascade' in scope ? 1 + depth(scope.cascade()) : 0;
  };
  const referencesOthers = (entity: Type) => (dataSource.getMetadata(entity).foreignKeys.length > 0 ? 1 : 0);
  return dataSource.entityMetadatas
    .map(({ target }) => target as Type)
    .sort((a, b) => depth(b) - depth(a) || referencesOthers(b) - referencesOthers(a));
}

/** The lock a world's clock moves, bookings, resets and restores take, so that they run one after the other (Store.lock). */
export const worldLock = ({ key }: { key: string }): string => `world:${key}`;

/** Whether a snapshot holds the entity's rows and a restore puts them back: what a reset forgets, but credentials. */
export function isState(scope: WorldScope): boolean {
  if (scope === 'none') return false;
  if ('key' in scope || 'cascade' in scope) return true;
  return !scope.credential && !('keptOnReset' in scope && scope.keptOnReset);
}

/** Whether the entity's rows are the worlds themselves (the clients). */
export function isTheWorld(entity: Type): boolean {
  const scope = SCOPES.get(entity);
  return typeof scope === 'object' && 'theWorld' in scope && scope.theWorld === true;
}

/**
 * The row that must be there for `row` of `entity` to be stored (Store.insert): its client's, or
 * the parent's it is found through; none for a row of the open world, of no world, one the
 * database deletes with its parent (its foreign key holds it), or a credential found through one.
 */
export function rowItLivesBy(entity: Type, row: Record<string, unknown>): { entity: Type; where: Record<string, unknown> } | null {
  const scope = SCOPES.get(entity);
  if (scope === undefined || scope === 'none' || 'cascade' in scope) return null;
  // A spent signature ID may name a certificate of a CA the bank trusts, which the sandbox never stored.
  if ('through' in scope)
    return row[scope.column] == null || scope.credential
      ? null
      : { entity: scope.through(), where: { [scope.parentColumn]: row[scope.column] } };
  if (isTheWorld(entity)) return null;
  const clientId = 'key' in scope ? row[scope.key] || null : row[scope.column];
  return clientId == null ? null : worldRowOf(clientId as string);
}

/** The entity whose rows are the worlds, and its column: found among the declarations once, since every insert of a world's row asks. */
let worlds: { entity: Type; column: string } | undefined;

/** The row a client's world lives by: its client's. */
export function worldRowOf(clientId: string): { entity: Type; where: Record<string, unknown> } {
  if (!worlds) {
    const [entity, scope] = [...SCOPES].find(([declared]) => isTheWorld(declared as Type))!;
    worlds = { entity: entity as Type, column: (scope as OwnColumn).column };
  }
  return { entity: worlds.entity, where: { [worlds.column]: clientId } };
}

/** The where-clause of the world's rows: its client's, or, for the open world, those of no client that are not the bank's fixtures. */
export function rowsOfWorld(scope: OwnColumn, { clientId }: ScopedWorld): FindOptionsWhere<ObjectLiteral> {
  if (clientId !== null) return { [scope.column]: clientId };
  const shared = scope.sharedWhen;
  return { [scope.column]: IsNull(), ...(shared ? { [shared.column]: shared.is === null ? Not(IsNull()) : Not(shared.is) } : {}) };
}
