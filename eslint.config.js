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
        {
          object: 'Date',
          property: 'now',
          message: 'Use workflow time (Date is replaced in workflows) via explicit activities or workflow APIs.',
        },
        { object: 'Math', property: 'random', message: 'Randomness breaks workflow replay.' },
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(?!@temporalio/(workflow|common)$|\\./[^/]+$|\\.\\./core/|\\.\\./activities/[^/]+$|\\.\\./services/[^/]+$)',
              message:
                'Workflows import only @temporalio/workflow, @temporalio/common, core/ and each other: they do no I/O.',
            },
            {
              group: ['../activities/*', '../services/*'],
              allowTypeImports: true,
              message: 'Workflows reach activities through proxyActivities only (types may be imported).',
            },
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
    // The API and the web area share only http/ and core/; server/app.ts is the one module that mounts both.
    files: ['api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: under('web'), message: 'api/ and web/ share code through http/ or core/ only.' }] },
      ],
    },
  },
  {
    files: ['web/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: under('api'), message: 'api/ and web/ share code through http/ or core/ only.' }] },
      ],
    },
  },
  {
    // http/ is what the API process's areas share; the server root (server/) is what mounts them.
    files: ['http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['api', 'web', 'oauth', 'mcp', 'server'].flatMap(under),
              message: 'http/ is what api/ and web/ share; only server/ imports the areas it mounts.',
            },
          ],
        },
      ],
    },
  },
  {
    // Postgres has one home, the stores (db/store/, one per aggregate, returning plain objects): HTTP, web,
    // activities and services never see knex, pg, a query builder or the pools. Only the process entry points
    // (server/: the API process and its app) build the pools and the stores. A rule of its own name, so that the
    // folders' no-restricted-imports rules above stay in force alongside it.
    files: ['api/**/*.ts', 'http/**/*.ts', 'web/**/*.ts', 'activities/**/*.ts', 'services/**/*.ts'],
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
    // core/ holds pure rules: no I/O, no servers, no clients. Process infrastructure (configuration, logging,
    // metrics, health, the Temporal client, address lookups) lives in infra/.
    files: ['core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'node:*',
                '!node:crypto',
                '!node:net',
                '!node:zlib',
                'pg',
                'knex',
                '@clickhouse/*',
                'pino',
                'prom-client',
                'koa',
                '@koa/*',
                'nodemailer',
                'puppeteer-core',
                'lighthouse',
              ],
              message: 'core/ is pure: I/O and clients belong in infra/, db/ or services/.',
            },
            {
              group: ['@temporalio/client', '@temporalio/worker', '@temporalio/activity'],
              allowTypeImports: true,
              message: 'core/ may name Temporal client types, not use the client.',
            },
            {
              group: [
                'infra',
                'db',
                'services',
                'activities',
                'workflows',
                'api',
                'http',
                'web',
                'oauth',
                'mcp',
                'ingest',
                'worker',
                'stack',
              ].flatMap(under),
              message: 'core/ imports only core/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Operations know nothing of HTTP.
    files: ['services/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...under('api'), ...under('http'), ...under('web')] }] },
  },
  {
    // Process infrastructure serves every process and knows none of them.
    files: ['infra/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'db',
                'services',
                'activities',
                'workflows',
                'api',
                'http',
                'web',
                'oauth',
                'mcp',
                'ingest',
                'worker',
                'stack',
              ].flatMap(under),
              message: 'infra/ imports only core/ and infra/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The ingest is a process of its own: it shares rules, stores and infrastructure, never the API's or the worker's code.
    files: ['ingest/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['api', 'web', 'oauth', 'mcp', 'activities', 'workflows', 'worker'].flatMap(under),
              message:
                'ingest/ shares code with the other processes through core/, infra/, db/, services/ and http/ only.',
            },
          ],
        },
      ],
    },
  },
  {
    // The worker process runs workflows and activities; it serves no HTTP but its health port.
    files: ['worker/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['api', 'http', 'web', 'oauth', 'mcp', 'ingest'].flatMap(under),
              message: 'worker/ wires activities and workflows; the HTTP side is not its business.',
            },
          ],
        },
      ],
    },
  },
  {
    // The authorization server is mounted by the server root (server/app.ts), which hands it the web area's error
    // page; it knows nothing of the API, the web area, the worker side or the MCP server.
    files: ['oauth/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['api', 'web', 'server', 'activities', 'workflows', 'worker', 'ingest', 'mcp'].flatMap(under),
              message: 'oauth/ shares code through core/, infra/, db/, services/ and http/ only; server/ wires it up.',
            },
          ],
        },
      ],
    },
  },
  {
    // The MCP server runs the API's routes as tools; nothing of the web area, the worker side or the ingest.
    files: ['mcp/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['web', 'activities', 'workflows', 'worker', 'ingest', 'oauth'].flatMap(under),
              message: 'mcp/ reaches the service through api/ routes and services/ only.',
            },
          ],
        },
      ],
    },
  },
  {
    // The client and the webperf command are a package of their own that talks to the public API only.
    files: ['client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'api',
                'http',
                'web',
                'core',
                'services',
                'db',
                'activities',
                'workflows',
                'oauth',
                'mcp',
                'ingest',
              ].flatMap(under),
              message: 'client/ uses the public API only; it imports nothing of the service.',
            },
          ],
        },
      ],
    },
  },
);
