import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import layers from './eslint-layers.js';

const source = readdirSync(join(import.meta.dirname, 'src'), { withFileTypes: true });
const folders = source.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
const appFiles = source.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => entry.name.slice(0, -'.ts'.length));

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
    // The app's own files compose the layers; they too reach the database through Store only.
    files: ['src/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ name: '@nestjs/typeorm', message: 'use Store (src/database/store.ts)' }], patterns: [{ group: ['**/seeds/*'], message: "src/ never imports seeds/" }] }] },
  },
  {
    // One async context, the request's (src/common/request-context.ts): on Node 20 each AsyncLocalStorage costs every promise made its share (docs/benchmark.md, "What was tried").
    files: ['src/**/*.ts'],
    ignores: ['src/common/request-context.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='AsyncLocalStorage']", message: 'keep what the work under way needs in the one context of src/common/request-context.ts' },
      ],
    },
  },
  // Every folder of src/, new ones too, by its layer (eslint-layers.js, docs/development.md "Layers").
  ...layers.layerEntries(folders, appFiles),
  // Prettier formats (npm run format); the rules that would argue with its line breaks are off.
  prettier,
  { files: ['eslint.config.mjs', 'eslint-layers.js', 'test/support/sequencer.mjs'], ...tseslint.configs.disableTypeChecked },
);
