// The linter: typescript-eslint's type-aware rules over every TypeScript part (the server's
// tsconfig.json covers functions, lib, infra, test and bench; web/tsconfig.json the web client,
// found by the project service per file), ESLint's own rules over the few plain JavaScript
// files. Formatting is Prettier's job (`npm run lint` checks both), so no rule here is about
// layout. Every rule is an error: `npm run lint` allows no warnings.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // What tools write (and the fixtures that stand for other programs), as .gitignore lists them.
  globalIgnores([
    'data/',
    'web/dist/',
    'web/src/api/schema.d.ts',
    'test/.generated/',
    'test/.artifacts/',
    'test/fixtures/',
    '.build/',
    '.layer/',
    '.esbuild/',
    '.serverless/',
    'patches/',
  ]),

  {
    files: ['**/*.{ts,tsx,mts}'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A server that is all async: a promise nobody awaits loses its error and its order.
      // node:test's it() and describe() hand their promise to the runner, which awaits and reports it.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['it', 'describe', 'test', 'suite'] }],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      // Type-only imports say so, and vanish from the bundles.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // A caught error passed on as it came (unknown) is as honest as `throw err` in a catch.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // `async` without `await` is how a function here meets a promise-returning contract (middy's
      // middlewares, the store ports) with a throw turned into a rejection, as callers expect.
      '@typescript-eslint/require-await': 'off',
      // Leading underscores name what is taken apart only to be left out (`{ pk: _pk, ...row }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },

  // Tests and benchmarks read the server's JSON answers, which are `any` by design (fetch's
  // json(), the WebSocket's messages) and which their assertions check; typing each read would
  // restate the OpenAPI document in every test. The service's own code keeps these rules.
  {
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },

  // Prettier writes every semicolon, so a line break cannot change how a statement reads; the
  // breaks it makes before a `[` or `(` of a long chain are all this rule would see.
  {
    files: ['**/*.{ts,tsx,mts,js,mjs,cjs}'],
    rules: { 'no-unexpected-multiline': 'off' },
  },

  // The house rule of docs/development.md: no file of lib/ over 300 lines, counted as `wc -l` does.
  {
    files: ['lib/**'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },

  // Plain JavaScript: the launcher and build (ESM), the Lambda runtime and a preload (CommonJS),
  // and this file; Node's globals, no type information.
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node, sourceType: 'module' },
  },
  {
    files: ['**/*.cjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node, sourceType: 'commonjs' },
  },
);
