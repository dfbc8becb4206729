import { randomUUID } from 'node:crypto';
import { Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';

/** The channel the instances on one PostgreSQL database hear each other's changes on (LISTEN/NOTIFY is per database). */
const CHANNEL = 'psd2_sandbox_changes';
/** The listening connection's application_name, for an operator's eye: a change counts the listeners by their sessions (LISTENERS). */
const LISTENER = 'psd2-sandbox listener';
/** The application_name of the connection that hears the acknowledgements of the moves made while the instance's listening one is down. */
const ACKNOWLEDGEMENTS = 'psd2-sandbox acknowledgements';
/** A backend as change_listeners names it: its pid and its start (migrations/1797600000001-ChangeListeners.ts). */
const SESSION = 'pid, extract(epoch FROM backend_start)::text';
/**
 * The listeners a change waits for, by their backends' pids: the sessions that wrote themselves
 * into change_listeners and are still alive. Not by application_name, which any connection may
 * take: one that did made every change wait HEARD_TIMEOUT_MS for an acknowledgement that never
 * came. An acknowledgement counts only as sent by one of them (a notification names its sender's pid).
 */
const LISTENERS = `SELECT pid FROM change_listeners WHERE (pid, "backendStart") IN (SELECT ${SESSION} FROM pg_stat_activity)`;
/** The listening session writes itself in, and forgets the sessions that are gone. */
const REGISTER =
  `WITH gone AS (DELETE FROM change_listeners WHERE (pid, "backendStart") NOT IN (SELECT ${SESSION} FROM pg_stat_activity)) ` +
  `INSERT INTO change_listeners (pid, "backendStart") SELECT ${SESSION} FROM pg_stat_activity WHERE pid = pg_backend_pid()`;
/**
 * Heard changes still being read and acknowledged, at most: a flood of hints (anyone who may
 * connect may NOTIFY) beyond it is not queued in memory; the instance stops listening, reads on
 * every request meanwhile, and listens again, reading every value, after RECONNECT_MS.
 */
const MAX_PENDING = 1_000;
/** The longest a change waits for an instance that does not answer (stopped, or its connection lost). */
const HEARD_TIMEOUT_MS = 2_000;
/**
 * The listening session has PostgreSQL probe its client after 10 s of silence, and give it up
 * after 25 s without an answer: a session whose instance vanished without closing it (its host
 * gone) then leaves pg_stat_activity within about half a minute, where it stayed for the operating
 * system's two hours, each change on the other instances waiting HEARD_TIMEOUT_MS for it
 * (docs/operations.md, "Hosting"). Over TCP only: a Unix socket's peer cannot vanish so. SET once
 * connected rather than sent as startup options, which a pooler in front may refuse.
 */
const KEEPALIVES =
  'SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3; SET tcp_user_timeout = 25000';
const RECONNECT_MS = 1_000;

/**
 * Values every instance keeps in memory and reads on each request, one for each key (a world: its
 * clock, its conditions; docs/operations.md, "Hosting"), changed rarely. Created by Store.shared.
 * A value is only ever read from its table (or set by this instance's own committed write): what
 * another instance announces is which key changed, never the value.
 */
export class Shared<T> {
  private readonly values = new Map<string, T>();
  /** Changes heard or made so far: a load that started before a change of its key must not overwrite it. */
  private changes = 0;
  /** The number of each key's last change, kept only while some load runs (so no key stays in memory for being heard). */
  private readonly changedAt = new Map<string, number>();
  /** Loads running. */
  private loads = 0;

  constructor(
    readonly topic: string,
    private readonly load: (key: string) => Promise<T | undefined>,
    private readonly loadAll: () => Promise<[string, T][]>,
    readonly fallback: T,
    private readonly feed: ChangeFeed,
  ) {}

  /** The key's value in memory; the fallback for a key nothing was stored for. */
  get(key: string): T {
    return this.values.get(key) ?? this.fallback;
  }

  /** Before a request relies on the key: nothing to do while this instance hears every change, else a read. */
  async fresh(key: string): Promise<void> {
    if (!this.feed.hearing) await this.reload(key);
  }

  /** The key's value as its table holds it now (inside a write, as the write left it). */
  async stored(key: string): Promise<T> {
    return (await this.load(key)) ?? this.fallback;
  }

  private reload(key: string): Promise<void> {
    return this.loading(async (since) => {
      const loaded = await this.load(key);
      if (!this.changedSince(key, since)) this.keep(key, loaded);
    });
  }

  /** Every key, as stored (at start, and once listening again: a change may have been missed). */
  reloadAll(): Promise<void> {
    return this.loading(async (since) => {
      const loaded = new Map(await this.loadAll());
      for (const key of new Set([...this.values.keys(), ...loaded.keys()]))
        if (!this.changedSince(key, since)) this.keep(key, loaded.get(key));
    });
  }

  private async loading(run: (since: number) => Promise<void>): Promise<void> {
    this.loads += 1;
    try {
      await run(this.changes);
    } finally {
      if (--this.loads === 0) this.changedAt.clear();
    }
  }

  private changedSince(key: string, since: number): boolean {
    return (this.changedAt.get(key) ?? 0) > since;
  }

  private keep(key: string, value: T | undefined): void {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }

  /** This instance's own write committed `value` for `key`. */
  set(key: string, value: T): void {
    this.count(key);
    // A world's value back to the fallback (its rows purged) is forgotten rather than kept.
    this.keep(key, value === this.fallback ? undefined : value);
  }

  /** Another instance changed `key`: read it from the table. */
  heard(key: string): Promise<void> {
    this.count(key);
    return this.reload(key);
  }

  private count(key: string): void {
    this.changes += 1;
    if (this.loads > 0) this.changedAt.set(key, this.changes);
  }
}

/** The key a change of every key is told by (Store.changeRows, of many rows): no row's key, which Remembered values are kept by. */
export const EVERY_KEY = '*';

/**
 * Rows an instance reads when first asked for them and then keeps, at most `limit`, while it hears
 * every change (a certificate's revocation and client, docs/tpp-identity.md). Unlike a Shared
 * value's, not every key is in memory: one that is not is read. A write that changes a key makes
 * every instance forget it (Store.forget): here once committed, elsewhere before it is answered.
 */
export class Remembered<T> {
  private readonly values = new Map<string, T>();
  /** Changes heard or made so far: a read that a change overtook is not kept. */
  private changes = 0;

  constructor(
    readonly topic: string,
    private readonly load: (key: string) => Promise<T>,
    private readonly limit: number,
    private readonly feed: ChangeFeed,
    /** Whether a read made now sees committed rows only (Store.readsCommitted): else what it reads may yet be rolled back. */
    private readonly readsCommitted: () => boolean,
  ) {}

  /** The key's value: from memory while this instance hears every change, else from its table. */
  async get(key: string): Promise<T> {
    if (this.feed.hearing && this.values.has(key)) return this.values.get(key)!;
    const since = this.changes;
    // A rolled-back write tells no change, so a value read from its rows is answered, not kept.
    const committed = this.readsCommitted();
    const value = await this.load(key);
    if (committed && this.feed.hearing && since === this.changes) {
      if (this.values.size >= this.limit) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }

  /** `key` (or EVERY_KEY) changed, here or on another instance: read again when next asked. */
  heard(key: string): Promise<void> {
    this.changes += 1;
    if (key === EVERY_KEY) this.values.clear();
    else this.values.delete(key);
    return Promise.resolve();
  }

  /** Listening again: a change may have been missed meanwhile. */
  reloadAll(): Promise<void> {
    return this.heard(EVERY_KEY);
  }
}

/** A connection lent to the moves that wait on it (ChangeFeed.borrowEars). */
interface Ears {
  client: Promise<Client | null>;
  users: number;
}

/** What the feed tells of changes it hears: a Shared value or a Remembered one. */
type Told = Pick<Shared<unknown>, 'topic' | 'heard' | 'reloadAll'>;

/**
 * How the instances on one database hear of a change of a Shared value without a query a request
 * (docs/operations.md, "Hosting"). On PostgreSQL each instance holds one connection that LISTENs;
 * a change NOTIFYs in its own transaction, so the others hear it only if, and once, it commits, in
 * commit order. Every instance answers what it heard, and the change is acknowledged once each
 * instance that was listening has the new value in memory: a request that follows it, on any
 * instance, sees it. While its connection is down, an instance reads each value on every request.
 * SQLite's file is served by one process: it hears everything already.
 */
export class ChangeFeed implements OnModuleInit, OnModuleDestroy {
  private readonly values = new Map<string, Told>();
  /** Notifications on the channel that were not the sandbox's (anyone on the database may send them). */
  private ignored = 0;
  /** The last acknowledgement sent: the next waits for it. */
  private acknowledging: Promise<void> = Promise.resolve();
  /** Changes heard from other instances, still being read or acknowledged. */
  private pending = 0;
  /** Changes this instance made, waiting for an acknowledgement from each listening session in `missing` (their pids), heard on `via`. */
  private readonly waiting = new Map<string, { missing: Set<number>; done: () => void; via: Client }>();
  private client: Client | null = null;
  /** Connections given up: what they still report changes nothing. */
  private readonly abandoned = new WeakSet<Client>();
  private retry: NodeJS.Timeout | null = null;
  /** While the listening connection is down: the connection this instance's moves hear their acknowledgements on. */
  private ears: Ears | null = null;
  private closed = false;
  /** Whether every change another instance commits reaches this one's memory without a read. */
  hearing: boolean;

  constructor(private readonly url: string | undefined) {
    this.hearing = !url;
  }

  static of(dataSource: DataSource): ChangeFeed {
    return new ChangeFeed(dataSource.options.type === 'postgres' ? dataSource.options.url : undefined);
  }

  register(told: Told): void {
    this.values.set(told.topic, told);
  }

  onModuleInit(): Promise<void> {
    return this.open();
  }

  onModuleDestroy(): Promise<void> {
    return this.close();
  }

  /** Starts listening (PostgreSQL): the values are read again once the connection listens, so that no change falls between. */
  private async open(): Promise<void> {
    if (!this.url || this.closed) return;
    const client = new Client({ connectionString: this.url, application_name: LISTENER });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', ({ processId, payload }) => this.heard(client, processId, payload));
    try {
      await client.connect();
      await client.query(KEEPALIVES);
      await client.query(`LISTEN ${CHANNEL}`);
      await client.query(REGISTER);
      if (this.abandoned.has(client)) return; // lost while it connected: another is on its way
      this.client = client;
      for (const shared of this.values.values()) await shared.reloadAll();
      this.hearing = this.client === client; // not if it was lost meanwhile
    } catch {
      this.lost(client);
    }
  }

  private async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.hearing = !this.url;
    await this.client?.end().catch(() => undefined);
  }

  /**
   * Inside the write that changes `topic`'s `key`, on its transaction, on PostgreSQL: `heard`
   * resolves once every instance listening when it ran has read the committed change (or
   * HEARD_TIMEOUT_MS passed). The notification names the key, not the value. An instance whose
   * listening connection is down hears the acknowledgements on a connection of their own: the
   * others answered before the move is, as always (docs/operations.md, "Hosting").
   */
  async announce(manager: EntityManager, topic: string, key: string): Promise<{ heard: Promise<void> }> {
    const id = randomUUID();
    const ears = this.hearing ? null : this.borrowEars();
    const via = ears ? await ears.client : this.client;
    if (ears && !via) this.giveBack(ears);
    const heard = !via
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(() => finish(), HEARD_TIMEOUT_MS);
          const finish = () => {
            clearTimeout(timer);
            this.waiting.delete(id);
            if (ears) this.giveBack(ears);
            resolve();
          };
          this.waiting.set(id, { missing: new Set(), done: finish, via });
        });
    // Its acknowledgements come once the write commits, after this statement is answered.
    const [{ listening }] = (await manager.query(`SELECT pg_notify($1, $2), ARRAY(${LISTENERS}) AS listening`, [
      CHANNEL,
      JSON.stringify({ id, topic, key }),
    ])) as { listening: number[] }[];
    const waiting = this.waiting.get(id);
    if (waiting) {
      for (const pid of listening) waiting.missing.add(pid);
      if (waiting.missing.size === 0) waiting.done();
    }
    return { heard };
  }

  /**
   * The acknowledgements' connection, opened by the first move made while the listening one is
   * down and shared by the moves meanwhile: one at a time, however many moves a client sends.
   */
  private borrowEars(): Ears {
    if (!this.ears) {
      const ears: Ears = { client: Promise.resolve(null), users: 0 };
      // Lost while moves wait on it: they wait out HEARD_TIMEOUT_MS, and the next move opens another.
      ears.client = this.acknowledgements(() => {
        if (this.ears === ears) this.ears = null;
      });
      this.ears = ears;
    }
    this.ears.users += 1;
    return this.ears;
  }

  /** Closed once the last move waiting on it is done: the next one opens another. */
  private giveBack(ears: Ears): void {
    if (--ears.users > 0) return;
    if (this.ears === ears) this.ears = null;
    void ears.client.then((client) => client?.end().catch(() => undefined));
  }

  /** A connection that LISTENs for acknowledgements only (it writes itself into no table, so no change waits for it); null if none opens. */
  private async acknowledgements(lost: () => void): Promise<Client | null> {
    if (!this.url || this.closed) return null;
    const client = new Client({
      connectionString: this.url,
      application_name: ACKNOWLEDGEMENTS,
      connectionTimeoutMillis: HEARD_TIMEOUT_MS,
    });
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', ({ processId, payload }) => this.heard(client, processId, payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      return client;
    } catch {
      client.end().catch(() => undefined);
      return null;
    }
  }

  /**
   * A notification: an acknowledgement, or a change to read from its table and then acknowledge.
   * Anything else is ignored and counted: anyone who may connect to the database may NOTIFY on the
   * channel (docs/operations.md, "Hosting"), and nothing heard is ever written or trusted as a value.
   */
  private heard(client: Client, sender: number, payload: string | undefined): void {
    const message = parsed(payload);
    if (message && 'ack' in message) {
      // Counted on the connection the change waits on only (the same answer may reach two), once a listening session.
      const waiting = this.waiting.get(message.ack);
      if (waiting?.via === client && waiting.missing.delete(sender) && waiting.missing.size === 0) waiting.done();
      return;
    }
    // What a connection given up, or one opened for acknowledgements, delivers is not read: the values are read again once listening.
    if (client !== this.client) return;
    const shared = message && this.values.get(message.topic);
    if (!message || !shared) {
      this.ignored += 1;
      // 1, 10, 100…: a flood does not flood the log.
      if (Number.isInteger(Math.log10(this.ignored)))
        new Logger(ChangeFeed.name).warn(`ignored ${this.ignored} notification(s) on ${CHANNEL} that were not the sandbox's`);
      return;
    }
    if (this.pending >= MAX_PENDING) {
      new Logger(ChangeFeed.name).warn(`more than ${MAX_PENDING} changes heard at once on ${CHANNEL}: listening again in a moment`);
      return this.lost(client);
    }
    this.pending += 1;
    const read = shared.heard(message.key);
    // Acknowledged in the order heard, one statement at a time on the listening connection (pg runs one at a time).
    this.acknowledging = Promise.all([this.acknowledging, read])
      .then(() => client.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ ack: message.id })]))
      .then(
        () => undefined,
        // Not read: this instance stops trusting its memory, and reads on every request until it listens again.
        () => this.lost(client),
      )
      .finally(() => (this.pending -= 1));
  }

  /**
   * Gives `client` up, once: its failed acknowledgements report it lost again and again (a flood
   * queues many), and each report used to start another connection while one was opening, which
   * then listened beside it for good.
   */
  private lost(client: Client): void {
    if (this.abandoned.has(client)) return;
    this.abandoned.add(client);
    if (this.client && this.client !== client) return void client.end().catch(() => undefined);
    this.client = null;
    this.hearing = false;
    client.end().catch(() => undefined);
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.open();
    }, RECONNECT_MS);
    this.retry.unref();
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A world's key: a client ID (at most 64 characters) or the open world's "". */
const KEY = /^\P{Cc}{0,64}$/u;

/** The two shapes the sandbox sends, exactly; null for anything else. */
function parsed(payload: string | undefined): { ack: string } | { id: string; topic: string; key: string } | null {
  let message: unknown;
  try {
    message = JSON.parse(payload ?? '');
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const fields = message as Record<string, unknown>;
  const keys = Object.keys(fields).sort().join();
  if (keys === 'ack' && typeof fields.ack === 'string' && UUID.test(fields.ack)) return { ack: fields.ack };
  if (
    keys === 'id,key,topic' &&
    typeof fields.id === 'string' &&
    UUID.test(fields.id) &&
    typeof fields.topic === 'string' &&
    typeof fields.key === 'string' &&
    KEY.test(fields.key)
  ) {
    return { id: fields.id, topic: fields.topic, key: fields.key };
  }
  return null;
}
