import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// A file's last matching entry below sets no-restricted-imports for it, so each entry lists all its restrictions.
const STORE = { name: '@nestjs/typeorm', message: 'use Store (src/database/store.ts)' };
const SEEDS = { group: ['**/seeds/*'], message: 'src/ never imports seeds/: the bank\'s data is in profiles/' };
const FEATURES = ['account-information', 'authorisation', 'consent', 'notifications', 'payment-initiation', 'sandbox-control', 'sca'];
/** A feature uses another through its module, services, entities, machines, guards, route decorators, DTOs and the coverage rule: nothing else of it. */
const INTERNALS = {
  regex: `^\\.\\./(${FEATURES.join('|')})/(?!(.+\\.(module|service|entity|machine|guard|decorator|dto)|dto/.+|coverage)$)`,
  message: "another feature's internals: use its module, service, entity, machine, guard, route decorator or DTO",
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'jest.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // The database is reached through Store (src/database/store.ts) only; src/ never reads seeds/.
    files: ['src/**/*.ts'],
    ignores: ['src/database/**', 'src/**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [STORE], patterns: [SEEDS] }] },
  },
  {
    files: FEATURES.map((feature) => `src/${feature}/**/*.ts`),
    ignores: ['src/**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [STORE], patterns: [SEEDS, INTERNALS] }] },
  },
  {
    files: ['src/database/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SEEDS] }] },
  },
  {
    // common/ holds pure helpers (docs/development.md, "Layout").
    files: ['src/common/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [STORE], patterns: [SEEDS, { group: ['../*/*', '!../config/*'], message: 'common/ imports no other folder of src/ but config/' }] }] },
  },
  {
    // Status rules are plain TypeScript: no framework, no database (docs/development.md). Last: a file's last matching entry sets the rule.
    files: ['src/**/*.machine.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SEEDS, INTERNALS, { group: ['@nestjs/*', 'typeorm', 'typeorm/*'], message: 'a machine file is plain TypeScript' }] }] },
  },
  { files: ['eslint.config.mjs'], ...tseslint.configs.disableTypeChecked },
);
