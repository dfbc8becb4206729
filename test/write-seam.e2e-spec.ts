import { SandboxClock } from '../src/clock/sandbox-clock.entity';
import { Store } from '../src/database/store';
import { useSandbox } from './support/sandbox';

/** The one write path (src/database/store.ts): what it refuses, it refuses at once, on either engine. */
describe('the write seam', () => {
  const sandbox = useSandbox();
  const store = () => sandbox.app.get(Store);

  it('refuses a write started inside another write at once, with a clear error, and the outer write goes on', async () => {
    const outcome = await store().write(async () => {
      const nested = await store()
        .write(async () => 'never runs')
        .then(
          () => 'committed',
          (error: Error) => error.message,
        );
      await store().change(SandboxClock).upsert({ world: 'one', today: '2026-03-15' }, ['world']);
      return nested;
    });
    expect(outcome).toBe('Store.write was called inside another write: do the work in the enclosing write');
    expect(await sandbox.dataSource.getRepository(SandboxClock).findOneBy({ world: 'one' })).toEqual({ world: 'one', today: '2026-03-15' });
  });

  it('refuses a change outside any write, before it reaches the database', async () => {
    expect(() => store().change(SandboxClock)).toThrow('A change outside Store.write: every change of state goes through Store.write');
    await expect(store().insert(SandboxClock, { world: 'two', today: '2026-03-15' })).rejects.toThrow('A change outside Store.write');
    expect(await sandbox.dataSource.getRepository(SandboxClock).findOneBy({ world: 'two' })).toBeNull();
  });
});
