import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Import patterns for a top-level folder, from files up to three folders deep. */
const under = (folder) => ['../', '../../', '../../../'].map((up) => `${up}${folder}/*`);

export default tseslint.config(
  { ignores: ['node_modules/**', '.state/**', 'coverage/**'] },
  js.configs.recommended,
  { files: ['**/*.js'], languageOptions: { globals: { process: 'readonly', URL: 'readonly', console: 'readonly' } } },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no clocks, no randomness, no I/O.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', 'setInterval', 'fetch'],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Use workflow time (Date is replaced in workflows) via explicit activities or workflow APIs.' },
        { object: 'Math', property: 'random', message: 'Randomness breaks workflow replay.' },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'pg', 'knex', '@clickhouse/*', '../api/*', '../db/*'], message: 'Workflows do no I/O.' },
            { group: ['../activities/*'], allowTypeImports: true, message: 'Workflows reach activities through proxyActivities only.' },
          ],
        },
      ],
    },
  },
  {
    // Activities never reach into the HTTP layer.
    files: ['activities/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...under('api'), ...under('http'), ...under('web')] }] },
  },
  {
    // The API and the web area share only http/; the app factory (http/app.ts) is the one module that mounts both.
    files: ['api/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: under('web'), message: 'api/ and web/ share code through http/ or core/ only.' }] }] },
  },
  {
    files: ['web/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: under('api'), message: 'api/ and web/ share code through http/ or core/ only.' }] }] },
  },
  {
    files: ['http/**/*.ts'],
    ignores: ['http/app.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: [...under('api'), ...under('web')], message: 'http/ is what api/ and web/ share; only the app factory imports them.' }] }] },
  },
  {
    // Postgres has one home, the stores (db/store/, one per aggregate, returning plain objects): HTTP, web,
    // activities and services never see knex, pg, a query builder or the pools. Only the process entry points
    // (api/main.ts, the app factory) build the pools and the stores. A rule of its own name, so that the
    // folders' no-restricted-imports rules above stay in force alongside it.
    files: ['api/**/*.ts', 'http/**/*.ts', 'web/**/*.ts', 'activities/**/*.ts', 'services/**/*.ts'],
    ignores: ['api/main.ts', 'http/app.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['knex', 'pg', ...under('db'), ...under('db').map((p) => `!${p.replace('*', 'store')}`)],
              message: 'Postgres is reached through the stores in db/store/ only.',
            },
          ],
        },
      ],
    },
  },
  {
    // Domain rules and operations know nothing of HTTP.
    files: ['core/**/*.ts', 'services/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...under('api'), ...under('http'), ...under('web')] }] },
  },
  {
    // The client and the webperf command are a package of their own that talks to the public API only.
    files: ['client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['api', 'http', 'web', 'core', 'services', 'db', 'activities', 'workflows', 'oauth', 'mcp', 'ingest'].flatMap(under), message: 'client/ uses the public API only; it imports nothing of the service.' }] },
      ],
    },
  },
);
