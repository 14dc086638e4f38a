import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { loadConfig, PROJECT_ROOT, REQUIRED_IN_PRODUCTION, SECRET_KEY_VARIABLES } from '../../infra/config.ts';
import { SEARCH_ATTRIBUTES } from '../../core/temporal.ts';

/**
 * docker-compose.yml and the Dockerfile are the production deployment. Nothing runs them in tests (no Docker
 * engine here), so this checks them statically against the code: the variable names config.ts reads, the
 * variables production requires, health checks, start order, and the image's user.
 */

type Role = keyof typeof REQUIRED_IN_PRODUCTION;
type EnvValue = string | number | boolean | null;

interface Service {
  image?: string;
  build?: string | { context?: string };
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, EnvValue> | string[];
  healthcheck?: { test?: string | string[]; disable?: boolean };
  depends_on?: string[] | Record<string, { condition?: string }>;
  ports?: Array<string | number | { target?: number; published?: string | number }>;
  deploy?: { replicas?: number };
  volumes?: string[];
  container_name?: string;
  networks?: Record<string, { ipv4_address?: string } | null> | string[];
}

interface Compose {
  services: Record<string, Service>;
  networks?: Record<string, { ipam?: { config?: Array<{ subnet?: string }> } } | null>;
}

const ROLES: Role[] = ['api', 'worker', 'ingest'];
/** Each service that runs one of the roles' entry points (webhook-worker has its own checks below). */
const ROLE_SERVICES: Array<[string, Role]> = [
  ['api', 'api'],
  ['worker', 'worker'],
  ['scan-worker', 'worker'],
  ['ingest', 'ingest'],
  ['ingest-2', 'ingest'],
];
/** The services that use the secret key (ingest/main.ts and db/cli.ts load their config without keys). */
const KEY_HOLDERS: string[] = ['api', 'worker', 'scan-worker', 'webhook-worker'];
const ENTRY: Record<Role, string> = { api: 'server/main.ts', worker: 'worker/main.ts', ingest: 'ingest/main.ts' };
const PORT_VARIABLE: Record<Role, string> = { api: 'API_PORT', worker: 'WORKER_HEALTH_PORT', ingest: 'INGEST_PORT' };
const HOST_VARIABLE: Record<Role, string> = { api: 'API_HOST', worker: 'WORKER_HEALTH_HOST', ingest: 'INGEST_HOST' };
/** What each role needs running (healthy) or finished (one-shot jobs) before it starts. */
const NEEDS: Record<Role, Record<string, 'service_healthy' | 'service_completed_successfully'>> = {
  api: {
    postgres: 'service_healthy',
    temporal: 'service_healthy',
    migrate: 'service_completed_successfully',
    'temporal-setup': 'service_completed_successfully',
    'minio-setup': 'service_completed_successfully',
  },
  worker: {
    postgres: 'service_healthy',
    temporal: 'service_healthy',
    migrate: 'service_completed_successfully',
    'temporal-setup': 'service_completed_successfully',
    'minio-setup': 'service_completed_successfully',
  },
  ingest: { clickhouse: 'service_healthy', migrate: 'service_completed_successfully' },
};

const composeText = readFileSync(resolve(PROJECT_ROOT, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText, { merge: true }) as Compose;
const dockerfile = readFileSync(resolve(PROJECT_ROOT, 'Dockerfile'), 'utf8');
/** infra/config.ts and its section loaders in infra/config/: together, every place that reads the environment. */
const configSource = [
  'infra/config.ts',
  ...readdirSync(resolve(PROJECT_ROOT, 'infra/config'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `infra/config/${name}`),
]
  .map((file) => readFileSync(resolve(PROJECT_ROOT, file), 'utf8'))
  .join('\n');

/** Every environment variable name infra/config.ts and infra/config/ read: helper calls like str(env, 'NAME', ...) and env.NAME. */
function variablesReadByConfig(source: string): Set<string> {
  const names = new Set<string>();
  for (const match of source.matchAll(
    /\b(?:str|port|url|bool|oneOf|identifier|hostPort|userName|atLeastOne|wholeNumber)\(\s*env,\s*'([A-Z][A-Z0-9_]*)'/g,
  ))
    names.add(match[1]!);
  for (const match of source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) names.add(match[1]!);
  return names;
}

function service(name: string): Service {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service "${name}"`);
  return found;
}

/** The environment block as written (after anchors and merge keys), in either of compose's two forms. */
function rawEnvironment(svc: Service): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  if (Array.isArray(svc.environment)) {
    for (const entry of svc.environment) {
      const eq = entry.indexOf('=');
      if (eq === -1) env[entry] = undefined;
      else env[entry.slice(0, eq)] = entry.slice(eq + 1);
    }
  } else {
    for (const [key, value] of Object.entries(svc.environment ?? {}))
      env[key] = value === null ? undefined : String(value);
  }
  return env;
}

/**
 * Compose's interpolation, modelling an operator who set only what compose forces them to set: `${X:?msg}` takes
 * the value from `operator` (and fails like compose when it is missing); `${X}` and `${X:-default}` ignore the
 * operator and give the default, so a production variable is only "set" if the file sets it or demands it.
 */
function interpolate(value: string, operator: Record<string, string>): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, name?: string, op?: string, arg?: string) => {
      if (whole === '$$') return '$';
      if (!name) return '';
      if (op === ':?' || op === '?') {
        const given = operator[name];
        if (given === undefined || (op === ':?' && given === ''))
          throw new Error(`required variable ${name} is missing a value: ${arg ?? ''}`);
        return given;
      }
      return arg ?? '';
    },
  );
}

function environment(svc: Service, operator: Record<string, string>): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(rawEnvironment(svc)).map(([key, value]) => [
      key,
      value === undefined ? undefined : interpolate(value, operator),
    ]),
  );
}

function dependsOn(svc: Service): Record<string, string | undefined> {
  if (Array.isArray(svc.depends_on)) return Object.fromEntries(svc.depends_on.map((name) => [name, 'service_started']));
  return Object.fromEntries(
    Object.entries(svc.depends_on ?? {}).map(([name, spec]) => [name, spec.condition ?? 'service_started']),
  );
}

function words(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(' ') : (value ?? '');
}

/** What an operator must export before `docker compose up` (the file's own error messages name these). */
const OPERATOR_ENV: Record<string, string> = {
  SECRET_KEY: randomBytes(32).toString('base64'),
  POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
  CLICKHOUSE_PASSWORD: randomBytes(12).toString('hex'),
  BASE_URL: 'https://perf.example.test',
  INGEST_URL: 'https://rum.example.test',
  SMTP_URL: 'smtps://alerts:secret@smtp.example.test:465',
  MINIO_ROOT_PASSWORD: randomBytes(12).toString('hex'),
  S3_SECRET_ACCESS_KEY: randomBytes(12).toString('hex'),
};

const appServices = Object.entries(compose.services).filter(([, svc]) => svc.build !== undefined);

/** lb's fixed address on the compose network. */
function lbAddress(): string {
  const networks = service('lb').networks;
  const address = Array.isArray(networks) ? undefined : networks?.default?.ipv4_address;
  if (!address) throw new Error('lb has no fixed address on the default network');
  return address;
}

/** The container ports lb publishes. */
function lbPorts(): string[] {
  return (service('lb').ports ?? []).map((p) =>
    typeof p === 'object' ? String(p.target) : String(p).split(':').pop()!,
  );
}

interface NginxDirective {
  words: string[];
  block?: NginxDirective[];
}

/** nginx's configuration syntax, as far as ops/nginx/nginx.conf uses it: directives, blocks, comments, quotes. */
function parseNginx(text: string): NginxDirective[] {
  const tokens = text.replace(/#[^\n]*/g, '').match(/"[^"]*"|[{};]|[^\s{};"]+/g) ?? [];
  let at = 0;
  const block = (): NginxDirective[] => {
    const directives: NginxDirective[] = [];
    let words: string[] = [];
    while (at < tokens.length) {
      const token = tokens[at++]!;
      if (token === ';') {
        directives.push({ words });
        words = [];
      } else if (token === '{') {
        directives.push({ words, block: block() });
        words = [];
      } else if (token === '}') {
        if (words.length) throw new Error(`nginx.conf: "${words.join(' ')}" lacks its ";"`);
        return directives;
      } else words.push(token);
    }
    if (words.length) throw new Error(`nginx.conf: "${words.join(' ')}" lacks its ";"`);
    return directives;
  };
  return block();
}

const nginxText = readFileSync(resolve(PROJECT_ROOT, 'ops/nginx/nginx.conf'), 'utf8');

describe('config.ts variable names (what compose is checked against)', () => {
  const known = variablesReadByConfig(configSource);

  it('finds the variables read through helpers and directly', () => {
    // If the extraction broke, every later "is a real variable" check would be meaningless.
    for (const name of [
      'APP_ENV',
      'DATABASE_URL',
      'API_PORT',
      'CLICKHOUSE_DATABASE',
      'OUTBOUND_ALLOW_LOOPBACK',
      'SECRET_KEY',
      'WORKFLOW_BUNDLE_PATH',
      'CLICKHOUSE_PASSWORD',
    ]) {
      expect(known).toContain(name);
    }
    expect(known).not.toContain('NAME');
  });

  it.each(ROLES)('REQUIRED_IN_PRODUCTION.%s only lists variables config.ts reads', (role) => {
    expect(REQUIRED_IN_PRODUCTION[role].filter((name) => !known.has(name))).toEqual([]);
  });
});

describe('docker-compose.yml', () => {
  const known = variablesReadByConfig(configSource);

  it('runs the project image as api, worker, scan-worker, webhook-worker, ingest (two) and migrate', () => {
    expect(appServices.map(([name]) => name).sort()).toEqual([
      'api',
      'ingest',
      'ingest-2',
      'migrate',
      'scan-worker',
      'webhook-worker',
      'worker',
    ]);
    for (const [name, svc] of appServices) {
      const context = typeof svc.build === 'string' ? svc.build : svc.build?.context;
      expect({ name, context }).toEqual({ name, context: '.' });
    }
  });

  it.each([
    ['postgres', 'postgres:'],
    ['clickhouse', 'clickhouse/clickhouse-server:'],
    ['temporal', 'temporalio/'],
    ['temporal-ui', 'temporalio/'],
    ['minio', 'minio/minio:'],
    ['minio-setup', 'minio/mc:'],
  ])('backing service %s uses the official image %s', (name, prefix) => {
    const svc = service(name);
    expect(svc.build).toBeUndefined();
    expect(svc.image?.startsWith(prefix)).toBe(true);
    expect(svc.image).toMatch(/:[\w.-]+$/);
    expect(svc.image).not.toMatch(/:latest$/);
  });

  it('every variable in an app service environment is one config.ts reads', () => {
    const unknown = appServices.flatMap(([name, svc]) =>
      Object.keys(rawEnvironment(svc))
        .filter((key) => !known.has(key))
        .map((key) => `${name}: ${key}`),
    );
    expect(unknown).toEqual([]);
  });

  it('secrets come from the operator, never from the file', () => {
    for (const [name, svc] of appServices) {
      const raw = rawEnvironment(svc);
      expect({ name, CLICKHOUSE_PASSWORD: raw.CLICKHOUSE_PASSWORD }).toEqual({
        name,
        CLICKHOUSE_PASSWORD: expect.stringMatching(/^\$\{CLICKHOUSE_PASSWORD:\?[^}]+\}$/),
      });
      expect(raw.DATABASE_URL).toMatch(/\$\{POSTGRES_PASSWORD:\?[^}]+\}@/);
    }
  });

  it('gives the secret key to api and worker only (compose refuses to start them without it), never to ingest or migrate', () => {
    const { SECRET_KEY: _omitted, ...withoutSecretKey } = OPERATOR_ENV;
    for (const name of KEY_HOLDERS) {
      const raw = rawEnvironment(service(name));
      expect({ name, SECRET_KEY: raw.SECRET_KEY }).toEqual({
        name,
        SECRET_KEY: expect.stringMatching(/^\$\{SECRET_KEY:\?[^}]+\}$/),
      });
      expect({ name, SECRET_KEY_PREVIOUS: raw.SECRET_KEY_PREVIOUS }).toEqual({
        name,
        SECRET_KEY_PREVIOUS: '${SECRET_KEY_PREVIOUS:-}',
      });
      expect(() => environment(service(name), withoutSecretKey)).toThrow(/SECRET_KEY/);
    }
    for (const name of ['ingest', 'ingest-2', 'migrate']) {
      const env = environment(service(name), withoutSecretKey);
      expect({ name, keys: SECRET_KEY_VARIABLES.filter((key) => key in env) }).toEqual({ name, keys: [] });
    }
  });

  it('stores scan images in the MinIO bucket for api, worker and scan-worker, with the key from the operator; nobody else gets it', () => {
    for (const name of ['api', 'worker', 'scan-worker']) {
      const s3 = loadConfig(environment(service(name), OPERATOR_ENV)).assetsS3;
      expect({ name, bucket: s3?.bucket, path: s3?.forcePathStyle }).toEqual({
        name,
        bucket: 'webperf-assets',
        path: true,
      });
      expect(compose.services).toHaveProperty([new URL(s3!.endpoint!).hostname]);
      expect(rawEnvironment(service(name)).S3_SECRET_ACCESS_KEY).toMatch(/^\$\{S3_SECRET_ACCESS_KEY:\?[^}]+\}$/);
    }
    for (const name of ['ingest', 'migrate', 'webhook-worker'])
      expect({ name, keys: Object.keys(rawEnvironment(service(name))).filter((key) => key.startsWith('S3_')) }).toEqual(
        {
          name,
          keys: [],
        },
      );
    expect(words(service('minio-setup').command)).toContain('mb --ignore-existing store/webperf-assets');
  });

  describe.each(ROLE_SERVICES)('%s (%s)', (name, role) => {
    const svc = service(name);
    const env = environment(svc, OPERATOR_ENV);
    const port = env[PORT_VARIABLE[role]];

    it(`runs node ${ENTRY[role]}`, () => {
      expect(svc.command).toEqual(['node', ENTRY[role]]);
      expect(existsSync(resolve(PROJECT_ROOT, ENTRY[role]))).toBe(true);
    });

    it('sets every variable REQUIRED_IN_PRODUCTION lists for it', () => {
      const needed = REQUIRED_IN_PRODUCTION[role].filter((key) => key !== 'CHROMIUM_PATH' || name === 'scan-worker');
      expect(needed.filter((key) => !env[key]?.trim())).toEqual([]);
    });

    it('runs in production mode, and its configuration loads', () => {
      expect(env.APP_ENV).toBe('production');
      const config = KEY_HOLDERS.includes(name) ? loadConfig(env) : loadConfig(env, { keys: false });
      expect(config.env).toBe('production');
      expect(config.outboundAllowLoopback).toBe(false);
      expect(config.callbacksAllowLoopback).toBe(false);
      // Behind lb, api and ingest read X-Forwarded-For from lb's address only; workers take no client requests.
      expect(config.trustedProxies).toEqual(role === 'worker' ? [] : [`${lbAddress()}/32`]);
      // The hosts it connects to are services of this file.
      expect(compose.services).toHaveProperty([new URL(config.databaseUrl).hostname]);
      expect(compose.services).toHaveProperty([new URL(config.clickhouse.url).hostname]);
      expect(compose.services).toHaveProperty([config.temporal.address.split(':')[0]!]);
    });

    it('listens on all interfaces of its container', () => {
      expect(env[HOST_VARIABLE[role]]).toBe('0.0.0.0');
    });

    it('has a health check on its own /readyz port', () => {
      expect(port).toMatch(/^\d+$/);
      const test = words(svc.healthcheck?.test);
      expect(svc.healthcheck?.disable).not.toBe(true);
      expect(test).toContain('/readyz');
      expect(test).toContain(`:${port}/readyz`);
    });

    it('publishes nothing itself (api and ingest are reached through lb) and has no fixed container name', () => {
      expect(svc.ports ?? []).toEqual([]);
      expect(svc.container_name).toBeUndefined();
      if (role !== 'worker') expect(lbPorts()).toContain(port);
    });

    it('starts after what it needs', () => {
      const deps = dependsOn(svc);
      for (const [name, condition] of Object.entries(NEEDS[role])) {
        expect({ [name]: deps[name] }).toEqual({ [name]: condition });
        if (condition === 'service_healthy') expect(service(name).healthcheck?.test).toBeDefined();
      }
    });
  });

  describe('several of each process (docs/scaling.md)', () => {
    const http = parseNginx(nginxText).find((d) => d.words[0] === 'http')?.block ?? [];
    const named = (name: string, list: NginxDirective[] = http) => list.filter((d) => d.words[0] === name);
    /** Each upstream's servers (host:port) by its name. */
    const upstreams = Object.fromEntries(
      named('upstream').map((u) => [u.words[1]!, named('server', u.block).map((d) => d.words[1]!)]),
    );
    /** Each server block's listen port and the upstream its location / passes to. */
    const routes = Object.fromEntries(
      named('server').map((server) => {
        const location = named('location', server.block).find((d) => d.words[1] === '/');
        const pass = named('proxy_pass', location?.block)[0]?.words[1];
        return [named('listen', server.block)[0]?.words[1] ?? '', pass?.replace(/^http:\/\//, '') ?? ''];
      }),
    );
    const servicesRunning = (role: Role) =>
      appServices.filter(([, svc]) => words(svc.command) === `node ${ENTRY[role]}`).map(([name]) => name);

    it('runs every replicated process at least twice, as replicas or as numbered services', () => {
      for (const name of ['api', 'worker', 'scan-worker', 'webhook-worker'])
        expect({ name, replicas: service(name).deploy?.replicas ?? 1 }).toEqual({
          name,
          replicas: expect.any(Number),
        });
      for (const name of ['api', 'worker', 'scan-worker', 'webhook-worker'])
        expect(service(name).deploy!.replicas).toBeGreaterThanOrEqual(2);
      expect(servicesRunning('ingest').sort()).toEqual(['ingest', 'ingest-2']);
    });

    it('has one worker service per kind of task queue: main, a region’s scans, webhooks', () => {
      const roles = servicesRunning('worker').map(
        (name) => [name, loadConfig(environment(service(name), OPERATOR_ENV)).worker.role] as const,
      );
      expect(Object.fromEntries(roles)).toEqual({
        worker: 'main',
        'scan-worker': 'scan',
        'webhook-worker': 'webhooks',
      });
    });

    it('gives the slot dispatcher (main worker) as many scans per region as scan-worker has replicas', () => {
      const config = loadConfig(environment(service('worker'), OPERATOR_ENV));
      const [region] = loadConfig(environment(service('scan-worker'), OPERATOR_ENV)).worker.scanRegions;
      expect(config.regions.slots[region!]).toBe(service('scan-worker').deploy!.replicas);
    });

    it('gives each ingest instance a spool volume of its own, at its INGEST_SPOOL_DIR', () => {
      const spools = servicesRunning('ingest').map((name) => {
        const dir = environment(service(name), OPERATOR_ENV).INGEST_SPOOL_DIR;
        const mount = (service(name).volumes ?? []).find((v) => v.split(':')[1] === dir);
        expect({ name, mount }).toEqual({ name, mount: expect.any(String) });
        return mount!.split(':')[0];
      });
      expect(new Set(spools).size).toBe(spools.length);
      for (const volume of spools) expect(composeText).toMatch(new RegExp(`^  ${volume}:`, 'm'));
    });

    it('puts lb (nginx, ops/nginx/nginx.conf) in front: the API port to every api replica, the ingest port to every instance', () => {
      const lb = service('lb');
      expect(lb.image).toMatch(/^nginx:[\w.-]+$/);
      expect(lb.image).not.toMatch(/:latest$/);
      expect(lb.volumes).toContain('./ops/nginx/nginx.conf:/etc/nginx/nginx.conf:ro');
      const apiPort = environment(service('api'), OPERATOR_ENV).API_PORT!;
      const ingestPort = environment(service('ingest'), OPERATOR_ENV).INGEST_PORT!;
      expect(lbPorts().sort()).toEqual([apiPort, ingestPort].sort());
      expect(Object.keys(routes).sort()).toEqual([apiPort, ingestPort].sort());
      // Docker's DNS gives every replica of api under its service name; ingest instances are named one by one.
      expect(upstreams[routes[apiPort]!]).toEqual([`api:${apiPort}`]);
      expect(upstreams[routes[ingestPort]!]!.sort()).toEqual(
        servicesRunning('ingest')
          .map((name) => `${name}:${environment(service(name), OPERATOR_ENV).INGEST_PORT}`)
          .sort(),
      );
      expect(dependsOn(lb)).toEqual(
        Object.fromEntries(['api', ...servicesRunning('ingest')].map((name) => [name, 'service_healthy'])),
      );
    });

    it("passes the client's address on, from the fixed address api and ingest trust", () => {
      expect(named('proxy_set_header').map((d) => d.words.slice(1).join(' '))).toContain(
        'X-Forwarded-For $proxy_add_x_forwarded_for',
      );
      const subnet = compose.networks?.default?.ipam?.config?.[0]?.subnet ?? '';
      const [network, bits] = subnet.split('/');
      expect(bits).toBe('24');
      expect(lbAddress().split('.').slice(0, 3)).toEqual(network!.split('.').slice(0, 3));
    });
  });

  describe('webhook-worker', () => {
    const svc = service('webhook-worker');
    const env = environment(svc, OPERATOR_ENV);

    it('runs worker/main.ts for the webhook queue only, and the worker for everything else', () => {
      expect(svc.command).toEqual(['node', 'worker/main.ts']);
      const config = loadConfig(env);
      expect(config.env).toBe('production');
      expect(config.worker.role).toBe('webhooks');
      expect(config.worker.webhookSlots).toBeGreaterThan(0);
      expect(config.outboundAllowLoopback).toBe(false);
      expect(loadConfig(environment(service('worker'), OPERATOR_ENV)).worker).toMatchObject({
        role: 'main',
        scanRegions: [],
      });
      expect(loadConfig(environment(service('scan-worker'), OPERATOR_ENV)).worker).toMatchObject({
        role: 'scan',
        scanRegions: ['local'],
      });
      expect(compose.services).toHaveProperty([new URL(config.databaseUrl).hostname]);
      expect(compose.services).toHaveProperty([config.temporal.address.split(':')[0]!]);
    });

    it('sets what a worker needs in production, except the browser', () => {
      const missing = REQUIRED_IN_PRODUCTION.worker.filter((name) => name !== 'CHROMIUM_PATH' && !env[name]?.trim());
      expect(missing).toEqual([]);
    });

    it('has a health check on its own /readyz port, kept internal', () => {
      expect(env.WORKER_HEALTH_HOST).toBe('0.0.0.0');
      expect(words(svc.healthcheck?.test)).toContain(`:${env.WORKER_HEALTH_PORT}/readyz`);
      expect(svc.ports ?? []).toEqual([]);
    });

    it('starts after what the worker needs', () => {
      const deps = dependsOn(svc);
      // It stores no images, so it does not wait for the bucket.
      for (const [name, condition] of Object.entries(NEEDS.worker).filter(([name]) => name !== 'minio-setup'))
        expect({ [name]: deps[name] }).toEqual({ [name]: condition });
    });
  });

  it('the scan worker gives Chromium a real path and enough shared memory', () => {
    const env = environment(service('scan-worker'), OPERATOR_ENV);
    expect(env.CHROMIUM_PATH).toBe('/usr/bin/chromium');
    expect((service('scan-worker') as Service & { shm_size?: string }).shm_size).toBeDefined();
  });

  it("lets the scan worker's Chromium start its namespace sandbox, which Docker's default seccomp profile refuses", () => {
    expect((service('scan-worker') as Service & { security_opt?: string[] }).security_opt).toEqual(
      expect.arrayContaining(['seccomp=unconfined', 'no-new-privileges:true']),
    );
    expect(readFileSync(resolve(PROJECT_ROOT, 'core/chromium.ts'), 'utf8')).not.toMatch(/^\s*'--no-sandbox',/m);
  });

  it('migrate runs db/cli.ts subcommands that exist, with a loadable production config', () => {
    const migrate = service('migrate');
    const command = words(migrate.command);
    const used = [...command.matchAll(/node db\/cli\.ts (\w+)/g)].map((m) => m[1]!);
    expect(used.length).toBeGreaterThan(0);
    const cli = readFileSync(resolve(PROJECT_ROOT, 'db/cli.ts'), 'utf8');
    const offered = new Set([...cli.matchAll(/(?:case\s+|command === )'(\w+)'/g)].map((m) => m[1]!));
    expect(used.filter((sub) => !offered.has(sub))).toEqual([]);
    expect(dependsOn(migrate)).toMatchObject({ postgres: 'service_healthy', clickhouse: 'service_healthy' });
    expect(loadConfig(environment(migrate, OPERATOR_ENV), { keys: false }).env).toBe('production');
  });

  it('temporal registers the namespace and search attributes the code uses', () => {
    const app = loadConfig(environment(service('api'), OPERATOR_ENV));
    const temporalEnv = environment(service('temporal'), OPERATOR_ENV);
    expect(temporalEnv.DEFAULT_NAMESPACE ?? 'default').toBe(app.temporal.namespace);
    expect(words(service('temporal').healthcheck?.test)).toContain(app.temporal.namespace);
    const setup = words(service('temporal-setup').command);
    for (const key of SEARCH_ATTRIBUTES) expect(setup).toMatch(new RegExp(`\\b${key.name}\\b`));
  });
});

describe('Dockerfile', () => {
  const lines = dockerfile.split('\n').map((line) => line.trim());
  const stages: string[][] = [];
  for (const line of lines) {
    if (/^FROM\s/i.test(line)) stages.push([line]);
    else stages.at(-1)?.push(line);
  }
  const runtime = stages.at(-1) ?? [];

  it('builds on the official Node 24 image', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages.every((stage) => /^FROM\s+node:24(-[\w.-]+)?(\s+AS\s+\w+)?$/i.test(stage[0]!))).toBe(true);
    expect(runtime[0]).toMatch(/^FROM\s+node:24-bookworm-slim\b/i);
  });

  it('runs the runtime stage as a user that is not root', () => {
    const users = runtime.filter((line) => /^USER\s/i.test(line)).map((line) => line.replace(/^USER\s+/i, '').trim());
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
  });

  it('installs with install scripts, and points the worker at the bundle it builds', () => {
    expect(dockerfile).toMatch(/^RUN npm install\b/m);
    expect(dockerfile).not.toMatch(/--ignore-scripts/);
    const built = /node worker\/build-bundle\.ts (\S+)/.exec(dockerfile)?.[1];
    const configured = /WORKFLOW_BUNDLE_PATH=(\S+)/.exec(runtime.join('\n'))?.[1];
    expect(built).toBe('/app/dist/workflow-bundle.js');
    expect(configured).toBe(built);
    expect(runtime.join('\n')).toMatch(/APP_ENV=production/);
    expect(runtime.join('\n')).toMatch(/apt-get install[^\n]*\bchromium\b/);
  });

  it('defaults to the api role; compose chooses the others', () => {
    expect(runtime.filter((line) => /^CMD\s/i.test(line)).at(-1)).toBe('CMD ["node", "server/main.ts"]');
  });
});
