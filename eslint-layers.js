/* global module */
// The layers of src/, lowest first (docs/development.md, "Layers"). A file imports nothing from a
// layer above its own; up to the core domain it may name a higher layer's types (the profile's rows
// have the entities' shapes), never run its code; nothing below them names the schema, a service,
// the control layer or the app's files at all. A folder named nowhere here is a service.
const LAYERS = [
  { name: 'common', folders: ['common'] },
  { name: 'config', folders: ['config'] },
  { name: 'world', folders: ['world'] },
  { name: 'database', folders: ['database'] },
  { name: 'contracts', folders: ['core', 'profile'] },
  { name: 'edge', folders: ['http', 'oauth', 'tpp-identity', 'conditions', 'clock', 'events'] },
  { name: 'core domain', folders: ['bank', 'consent', 'authorisation', 'account-information', 'payment-initiation', 'verification-of-payee', 'notifications', 'sca'] },
  { name: 'schema', folders: ['schema'] },
  { name: 'services', folders: null },
  { name: 'control', folders: ['sandbox-control'] },
];
/** Types may be imported from a higher layer up to this one. */
const TYPES_UP_TO = 'core domain';

const STORE = { name: '@nestjs/typeorm', message: 'use Store (src/database/store.ts)' };
const SEEDS = { group: ['**/seeds/*'], message: "src/ never imports seeds/: the bank's data is in profiles/" };
/** Folders whose internals another folder may not import: it uses their module, services, entities, machines, guards, route decorators, DTOs, controllers (a service's extends one) and the coverage rule. */
const GUARDED = ['account-information', 'authorisation', 'consent', 'notifications', 'payment-initiation', 'sandbox-control', 'sca'];
const INTERNALS = {
  regex: `^\\.\\./(${GUARDED.join('|')})/(?!(.+\\.(module|service|entity|machine|guard|decorator|dto|controller)|dto/.+|coverage)$)`,
  message: "another feature's internals: use its module, service, entity, machine, guard, route decorator, DTO or controller (to extend)",
};
const PLAIN = { group: ['@nestjs/*', 'typeorm', 'typeorm/*'], message: 'a machine file is plain TypeScript (docs/development.md)' };

const escape = (name) => name.replace(/\./g, '\\.');
const into = (names, suffix) => `^(\\.\\./)+(${names.map(escape).join('|')})${suffix}`;

/**
 * The import rules of every folder of src/ (`folders`: its subfolders) and of its top-level files
 * (`appFiles`, without .ts: the app's composition), one flat-config entry per folder, and one for
 * its machine files (a file's last matching entry sets the rule).
 */
function layerEntries(folders, appFiles) {
  const named = new Set(LAYERS.flatMap((layer) => layer.folders ?? []));
  const layers = LAYERS.map((layer) => ({ ...layer, folders: layer.folders ?? folders.filter((folder) => !named.has(folder)) }));
  const typesUpTo = layers.findIndex((layer) => layer.name === TYPES_UP_TO);
  const app = { regex: into(appFiles, '$'), message: "the app's files compose the layers: no layer imports them" };
  return layers.flatMap((layer, index) => {
    const above = layers.slice(index + 1);
    const typesOnly = above.filter((_, offset) => index + 1 + offset <= typesUpTo).flatMap((higher) => higher.folders);
    const never = above.filter((_, offset) => index + 1 + offset > typesUpTo).flatMap((higher) => higher.folders);
    const patterns = [
      SEEDS,
      app,
      ...(typesOnly.length ? [{ regex: into(typesOnly, '/'), allowTypeImports: true, message: `a layer above ${layer.name}: import its types only (eslint-layers.js)` }] : []),
      ...(never.length ? [{ regex: into(never, '/'), message: `a layer above ${layer.name}: the schema, a service or the control layer (eslint-layers.js)` }] : []),
    ];
    return layer.folders.flatMap((folder) => {
      // A service imports no other: the project then builds without any one of them as it does without all (test/service-removal.e2e-spec.ts).
      const others = layer.name === 'services' ? layer.folders.filter((other) => other !== folder) : [];
      const own = [
        ...patterns,
        ...(GUARDED.includes(folder) ? [INTERNALS] : []),
        ...(others.length ? [{ regex: into(others, '/'), message: 'another service: a service stands alone (docs/development.md, "A service plugs in")' }] : []),
      ];
      const paths = folder === 'database' ? [] : [STORE];
      return [
        { files: [`src/${folder}/**/*.ts`], ignores: ['src/**/*.spec.ts'], rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns: own }] } },
        { files: [`src/${folder}/**/*.machine.ts`], rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns: [...own, PLAIN, ...(GUARDED.includes(folder) ? [] : [INTERNALS])] }] } },
      ];
    });
  });
}

module.exports = { layerEntries };
