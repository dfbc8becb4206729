import { setTimeout as sleep } from 'node:timers/promises';
import { ChangeFeed } from '../../src/database/change-feed';
import { internalsOf } from '../support/feed-internals';
import { removeDatabase, Sandbox, startSandbox, temporaryDatabase } from '../support/sandbox';

/**
 * The change feed's listening connection (src/database/change-feed.ts), on a database the sandbox
 * migrated. A connection it gave up reports itself lost again with each acknowledgement that then
 * fails (a flood queues many); one such report while the next connection was opening started a
 * second, which listened beside it for good (CI run 19: four listeners for two instances).
 */
describe('the change feed gives a connection up once (PostgreSQL)', () => {
  const database = temporaryDatabase();
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({}, database);
  });
  afterAll(async () => {
    await sandbox.close();
    await removeDatabase(database);
  });

  const listeners = async () =>
    (
      await sandbox.dataSource.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'psd2-sandbox listener'",
      )
    )[0].n as number;

  it('a lost connection reported again while the next one opens starts no other: one listener a feed', async () => {
    const feed = new ChangeFeed(database);
    await feed.onModuleInit();
    try {
      expect(await listeners()).toBe(2); // the sandbox's and this feed's
      const internals = internalsOf(feed);
      const first = internals.client!;
      internals.lost(first);
      // The reconnection, started now rather than in a second, and the first connection reported lost again meanwhile.
      clearTimeout(internals.retry!);
      internals.retry = null;
      const opening = internals.open();
      internals.lost(first);
      await opening;
      expect(feed.hearing).toBe(true);
      // Any other reconnection would have started after a second, and listened by now.
      await sleep(2_000);
      expect(await listeners()).toBe(2);
    } finally {
      await feed.onModuleDestroy();
    }
  });

  it('the listening session has PostgreSQL probe its client after 10 s of silence and give it up after 25 s without an answer', async () => {
    const { rows } = await internalsOf(sandbox.app.get(ChangeFeed)).client!.query<{ name: string; setting: string; source: string }>(
      "SELECT name, setting, source FROM pg_settings WHERE name LIKE 'tcp\\_%' ORDER BY name",
    );
    // Over a Unix socket the settings read 0: PostgreSQL applies them to TCP only.
    const tcp = !new URL(database).searchParams.has('host');
    expect(rows).toEqual([
      { name: 'tcp_keepalives_count', setting: tcp ? '3' : '0', source: 'session' },
      { name: 'tcp_keepalives_idle', setting: tcp ? '10' : '0', source: 'session' },
      { name: 'tcp_keepalives_interval', setting: tcp ? '5' : '0', source: 'session' },
      { name: 'tcp_user_timeout', setting: tcp ? '25000' : '0', source: 'session' },
    ]);
  });
});
