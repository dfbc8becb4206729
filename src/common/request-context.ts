import { AsyncLocalStorage } from 'node:async_hooks';

/** Who acts in an SCA decision, and through which channel (docs/events.md). */
export interface Actor {
  psuId: string;
  channel: 'page' | 'embedded' | 'decoupled' | 'control' | 'cockpit' | 'dashboard';
}

/** What caused the work under way: a request (its X-Request-ID) or the clock, and the PSU acting, if one is. */
interface Context {
  cause: string;
  actor?: Actor;
  /** The serial number of the certificate the request was signed with or came over TLS with (docs/tpp-identity.md). */
  certificate?: string;
  /** A request's: the insert it owes (Store.oweInsertUnique), kept by reference, so that actingAs shares it. */
  owing?: { owed?: OwedInsert };
  /** The write under way (Store.write), whose shape is the database's. */
  write?: unknown;
}

/** An insert a request owes while no write of it has made it: in its next write, or alone before its answer. */
export interface OwedInsert {
  inWrite: () => Promise<void>;
  alone: () => Promise<void>;
}

/**
 * The one async context: a request's, which the database's owed insert and its write under way
 * share. On this Node each AsyncLocalStorage costs every promise made its share, a store of its
 * own in each (docs/benchmark.md, "What was tried").
 */
const context = new AsyncLocalStorage<Context>();

/** The length of the history's cause column: a /sandbox route takes any X-Request-ID, which the history keeps this much of (docs/events.md). */
const CAUSE_LENGTH = 200;

/** Runs the rest of a request in its context, caused by its X-Request-ID, with room for the insert it may owe. */
export const inRequestContext = (requestId: string, handle: () => void): void =>
  context.run({ cause: requestId.slice(0, CAUSE_LENGTH), owing: {} }, handle);

/** The insert the request under way owes (Store.oweInsertUnique); undefined outside a request. */
export const owedInsertOfRequest = (): { owed?: OwedInsert } | undefined => context.getStore()?.owing;

/** Work done later for a cause (a notification for the request whose change it tells of), in the write under way, if any. */
export const causedBy = <T>(cause: string, work: () => Promise<T>): Promise<T> =>
  context.run({ cause, write: context.getStore()?.write }, work);

/** Work the clock does (ClockService.catchUp), whichever request it runs under. */
export const asClock = <T>(work: () => Promise<T>): Promise<T> => causedBy('clock', work);

/** Work a PSU does through a channel: the status changes it causes name them. */
export const actingAs = <T>(actor: Actor, work: () => Promise<T>): Promise<T> =>
  context.run({ ...(context.getStore() ?? { cause: 'unknown' }), actor }, work);

/**
 * How the caller's write is run (Store.write): in the caller's context, with the write. Taken when
 * the write is asked for, as it may run later under another request's: GroupCommit runs a batch's
 * writes in turn under the request that began the batch, and each must name its own cause, actor
 * and certificate (docs/events.md).
 */
export function inCallersWrite(): <T>(write: unknown, work: () => T) => T {
  const caller = context.getStore() ?? { cause: 'startup' };
  return (write, work) => context.run({ ...caller, write }, work);
}

/** The write under way (Store.write); undefined outside one. */
export const writeUnderWay = (): unknown => context.getStore()?.write;

export const currentCause = (): string => context.getStore()?.cause ?? 'startup';
export const currentActor = (): Actor | undefined => context.getStore()?.actor;
export const currentCertificate = (): string | undefined => context.getStore()?.certificate;

/** The request's certificate passed the checks (TppIdentityGuard): what it causes names it. */
export function identifiedBy(serialNumber: string): void {
  const store = context.getStore();
  if (store) store.certificate = serialNumber;
}
