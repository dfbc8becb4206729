import type { WorldRequest } from './world';
import { isOwnedBy, ownedBy, requestWorld, World } from './world';

describe('World (docs/security.md, "Worlds")', () => {
  const a = World.ofClient('client-a');

  it("keeps a client's look-ups to its own rows, and the open world's to all", () => {
    expect(ownedBy(a)).toEqual({ ownerId: 'client-a' });
    expect(ownedBy(World.open)).toEqual({});
    expect([isOwnedBy({ ownerId: 'client-a' }, a), isOwnedBy({ ownerId: 'client-b' }, a), isOwnedBy({ ownerId: null }, a)]).toEqual([
      true,
      false,
      false,
    ]);
    expect(isOwnedBy({ ownerId: 'client-b' }, World.open)).toBe(true);
  });

  it('names the world a row was created in, and the keys of its clock and conditions', () => {
    expect(World.of({ ownerId: 'client-a' })).toEqual(a);
    expect(World.of({ ownerId: null })).toBe(World.open);
    expect([a.key, World.open.key, a.ownerId, World.open.ownerId]).toEqual(['client-a', '', 'client-a', null]);
  });

  it('refuses a request whose guards found no world, rather than answering it with every world’s data', () => {
    const request = { method: 'GET', path: '/v1/accounts' } as WorldRequest;
    expect(() => requestWorld(request)).toThrow('GET /v1/accounts has no world: its controller lacks the RequestGuard');
    expect(requestWorld({ ...request, world: a } as WorldRequest)).toBe(a);
  });
});
