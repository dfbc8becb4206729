import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { useSandbox } from './support/sandbox';

interface Item {
  name: string;
  item?: Item[];
  event?: { script: { exec: string[] } }[];
  request?: { method: string; header: { key: string; value: string }[]; body?: { raw: string }; url: { raw: string; path: string[] } };
}

const requests = (items: Item[]): Item[] => items.flatMap((item) => (item.item ? requests(item.item) : [item]));

const ROOT = join(__dirname, '..');
/** Each service's walk, in its folder (src/<service>/<service>.postman_collection.json), for the profile that offers them all. */
const SERVICE_WALKS = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, 'src', entry.name, `${entry.name}.postman_collection.json`)))
  .map(({ name }) => ({ file: join('src', name, `${name}.postman_collection.json`), settings: { PROFILE: 'berlin-group' }, least: 2 }));

/** The walk-through, written for the seed bank; and the walks of the Berlin Group services the berlin-group profile adds. */
describe.each<{ file: string; settings: Record<string, string>; least: number }>([
  { file: join('collections', 'psd2-sandbox.postman_collection.json'), settings: {}, least: 20 },
  ...SERVICE_WALKS,
])('the Postman collection $file', ({ file, settings, least }) => {
  const collection = JSON.parse(readFileSync(join(ROOT, file), 'utf8'));
  const all = requests(collection.item);
  const sandbox = useSandbox({ SANDBOX_DATE: '2026-11-21', ...settings });

  it('is a Postman v2.1 collection of a walk-through', () => {
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(all.length).toBeGreaterThan(least);
  });

  it('names only operations that exist in the OpenAPI document', async () => {
    const paths: Record<string, Record<string, unknown>> = (await request(sandbox.http).get('/docs-json').expect(200)).body.paths;
    const templates = Object.keys(paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
    const unknown = all
      .map(({ request: call }) => [call!.method.toLowerCase(), `/${call!.url.path.join('/')}`] as const)
      .filter(([method, path]) => !templates.some(({ template, pattern }) => pattern.test(path) && paths[template][method]));
    expect(unknown).toEqual([]);
  });

  it('runs in order against the sandbox, each request answering the status its own test expects', async () => {
    const variables = new Map<string, string>(collection.variable.map(({ key, value }: { key: string; value: string }) => [key, value]));
    const resolve = (text: string) =>
      text.replace(/\{\{(\$guid|\w+)\}\}/g, (_, name: string) => (name === '$guid' ? randomUUID() : (variables.get(name) ?? '')));
    const outcomes: string[] = [];
    for (const { name, request: call, event } of all) {
      const script = (event ?? []).flatMap(({ script: { exec } }) => exec).join('\n');
      const url = new URL(resolve(call!.url.raw).replace(variables.get('baseUrl')!, 'http://sandbox'));
      let pending = request(sandbox.http)[call!.method.toLowerCase() as 'get'](url.pathname + url.search);
      for (const { key, value } of call!.header) pending = pending.set(key, resolve(value));
      const response = await (call!.body ? pending.send(resolve(call!.body.raw)) : pending);
      const expected = /status is (\d{3})/.exec(script)?.[1];
      const fine = expected ? response.status === Number(expected) : response.status >= 200 && response.status < 300;
      outcomes.push(`${name}: ${response.status}${fine ? '' : ` (expected ${expected ?? '2xx'}) ${response.text.slice(0, 200)}`}`);
      for (const [, variable, field] of script.matchAll(/collectionVariables\.set\('(\w+)', pm\.response\.json\(\)\.(\w+)\)/g)) {
        variables.set(variable, response.body[field]);
      }
    }
    expect(outcomes.filter((outcome) => outcome.includes('expected'))).toEqual([]);
  });
});
