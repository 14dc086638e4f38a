import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, DEFAULT_MIN_BENCHMARK_INDEX, loadConfig, requireSmtpUrl } from '../../infra/config.ts';

const made: string[] = [];
const tempState = () => {
  const dir = mkdtempSync(join(tmpdir(), 'webperf-config-'));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const PRODUCTION_ADDRESSES = {
  BASE_URL: 'https://scan.example',
  INGEST_URL: 'https://rum.example',
  DATABASE_URL: 'postgres://app@db/webperf',
  CLICKHOUSE_URL: 'http://clickhouse:8123',
  TEMPORAL_ADDRESS: 'temporal:7233',
};

describe('configuration', () => {
  it('defaults match the local stack', () => {
    const config = loadConfig({ STATE_DIR: tempState() });
    expect(config.env).toBe('development');
    expect(config.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/webperf');
    expect(config.clickhouse.url).toBe('http://127.0.0.1:8123');
    expect(config.temporal.address).toBe('127.0.0.1:7233');
    expect(config.baseUrl).toBe('http://127.0.0.1:3000');
    expect(config.regions).toEqual({ available: ['local'], default: 'local', slots: { local: 1 } });
    expect(config.outboundAllowLoopback).toBe(false);
    expect(config.callbacksAllowLoopback).toBe(false);
    expect(config.keys.current.secret).toHaveLength(32);
    expect(config.keys.previous).toBeNull();
    expect(config.trustedProxies).toEqual([]);
  });

  it.each([undefined, 'development', 'test', 'production'])(
    'refuses loopback destinations by default (APP_ENV=%s); only an explicit opt-in allows them',
    (appEnv) => {
      const env = {
        STATE_DIR: tempState(),
        APP_ENV: appEnv,
        SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
        ...(appEnv === 'production' ? PRODUCTION_ADDRESSES : {}),
      };
      expect(loadConfig(env).outboundAllowLoopback).toBe(false);
      expect(loadConfig({ ...env, OUTBOUND_ALLOW_LOOPBACK: 'true' }).outboundAllowLoopback).toBe(true);
    },
  );

  it.each([undefined, 'development', 'test', 'production'])(
    'webhooks and metadata documents have their own loopback switch, off by default (APP_ENV=%s)',
    (appEnv) => {
      const env = {
        STATE_DIR: tempState(),
        APP_ENV: appEnv,
        SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
        ...(appEnv === 'production' ? PRODUCTION_ADDRESSES : {}),
      };
      expect(loadConfig(env).callbacksAllowLoopback).toBe(false);
      // The scans' switch does not open them.
      expect(loadConfig({ ...env, OUTBOUND_ALLOW_LOOPBACK: 'true' })).toMatchObject({
        outboundAllowLoopback: true,
        callbacksAllowLoopback: false,
      });
      expect(loadConfig({ ...env, CALLBACKS_ALLOW_LOOPBACK: 'true' })).toMatchObject({
        outboundAllowLoopback: false,
        callbacksAllowLoopback: true,
      });
      for (const off of ['false', 'no', '0', ' '])
        expect(loadConfig({ ...env, CALLBACKS_ALLOW_LOOPBACK: off }).callbacksAllowLoopback).toBe(false);
      for (const on of ['TRUE', 'yes', '1'])
        expect(loadConfig({ ...env, CALLBACKS_ALLOW_LOOPBACK: on }).callbacksAllowLoopback).toBe(true);
    },
  );

  it('reads TRUSTED_PROXIES as addresses and CIDR blocks', () => {
    expect(
      loadConfig({ STATE_DIR: tempState(), TRUSTED_PROXIES: ' 10.0.0.0/8, 192.0.2.7 ,fd00::/8' }).trustedProxies,
    ).toEqual(['10.0.0.0/8', '192.0.2.7/32', 'fd00::/8']);
  });

  it.each([
    ['API_PORT', 'eighty', /API_PORT must be a TCP port/],
    ['API_PORT', '70000', /API_PORT must be a TCP port/],
    ['DATABASE_URL', 'mysql://x/y', /DATABASE_URL must use postgres:/],
    ['BASE_URL', 'not a url', /BASE_URL must be an absolute URL/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
    ['OUTBOUND_ALLOW_LOOPBACK', 'maybe', /OUTBOUND_ALLOW_LOOPBACK must be true or false/],
    ['CALLBACKS_ALLOW_LOOPBACK', 'maybe', /CALLBACKS_ALLOW_LOOPBACK must be true or false/],
    ['CLICKHOUSE_DATABASE', 'x; drop', /CLICKHOUSE_DATABASE must be a plain identifier/],
    ['TEMPORAL_ADDRESS', 'http://temporal:7233', /TEMPORAL_ADDRESS must be host:port/],
    ['SCAN_REGIONS', 'eu-west,US EAST', /SCAN_REGIONS has an invalid region code/],
    ['SECRET_KEY', 'dG9vIHNob3J0', /SECRET_KEY must be 32 bytes/],
    ['TRUSTED_PROXIES', 'proxy.internal', /TRUSTED_PROXIES must list IP addresses or CIDR blocks/],
    ['TRUSTED_PROXIES', '10.0.0.0/33', /TRUSTED_PROXIES must list IP addresses or CIDR blocks/],
  ])('names the bad variable %s=%s', (name, value, message) => {
    expect(() => loadConfig({ STATE_DIR: tempState(), [name]: value })).toThrow(message);
    try {
      loadConfig({ STATE_DIR: tempState(), [name]: value });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe(name);
    }
  });

  it('reads the scans each region runs at once: one number, per-region entries, or both', () => {
    const slots = (value?: string) =>
      loadConfig({ STATE_DIR: tempState(), SCAN_REGIONS: 'eu,us', SCAN_REGION_SLOTS: value }).regions.slots;
    expect(slots()).toEqual({ eu: 1, us: 1 });
    expect(slots('3')).toEqual({ eu: 3, us: 3 });
    expect(slots('2, us=4')).toEqual({ eu: 2, us: 4 });
    for (const bad of ['0', 'two', 'ap=2', 'eu=', '1,2']) {
      expect(() => slots(bad)).toThrow(/SCAN_REGION_SLOTS/);
    }
  });

  it('reads the minimum benchmark index of a trusted run (0 turns the check off)', () => {
    const minimum = (value?: string) =>
      loadConfig({ STATE_DIR: tempState(), SCAN_MIN_BENCHMARK_INDEX: value }).scanMinBenchmarkIndex;
    expect(minimum()).toBe(DEFAULT_MIN_BENCHMARK_INDEX);
    expect(minimum('0')).toBe(0);
    expect(minimum(' 1500 ')).toBe(1500);
    for (const bad of ['-1', '1.5', 'high', '1000001']) expect(() => minimum(bad)).toThrow(/SCAN_MIN_BENCHMARK_INDEX/);
  });

  it("reads the reconciler's grace in seconds: 5 minutes by default, 1 s to a day", () => {
    const grace = (value?: string) =>
      loadConfig({ STATE_DIR: tempState(), RECONCILE_GRACE_SECONDS: value }).worker.reconcileGraceMs;
    expect(grace()).toBe(300_000);
    expect(grace(' 30 ')).toBe(30_000);
    expect(grace('86400')).toBe(86_400_000);
    for (const bad of ['0', '-1', '1.5', 'soon', '86401']) expect(() => grace(bad)).toThrow(/RECONCILE_GRACE_SECONDS/);
  });

  it('rejects a default region that is not offered', () => {
    expect(() => loadConfig({ STATE_DIR: tempState(), SCAN_REGIONS: 'eu,us', DEFAULT_REGION: 'ap' })).toThrow(
      /DEFAULT_REGION must be one of/,
    );
  });

  it('reads the worker role; a scan worker must serve at least one of the offered regions', () => {
    const worker = (env: Record<string, string>) =>
      loadConfig({ STATE_DIR: tempState(), SCAN_REGIONS: 'eu,us', ...env }).worker;
    expect(worker({})).toMatchObject({ role: 'all', scanRegions: ['eu', 'us'] });
    expect(worker({ WORKER_ROLE: 'scan', WORKER_SCAN_REGIONS: 'us' })).toMatchObject({
      role: 'scan',
      scanRegions: ['us'],
    });
    expect(worker({ WORKER_ROLE: 'main', WORKER_SCAN_REGIONS: 'none' })).toMatchObject({
      role: 'main',
      scanRegions: [],
    });
    expect(() => worker({ WORKER_ROLE: 'scan', WORKER_SCAN_REGIONS: 'none' })).toThrow(/WORKER_SCAN_REGIONS/);
    expect(() => worker({ WORKER_ROLE: 'scan', WORKER_SCAN_REGIONS: 'ap' })).toThrow(/WORKER_SCAN_REGIONS/);
    expect(() => worker({ WORKER_ROLE: 'lighthouse' })).toThrow(/WORKER_ROLE/);
  });
  it('runs Lighthouse unless a test asks for the replay of recorded runs', () => {
    const runner = (env: Record<string, string>) => loadConfig({ STATE_DIR: tempState(), ...env }).worker.scanRunner;
    expect(runner({})).toBe('lighthouse');
    expect(runner({ APP_ENV: 'test', SCAN_RUNNER: 'replay' })).toBe('replay');
    expect(() => runner({ SCAN_RUNNER: 'replay' })).toThrow(/SCAN_RUNNER.*APP_ENV=test only/);
    expect(() => runner({ APP_ENV: 'test', SCAN_RUNNER: 'fake' })).toThrow(/SCAN_RUNNER/);
  });
  it('keeps rollups 25 months by default, never fewer months than raw rows', () => {
    const ingest = (env: Record<string, string>) => loadConfig({ STATE_DIR: tempState(), ...env }).ingest;
    expect(ingest({})).toMatchObject({ keepMonths: 13, rollupKeepMonths: 25 });
    expect(ingest({ RUM_KEEP_MONTHS: '30' })).toMatchObject({ keepMonths: 30, rollupKeepMonths: 30 });
    expect(ingest({ RUM_ROLLUP_KEEP_MONTHS: '60' })).toMatchObject({ rollupKeepMonths: 60 });
    expect(() => ingest({ RUM_KEEP_MONTHS: '13', RUM_ROLLUP_KEEP_MONTHS: '12' })).toThrow(/RUM_ROLLUP_KEEP_MONTHS/);
  });
  it('production refuses to fall back to local defaults or a generated key', () => {
    expect(() => loadConfig({ APP_ENV: 'production', STATE_DIR: tempState() })).toThrow(ConfigError);
    const full = { APP_ENV: 'production', STATE_DIR: tempState(), ...PRODUCTION_ADDRESSES };
    expect(() => loadConfig(full)).toThrow(/SECRET_KEY is required in production/);
    const config = loadConfig({ ...full, SECRET_KEY: Buffer.alloc(32, 7).toString('base64') });
    expect(config.env).toBe('production');
    expect(config.outboundAllowLoopback).toBe(false);
    expect(config.callbacksAllowLoopback).toBe(false);
  });

  it('reads the alert e-mail settings: the local sink by default, no default SMTP server in production (the worker refuses to start)', () => {
    const local = loadConfig({ STATE_DIR: tempState() });
    expect(local.mail).toEqual({
      smtpUrl: 'smtp://127.0.0.1:2525',
      from: 'WebPerf alerts <alerts@localhost>',
      operatorEmail: 'operators@localhost',
    });
    expect(requireSmtpUrl(local)).toBe('smtp://127.0.0.1:2525');
    const production = {
      APP_ENV: 'production',
      STATE_DIR: tempState(),
      ...PRODUCTION_ADDRESSES,
      SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    };
    const withoutSmtp = loadConfig(production);
    expect(withoutSmtp.mail).toEqual({
      smtpUrl: null,
      from: 'WebPerf alerts <alerts@scan.example>',
      operatorEmail: null,
    });
    expect(() => requireSmtpUrl(withoutSmtp)).toThrow(/SMTP_URL is required in production/);
    expect(
      loadConfig({ ...production, SMTP_URL: 'smtps://u:p@mail.example:465', MAIL_FROM: 'Ops <ops@scan.example>' }).mail,
    ).toEqual({ smtpUrl: 'smtps://u:p@mail.example:465', from: 'Ops <ops@scan.example>', operatorEmail: null });
    expect(loadConfig({ ...production, OPERATOR_EMAIL: 'plans@scan.example' }).mail.operatorEmail).toBe(
      'plans@scan.example',
    );
    expect(() => loadConfig({ STATE_DIR: tempState(), OPERATOR_EMAIL: 'Ops <ops@scan.example>' })).toThrow(
      /OPERATOR_EMAIL must be one e-mail address/,
    );
    expect(() => loadConfig({ STATE_DIR: tempState(), SMTP_URL: 'http://mail.example' })).toThrow(
      /SMTP_URL must use smtp: or smtps:/,
    );
    expect(() => loadConfig({ STATE_DIR: tempState(), MAIL_FROM: 'nobody' })).toThrow(
      /MAIL_FROM must be an e-mail address/,
    );
  });

  it('generates the secret key once per state folder and reuses it', () => {
    const stateDir = tempState();
    const first = loadConfig({ STATE_DIR: stateDir }).keys.current.secret;
    const second = loadConfig({ STATE_DIR: stateDir }).keys.current.secret;
    expect(second.equals(first)).toBe(true);
    expect(Buffer.from(readFileSync(join(stateDir, 'secret.key'), 'utf8').trim(), 'base64').equals(first)).toBe(true);
    expect(loadConfig({ STATE_DIR: tempState() }).keys.current.secret.equals(first)).toBe(false);
  });

  it('reads SECRET_KEY_PREVIOUS for rotation, each key with its own id', () => {
    const [current, previous] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    const { keys } = loadConfig({
      STATE_DIR: tempState(),
      SECRET_KEY: current.toString('base64'),
      SECRET_KEY_PREVIOUS: previous.toString('base64'),
    });
    expect(keys.current.secret.equals(current)).toBe(true);
    expect(keys.previous?.secret.equals(previous)).toBe(true);
    expect(keys.current.id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(keys.previous?.id).not.toBe(keys.current.id);
    expect(() => loadConfig({ STATE_DIR: tempState(), SECRET_KEY_PREVIOUS: 'c2hvcnQ=' })).toThrow(
      /SECRET_KEY_PREVIOUS must be 32 bytes/,
    );
  });

  it('loads without any key for processes that handle no secrets (ingest), in production too, and makes no key file', () => {
    const stateDir = tempState();
    const config = loadConfig({ APP_ENV: 'production', STATE_DIR: stateDir, ...PRODUCTION_ADDRESSES }, { keys: false });
    expect(config.env).toBe('production');
    expect(config).not.toHaveProperty('keys');
    expect(loadConfig({ STATE_DIR: stateDir }, { keys: false })).not.toHaveProperty('keys');
    expect(existsSync(join(stateDir, 'secret.key'))).toBe(false);
  });
});
