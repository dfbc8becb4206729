import type { Client } from 'pg';
import type { ChangeFeed } from '../../src/database/change-feed';

/** What of a change feed the PostgreSQL suites drive by hand: its connection, its reconnection timer, and the two steps of losing and opening one; the acknowledgements' connection lent to its moves, if any. */
export interface FeedInternals {
  hearing: boolean;
  client: Client | null;
  ears: { client: Promise<Client | null> } | null;
  retry: NodeJS.Timeout | null;
  lost(client: Client): void;
  open(): Promise<void>;
}

export const internalsOf = (feed: ChangeFeed): FeedInternals => feed as unknown as FeedInternals;
