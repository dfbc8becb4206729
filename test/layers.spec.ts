import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { layerEntries } from '../eslint-layers';

const ROOT = join(__dirname, '..');
const source = readdirSync(join(ROOT, 'src'), { withFileTypes: true });
// As eslint.config.mjs reads src/, with one folder more that no layer names.
const folders = [...source.filter((entry) => entry.isDirectory()).map((entry) => entry.name), 'new-service'];
const appFiles = source.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => entry.name.slice(0, -3));
const config: Linter.Config[] = [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser as Linter.Parser },
    plugins: { '@typescript-eslint': tseslint.plugin as never },
  },
  ...layerEntries(folders, appFiles),
];
const linter = new Linter({ cwd: ROOT, configType: 'flat' });

/** The fixture's problems when it sits in `folder` of src/: [line, message]. */
function lint(fixture: string, folder: string): [number, string][] {
  const text = readFileSync(join(__dirname, 'fixtures', 'layers', `${fixture}.ts.txt`), 'utf8');
  return linter.verify(text, config, { filename: join(ROOT, 'src', folder, 'fixture.ts') }).map(({ line, message }) => [line, message]);
}

describe('the layers of src/ (eslint-layers.js, npm run lint)', () => {
  it('refuse a lower layer naming a service, even by its types', () => {
    expect(lint('contracts-import-a-service', 'profile')).toEqual([
      [
        2,
        "'../new-service/new-resource.entity' import is restricted from being used by a pattern. a layer above contracts: the schema, a service or the control layer (eslint-layers.js)",
      ],
    ]);
  });

  it("refuse the database running the core domain's code, and let it name its types", () => {
    expect(lint('database-imports-the-domain', 'database')).toEqual([
      [
        2,
        "'../consent/consent.entity' import is restricted from being used by a pattern. a layer above database: import its types only (eslint-layers.js)",
      ],
    ]);
  });

  it('count a folder no layer names as a service: below the control layer, above the edge', () => {
    expect(lint('new-service-imports-control', 'new-service')).toEqual([
      [
        2,
        "'../sandbox-control/scenario.service' import is restricted from being used by a pattern. a layer above services: the schema, a service or the control layer (eslint-layers.js)",
      ],
    ]);
    expect(lint('edge-imports-a-new-folder', 'http')).toEqual([
      [
        2,
        "'../new-service/something.service' import is restricted from being used by a pattern. a layer above edge: the schema, a service or the control layer (eslint-layers.js)",
      ],
    ]);
  });

  it('let a service use the core domain, not another service: each is removable alone (test/service-removal.e2e-spec.ts)', () => {
    expect(lint('service-imports-another-and-the-core', 'card-accounts')).toEqual([
      [
        2,
        '\'../signing-baskets/signing-basket.service\' import is restricted from being used by a pattern. another service: a service stands alone (docs/development.md, "A service plugs in")',
      ],
    ]);
  });
});
