import { randomUUID } from 'node:crypto';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';

/** The channel the instances on one PostgreSQL database hear each other's changes on (LISTEN/NOTIFY is per database). */
const CHANNEL = 'psd2_sandbox_changes';
/** The listening connection's application_name: how a change counts the instances that must hear it. */
const LISTENER = 'psd2-sandbox listener';
/** The longest a change waits for an instance that does not answer (stopped, or its connection lost). */
const HEARD_TIMEOUT_MS = 2_000;
const RECONNECT_MS = 1_000;

/**
 * A value every instance keeps in memory and reads on each request, changed rarely (the sandbox
 * clock, the bank's conditions: docs/operations.md, "Hosting"). Created by Store.shared.
 */
export class Shared<T> {
  private value: T;
  /** How many changes were heard: a load that started before one must not overwrite it. */
  private heardCount = 0;

  constructor(
    readonly topic: string,
    private readonly load: () => Promise<T>,
    initial: T,
    private readonly feed: ChangeFeed,
  ) {
    this.value = initial;
  }

  get current(): T {
    return this.value;
  }

  /** Before a request relies on it: nothing to do while this instance hears every change, else a read. */
  async fresh(): Promise<void> {
    if (!this.feed.hearing) await this.reload();
  }

  async reload(): Promise<void> {
    const heard = this.heardCount;
    const loaded = await this.load();
    if (heard === this.heardCount) this.value = loaded;
  }

  heard(value: T): void {
    this.heardCount += 1;
    this.value = value;
  }
}

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
  private readonly values = new Map<string, Shared<unknown>>();
  /** Changes this instance made, waiting to be heard by `missing` more instances. */
  private readonly waiting = new Map<string, { missing: number; done: () => void }>();
  private client: Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  /** Whether every change another instance commits reaches this one's memory without a read. */
  hearing: boolean;

  constructor(private readonly url: string | undefined) {
    this.hearing = !url;
  }

  static of(dataSource: DataSource): ChangeFeed {
    return new ChangeFeed(dataSource.options.type === 'postgres' ? dataSource.options.url : undefined);
  }

  register(shared: Shared<unknown>): void {
    this.values.set(shared.topic, shared);
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
    client.on('notification', ({ payload }) => this.heard(client, payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.client = client;
      for (const shared of this.values.values()) await shared.reload();
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
   * Inside the write that changes `topic` to `value`, on its transaction, while hearing on
   * PostgreSQL: `heard` resolves once every instance listening when it ran has heard the
   * committed change (or HEARD_TIMEOUT_MS passed).
   */
  async announce(manager: EntityManager, topic: string, value: unknown): Promise<{ heard: Promise<void> }> {
    const id = randomUUID();
    const heard = new Promise<void>((resolve) => {
      const timer = setTimeout(() => finish(), HEARD_TIMEOUT_MS);
      const finish = () => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve();
      };
      this.waiting.set(id, { missing: Number.POSITIVE_INFINITY, done: finish });
    });
    const [{ listening }] = (await manager.query(
      'SELECT pg_notify($1, $2), (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $3)::int AS listening',
      [CHANNEL, JSON.stringify({ id, topic, value }), LISTENER],
    )) as { listening: number }[];
    const waiting = this.waiting.get(id);
    if (waiting) waiting.missing = listening;
    return { heard };
  }

  private heard(client: Client, payload: string | undefined): void {
    let message: { id?: string; topic?: string; value?: unknown; ack?: string } | null;
    try {
      message = JSON.parse(payload ?? '') as typeof message;
    } catch {
      message = null;
    }
    // Not the sandbox's: anyone on the database may NOTIFY on the channel.
    if (typeof message !== 'object' || message === null) return;
    if (message.ack) {
      const waiting = this.waiting.get(message.ack);
      if (waiting && --waiting.missing <= 0) waiting.done();
      return;
    }
    if (!message.id) return;
    if (message.topic) this.values.get(message.topic)?.heard(message.value);
    client.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ ack: message.id })]).catch(() => this.lost(client));
  }

  private lost(client: Client): void {
    if (this.client && this.client !== client) return;
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
