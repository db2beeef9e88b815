// Lint: typescript-eslint's recommended rules, plus the one layer rule a linter can state
// cheaply (who may import `electron`), and one clock: the app reads "now" from shared/clock.ts
// only, so a test can set it (docs/architecture.md "Tests"). The full layer table is checked by test/layers.test.ts.
// In electron/ also the rules that need types about promises: a promise nobody awaits loses its
// error, and an `if (promise)` is always true. The store boundary is becoming asynchronous
// (docs/architecture.md "The asynchronous store boundary"), where one missing `await` would
// read a record that is not there yet or commit a write after its transaction ended.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.test-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only electron/main and electron/preload import electron.' }] },
      ],
    },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', 'fastify', 'better-sqlite3'].map((name) => ({ name, message: 'The renderer talks to the API only.' })),
          patterns: [
            { group: ['node:*'], message: 'The renderer runs in a browser: no Node modules.' },
            { regex: '(^|/)electron/', message: 'The renderer may import shared/ only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!\\.)', message: 'shared/ is pure TypeScript and imports nothing outside shared/.' },
            { regex: '(^|/)(electron|renderer)/', message: 'shared/ imports nothing outside shared/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['electron/**', 'renderer/**', 'shared/**'],
    ignores: ['shared/clock.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='Date'][property.name='now']",
          message: 'Read the time from shared/clock.ts (nowMs), so a test can set it.',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the time from shared/clock.ts (nowDate), so a test can set it.',
        },
      ],
    },
  },
  { files: ['electron/main/**', 'electron/preload/**', 'test/**'], rules: { 'no-restricted-imports': 'off' } },
);
