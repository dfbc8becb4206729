import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { loadProfile } from './load-profile';

describe('loadProfile: extends', () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-extends-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), text);
  };

  it("takes every key and fixture file of the profile it extends (itself extending another); its own replace them one by one", () => {
    write('child/profile.yaml', 'extends: berlin-group\nname: Child Bank\nscaApproaches: [embedded]\n');
    write('child/fixtures/clients.json', JSON.stringify([{ clientId: 'child-tpp', clientSecret: 's', name: 'Child TPP' }]));
    const child = loadProfile(join(folder, 'child'));
    const bank = loadProfile('bank');
    expect(child.settings).toEqual({ ...bank.settings, name: 'Child Bank', answers: 'berlin-group', scaApproaches: ['embedded'] });
    expect(child.rows.clients).toEqual([{ clientId: 'child-tpp', clientSecret: 's', name: 'Child TPP' }]);
    expect(child.rows.accounts).toEqual(bank.rows.accounts);
    expect(child.digest).not.toBe(bank.digest);
  });

  it('a path is read relative to the extending folder; the fixtures key names another folder', () => {
    write('grandchild/profile.yaml', 'extends: ../child\nfixtures: ../shared-data\n');
    write('shared-data/psus.json', '[]');
    const grandchild = loadProfile(join(folder, 'grandchild'));
    expect(grandchild.name).toBe('Child Bank');
    expect(grandchild.rows.psus).toEqual([]);
    expect(grandchild.rows.clients.map(({ clientId }) => clientId)).toEqual(['child-tpp']);
  });

  it('profiles that extend each other in a circle are refused, naming the circle', () => {
    write('a/profile.yaml', 'extends: ../b\n');
    write('b/profile.yaml', 'extends: ../a\n');
    const [a, b] = ['a', 'b'].map((name) => relative(process.cwd(), join(folder, name, 'profile.yaml')));
    expect(() => loadProfile(join(folder, 'a'))).toThrow(`${a}: extends: the profiles extend each other in a circle (${a} -> ${b} -> ${a})`);
  });
});
