import { fixtureResourceId, newResourceId } from './resource-id';

describe('newResourceId', () => {
  it('is a version 7 UUID', () => {
    expect(newResourceId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('sorts in the order the IDs were made, within one millisecond too, so that rows append to the index', () => {
    const ids = Array.from({ length: 10_000 }, () => newResourceId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('starts with its creation time', () => {
    const before = Date.now();
    const id = newResourceId();
    const created = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(created).toBeGreaterThanOrEqual(before);
    expect(created).toBeLessThanOrEqual(Date.now());
  });
});

describe('fixtureResourceId', () => {
  it('is a version 5 UUID, the same for the same name on every start, another for another name', () => {
    const id = fixtureResourceId('payment payments');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(fixtureResourceId('payment payments')).toBe(id);
    expect(fixtureResourceId('payment bulk-payments')).not.toBe(id);
  });
});
