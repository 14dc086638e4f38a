import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig, PROJECT_ROOT } from '../../infra/config.ts';
import { createClickHouse } from '../../db/clickhouse/client.ts';
import { createKnex } from '../../db/knex.ts';
import { dropDatabase, withDatabase } from '../../stack/postgres.ts';
import { isAlive, isPortOpen } from '../../stack/proc.ts';
import { ensureTemporalCli } from '../../stack/temporal.ts';
import { smtpMailer } from '../../services/mailer.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { METADATA_ADDRESS_REFUSED } from '../../oauth/client-metadata.ts';
import { createStorage } from '../../db/store/index.ts';
import { startHttpsServer, type TestHttpsServer } from '../harness/https-server.ts';
import { uniqueName } from '../harness/isolated.ts';
import { freePorts } from '../../stack/ports.ts';
import { readiness } from '../harness/processes.ts';
import { baseTestEnv, HARNESS_DIR } from '../harness/shared.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';
import { WebClient } from '../harness/web.ts';

/**
 * `./svc start` as a newcomer runs it, in a state folder and on ports of its own, so that it starts its own
 * ClickHouse and Temporal (Postgres is the machine's). Ctrl-C must stop everything it started; a second start
 * must find the data of the first.
 */
const base = loadConfig(baseTestEnv());
const database = uniqueName('start');
const stateDir = resolve(HARNESS_DIR, uniqueName('state'));
const CANARY_KEY = Buffer.alloc(32, 0x5c).toString('base64');
let env: Record<string, string | undefined>;
let sites: FixtureSites;
let receiver: WebhookReceiver;
let metadataDocs: TestHttpsServer;
const metadataFetches: string[] = [];
let ports: Record<
  | 'api'
  | 'ingest'
  | 'worker'
  | 'chHttp'
  | 'chTcp'
  | 'apiMetrics'
  | 'prometheus'
  | 'workerSdk'
  | 'temporal'
  | 'temporalUi'
  | 'smtp',
  number
>;

beforeAll(async () => {
  sites = await startFixtureSites();
  receiver = await webhookReceiver();
  metadataDocs = await startHttpsServer();
  metadataDocs.route('/app.json', (_req, res) => {
    metadataFetches.push('/app.json');
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        client_id: `${metadataDocs.url}/app.json`,
        client_name: 'Local app',
        redirect_uris: ['http://127.0.0.1:8976/callback'],
        token_endpoint_auth_method: 'none',
      }),
    );
  });
  ports = await freePorts([
    'api',
    'ingest',
    'worker',
    'chHttp',
    'chTcp',
    'apiMetrics',
    'prometheus',
    'workerSdk',
    'temporal',
    'temporalUi',
    'smtp',
  ] as const);
  env = {
    ...baseTestEnv(),
    APP_ENV: 'development',
    STATE_DIR: stateDir,
    DATABASE_URL: withDatabase(base.databaseUrl, database),
    CLICKHOUSE_URL: `http://127.0.0.1:${ports.chHttp}`,
    CLICKHOUSE_TCP_PORT: String(ports.chTcp),
    TEMPORAL_ADDRESS: `127.0.0.1:${ports.temporal}`,
    TEMPORAL_UI_URL: `http://127.0.0.1:${ports.temporalUi}`,
    TEMPORAL_BIN: ensureTemporalCli(base, () => undefined),
    API_PORT: String(ports.api),
    API_METRICS_PORT: String(ports.apiMetrics),
    PROMETHEUS_PORT: String(ports.prometheus),
    WORKER_SDK_METRICS_PORT: String(ports.workerSdk),
    INGEST_PORT: String(ports.ingest),
    WORKER_HEALTH_PORT: String(ports.worker),
    SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
    // Unset: the start command opts in to loopback scanning itself (and says so), and to nothing else.
    OUTBOUND_ALLOW_LOOPBACK: undefined,
    CALLBACKS_ALLOW_LOOPBACK: undefined,
    // The metadata document server's certificate is trusted: only the address rule can keep it from being fetched.
    OAUTH_METADATA_CA_FILE: metadataDocs.caFile,
    SECRET_KEY: CANARY_KEY,
  };
});

const running = new Set<ChildProcess>();

afterAll(async () => {
  // A failed assertion skips the test's own Ctrl-C: stop whatever is still running before removing its state.
  for (const child of running) if (child.exitCode === null && child.signalCode === null) await interruptAndWait(child);
  await sites?.close();
  await receiver?.close();
  await metadataDocs?.close();
  rmSync(stateDir, { recursive: true, force: true });
  await dropDatabase(base.databaseUrl, database).catch(() => undefined);
  await dropDatabase(base.databaseUrl, `${database}_test`).catch(() => undefined);
});

function start(): { child: ChildProcess; output: () => string; up: Promise<void> } {
  const child = spawn(process.execPath, [resolve(PROJECT_ROOT, 'stack/cli.ts'), 'start'], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const up = new Promise<void>((resolveUp, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('The service is up.')) resolveUp();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`start exited early with ${code}:\n${output.slice(-3000)}`)));
  });
  return { child, output: () => output, up };
}

/** The environment of each process the start command spawned, by its entry file (server/main.ts, ...). */
function childEnvironments(pid: number): Map<string, Map<string, string>> {
  const found = new Map<string, Map<string, string>>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(/\s+/).filter(Boolean)) {
      const entry = readFileSync(`/proc/${child}/cmdline`, 'utf8')
        .split('\0')
        .find((arg) => /\/(server|worker|ingest)\/main\.ts$/.test(arg));
      if (!entry) continue;
      const vars = readFileSync(`/proc/${child}/environ`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as [string, string]);
      found.set(entry.split('/').slice(-2).join('/'), new Map(vars));
    }
  }
  return found;
}

const pidOf = (file: string) => Number(readFileSync(resolve(stateDir, file), 'utf8').trim().split(/\s+/)[0]);

async function interruptAndWait(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  child.kill('SIGINT');
  return exited;
}

/**
 * The demo's loopback allowance is for scans only: a scan of a page on 127.0.0.1 runs, while a webhook (at save
 * and when the worker sends it) and a Client ID Metadata Document on 127.0.0.1 are refused, their messages
 * naming no resolved address.
 */
async function loopbackReachesScansOnly(token: string): Promise<void> {
  const apiUrl = `http://127.0.0.1:${ports.api}`;
  const submitted = await fetch(`${apiUrl}/api/v1/scans`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${sites.origin}/fast/` }),
  });
  expect(submitted.status).toBe(202);
  const scanId = ((await submitted.json()) as { data: { id: string } }).data.id;

  const web = new WebClient(apiUrl, apiUrl);
  expect((await web.signIn('demo@example.com', 'demo-password')).status).toBe(303);
  expect((await web.get('/account/notifications')).status).toBe(200);
  const urlError = (page: string) => /id="url-error">([^<]*)</.exec(page)?.[1];
  const literal = await web.post('/account/notifications', { url: receiver.url, header_name: '', header_value: '' });
  expect(literal.status).toBe(422);
  expect(urlError(literal.text)).toMatch(/private or special-use address/);
  const named = await web.post('/account/notifications', {
    url: receiver.url.replace('127.0.0.1', 'localhost'),
    header_name: '',
    header_value: '',
  });
  expect(named.status).toBe(422);
  expect(urlError(named.text)).toMatch(/private or special-use address/);
  expect(named.text).not.toContain('127.0.0.1');

  // An endpoint stored before (or behind the save check): the worker refuses to send to it.
  const knex = createKnex(env.DATABASE_URL!, { min: 0, max: 1 });
  try {
    const [demo] = await knex('users').where({ email: 'demo@example.com' }).select<Array<{ id: number }>>('id');
    await knex('webhook_endpoints')
      .where({ user_id: demo!.id })
      .update({ url: receiver.url.replace('127.0.0.1', 'localhost') });
    expect((await web.post('/account/notifications/test', {})).status).toBe(303);
    const webhooks = createStorage(knex).webhooks;
    let attempts: Awaited<ReturnType<typeof webhooks.attemptsOf>> = [];
    for (let wait = 0; wait < 60 && attempts.length === 0; wait += 1) {
      const [latest] = await webhooks.listDeliveries(demo!.id, 1);
      attempts = latest ? await webhooks.attemptsOf(latest.id) : [];
      if (attempts.length === 0) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(attempts[0]).toMatchObject({
      responseCode: null,
      error: 'refused: localhost resolves to a private or special-use address',
    });
    expect(receiver.received).toHaveLength(0);
  } finally {
    await knex.destroy();
  }

  const clientId = `${metadataDocs.url}/app.json`;
  const authorize = new URLSearchParams({
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:8976/callback',
    response_type: 'code',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'x',
  });
  const refused = await web.get(`/oauth/authorize?${authorize}`);
  expect(refused.status).toBe(400);
  expect(refused.text).toContain(METADATA_ADDRESS_REFUSED);
  expect(metadataFetches).toEqual([]);

  let scan: { status: string } = { status: 'queued' };
  for (let wait = 0; wait < 180 && (scan.status === 'queued' || scan.status === 'running'); wait += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    scan = (
      (await (
        await fetch(`${apiUrl}/api/v1/scans/${scanId}`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { data: { status: string } }
    ).data;
  }
  expect(scan.status).toBe('finished');
  expect(sites.siteRequests.some((request) => request.path === '/fast/')).toBe(true);
}

describe('the start command', () => {
  it('starts every backing service and process, and Ctrl-C stops all of them', async () => {
    const run = start();
    await run.up;
    expect(run.output()).toContain('started clickhouse, temporal');
    expect(run.output()).toContain(`API          http://127.0.0.1:${ports.api}/api/v1`);
    expect(run.output()).toContain(`Temporal UI  http://127.0.0.1:${ports.temporalUi}`);
    for (const port of [ports.api, ports.worker, ports.ingest]) {
      expect((await readiness(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    }
    expect((await readiness(`http://127.0.0.1:${ports.api}/readyz?full=1`)).body.checks.worker_round_trip).toBe('ok');
    expect((await fetch(`http://127.0.0.1:${ports.temporalUi}/`)).status).toBe(200);

    // Loopback scanning is off by default; this local demo turns it on and says so.
    expect(run.output()).toMatch(
      /Scans may reach loopback addresses \(OUTBOUND_ALLOW_LOOPBACK=true\) because this is a local demo/,
    );
    const children = childEnvironments(run.child.pid!);
    expect([...children.keys()].sort()).toEqual(['ingest/main.ts', 'server/main.ts', 'worker/main.ts']);
    expect(children.get('worker/main.ts')!.get('OUTBOUND_ALLOW_LOOPBACK')).toBe('true');
    expect(children.get('server/main.ts')!.get('OUTBOUND_ALLOW_LOOPBACK')).toBe('true');
    // The secret key goes to the processes that use it, never to ingest.
    expect(children.get('server/main.ts')!.get('SECRET_KEY')).toBe(CANARY_KEY);
    expect(children.get('worker/main.ts')!.get('SECRET_KEY')).toBe(CANARY_KEY);
    expect(children.get('ingest/main.ts')!.has('SECRET_KEY')).toBe(false);

    expect(children.get('worker/main.ts')!.has('CALLBACKS_ALLOW_LOOPBACK')).toBe(false);
    expect(children.get('server/main.ts')!.has('CALLBACKS_ALLOW_LOOPBACK')).toBe(false);

    // The local mail sink writes each message to the state folder and says where.
    expect(run.output()).toContain(
      `Mail         smtp://127.0.0.1:${ports.smtp} (a local sink: every alert e-mail is written to ${resolve(stateDir, 'mail')} as an .eml file)`,
    );
    const mailer = smtpMailer({ url: env.SMTP_URL!, from: 'alerts@localhost' });
    await mailer.send({ to: 'newcomer@example.com', subject: 'Sink check', text: 'Hello', html: '<p>Hello</p>' });
    mailer.close();
    const mails = readdirSync(resolve(stateDir, 'mail')).filter((f) => f.endsWith('.eml'));
    expect(mails).toHaveLength(1);
    expect(readFileSync(resolve(stateDir, 'mail', mails[0]!), 'utf8')).toContain('Subject: Sink check');

    // The printed demo token works at once.
    const token = /Demo API token \(new at every start\): (wpt_\S+)/.exec(run.output())?.[1];
    expect(token).toBeDefined();
    const me = await fetch(`http://127.0.0.1:${ports.api}/api/v1/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { email: string; plan: { key: string } } }).data).toMatchObject({
      email: 'demo@example.com',
      plan: { key: 'pro' },
    });
    await loopbackReachesScansOnly(token!);

    // The API's operator metrics on their own port, counting that call.
    expect(run.output()).toContain(`operator metrics: http://127.0.0.1:${ports.apiMetrics}/metrics`);
    const metrics = await (await fetch(`http://127.0.0.1:${ports.apiMetrics}/metrics`)).text();
    expect(
      metrics
        .split('\n')
        .some(
          (line) =>
            line.startsWith('webperf_http_requests_total{') &&
            line.includes('route="/api/v1/me"') &&
            line.includes('status="200"'),
        ),
    ).toBe(true);
    expect((await fetch(`http://127.0.0.1:${ports.api}/metrics`)).status).toBe(404);

    // A local Prometheus scrapes every process (and the Temporal SDK's metrics): its targets API shows the jobs up.
    expect(run.output()).toContain(`Prometheus   http://127.0.0.1:${ports.prometheus}`);
    let health: Record<string, string> = {};
    for (let attempt = 0; attempt < 90 && Object.values(health).filter((h) => h === 'up').length < 4; attempt += 1) {
      const targets = await fetch(`http://127.0.0.1:${ports.prometheus}/api/v1/targets`).then(
        (res) => res.json() as Promise<{ data: { activeTargets: Array<{ labels: { job: string }; health: string }> } }>,
        () => null,
      );
      if (targets)
        health = Object.fromEntries(targets.data.activeTargets.map((target) => [target.labels.job, target.health]));
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(health).toEqual({
      'webperf-api': 'up',
      'webperf-worker': 'up',
      'webperf-worker-sdk': 'up',
      'webperf-ingest': 'up',
    });

    const backingPids = [pidOf('clickhouse/server.pid'), pidOf('temporal/server.pid')];
    expect(backingPids.every(isAlive)).toBe(true);

    // Data written now must survive the restart below.
    const knex = createKnex(env.DATABASE_URL!, { min: 0, max: 1 });
    await knex('users').insert({ name: 'Kept', email: 'kept@example.com', plan: 'pro' });
    await knex.destroy();
    const ch = createClickHouse({ clickhouse: { ...base.clickhouse, url: env.CLICKHOUSE_URL! } }, 'webperf');
    await ch.command({
      query:
        "INSERT INTO rum_metrics (site_id, ts, page_view_id, seq, metric_id, metric, value, device, navigation, path, sample_rate, attr_target, attr_url, attr_type) VALUES (9, now(), 'b', 1, 'a', 'CLS', 0.05, 'mobile', 'navigate', '/', 100, '', '', '')",
    });
    await ch.close();

    expect(await interruptAndWait(run.child)).toBe(0);
    expect(backingPids.some(isAlive)).toBe(false);
    for (const port of Object.values(ports)) expect(await isPortOpen('127.0.0.1', port)).toBe(false);
  }, 300_000);

  it('starts again with the data of the first run', async () => {
    const run = start();
    await run.up;
    expect(run.output()).toContain('Postgres schema up to date');
    expect(run.output()).toContain('ClickHouse schema up to date');
    const knex = createKnex(env.DATABASE_URL!, { min: 0, max: 1 });
    const users = await knex('users').where({ email: 'kept@example.com' }).select('email');
    await knex.destroy();
    expect(users).toEqual([{ email: 'kept@example.com' }]);
    const ch = createClickHouse({ clickhouse: { ...base.clickhouse, url: env.CLICKHOUSE_URL! } }, 'webperf');
    const [row] = await (
      await ch.query({ query: 'SELECT count() AS n FROM rum_metrics WHERE site_id = 9', format: 'JSONEachRow' })
    ).json<{ n: string }>();
    await ch.close();
    expect(Number(row!.n)).toBe(1);
    expect(await interruptAndWait(run.child)).toBe(0);
  }, 180_000);

  it('uses backing services that are already up, and leaves them running on Ctrl-C', async () => {
    const stackCli = (command: string) =>
      execFileSync(process.execPath, [resolve(PROJECT_ROOT, 'stack/cli.ts'), command], {
        cwd: PROJECT_ROOT,
        env,
        encoding: 'utf8',
      });
    expect(stackCli('up')).toContain('started clickhouse, temporal');
    try {
      const backingPids = [pidOf('clickhouse/server.pid'), pidOf('temporal/server.pid')];
      const run = start();
      await run.up;
      expect(run.output()).toContain('all backing services were already running');
      expect((await readiness(`http://127.0.0.1:${ports.api}/readyz`)).status).toBe(200);
      expect(await interruptAndWait(run.child)).toBe(0);
      for (const port of [ports.api, ports.worker, ports.ingest])
        expect(await isPortOpen('127.0.0.1', port)).toBe(false);
      expect(backingPids.every(isAlive)).toBe(true);
      expect(await isPortOpen('127.0.0.1', ports.temporal)).toBe(true);
    } finally {
      stackCli('down');
    }
    expect(await isPortOpen('127.0.0.1', ports.temporal)).toBe(false);
  }, 180_000);
});
