import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    // Status rules are plain TypeScript: no framework, no database (docs/development.md).
    files: ['src/**/*.machine.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@nestjs/*', 'typeorm', 'typeorm/*'] }] },
  },
  {
    // The database is reached through Store (src/database/store.ts) only.
    files: ['src/**/*.ts'],
    ignores: ['src/database/**', 'src/**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: '@nestjs/typeorm', message: 'use Store (src/database/store.ts)' }] }] },
  },
  { files: ['eslint.config.mjs'], ...tseslint.configs.disableTypeChecked },
);
