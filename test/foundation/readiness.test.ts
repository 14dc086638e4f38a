import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../../infra/config.ts';
import { FULL_CHECK_SHARED_MS } from '../../infra/health.ts';
import { mainTaskQueue } from '../../core/temporal.ts';
import { createClickHouse } from '../../db/clickhouse/client.ts';
import { ensureClickHouseSchema } from '../../db/clickhouse/schema.ts';
import { ident, sql } from '../../db/clickhouse/sql.ts';
import { startClickHouse, stopClickHouse, type ClickHouseInstance } from '../../stack/clickhouse.ts';
import { parseDatabaseUrl } from '../../stack/postgres.ts';
import { waitUntil } from '../../stack/proc.ts';
import { freePort, isolatedPostgres, uniqueName, type IsolatedPostgres } from '../harness/isolated.ts';
import { readiness, startReady, type RunningService } from '../harness/processes.ts';
import { baseTestEnv, HARNESS_DIR, harnessInfo } from '../harness/shared.ts';
import { TcpProxy } from '../harness/tcp-proxy.ts';

/**
 * The three processes against real dependencies. Postgres and Temporal sit behind TCP forwarders that the
 * test cuts and restores; ClickHouse is a private server that the test really stops and starts again.
 */
const base = loadConfig(baseTestEnv());
const taskQueuePrefix = uniqueName('ready');
let db: IsolatedPostgres;
let pgProxy: TcpProxy;
let temporalProxy: TcpProxy;
let clickhouse: ClickHouseInstance;
let api: RunningService;
let worker: RunningService;
let ingest: RunningService;
let urls: { api: string; worker: string; ingest: string };

beforeAll(async () => {
  db = await isolatedPostgres();
  const pg = parseDatabaseUrl(db.databaseUrl);
  pgProxy = new TcpProxy(pg.host, pg.port);
  const [temporalHost = '127.0.0.1', temporalPort = '7233'] = base.temporal.address.split(':');
  temporalProxy = new TcpProxy(temporalHost, Number(temporalPort));
  await pgProxy.start();
  await temporalProxy.start();

  clickhouse = {
    dir: resolve(HARNESS_DIR, uniqueName('clickhouse')),
    httpPort: await freePort(),
    tcpPort: await freePort(),
  };
  await startClickHouse(clickhouse, () => undefined);
  const clickhouseUrl = `http://127.0.0.1:${clickhouse.httpPort}`;
  const admin = createClickHouse({ clickhouse: { ...base.clickhouse, url: clickhouseUrl } }, 'default');
  await ensureClickHouseSchema(admin, 'webperf');
  await admin.close();

  const [apiPort, workerPort, ingestPort] = [await freePort(), await freePort(), await freePort()];
  const env = {
    ...baseTestEnv(),
    DATABASE_URL: `postgres://${pg.user}@127.0.0.1:${pgProxy.port}/${pg.database}`,
    TEMPORAL_ADDRESS: `127.0.0.1:${temporalProxy.port}`,
    TEMPORAL_TASK_QUEUE_PREFIX: taskQueuePrefix,
    CLICKHOUSE_URL: clickhouseUrl,
    CLICKHOUSE_DATABASE: 'webperf',
    API_PORT: String(apiPort),
    WORKER_HEALTH_PORT: String(workerPort),
    INGEST_PORT: String(ingestPort),
    WORKFLOW_BUNDLE_PATH: harnessInfo().workflowBundlePath,
    LOG_LEVEL: 'info', // the reasons of failing checks, and their recovery, are asserted in the logs
  };
  [api, worker, ingest] = await Promise.all([
    startReady('api', env),
    startReady('worker', env),
    startReady('ingest', env),
  ]);
  urls = { api: api.readyUrl, worker: worker.readyUrl, ingest: ingest.readyUrl };
}, 180_000);

afterAll(async () => {
  await Promise.all([api, worker, ingest].filter(Boolean).map((s) => s.stop()));
  await stopClickHouse(clickhouse);
  rmSync(clickhouse.dir, { recursive: true, force: true });
  await pgProxy.cut();
  await temporalProxy.cut();
  await db.drop();
});

const eventually = (what: string, check: () => Promise<boolean>) => waitUntil(what, check, 30_000, 250);

describe('readiness', () => {
  it('is green for all three processes when every dependency answers', async () => {
    expect(await readiness(urls.api)).toEqual({
      status: 200,
      body: { ready: true, status: 'ready', checks: { postgres: 'ok', temporal: 'ok' } },
    });
    expect(await readiness(urls.worker)).toEqual({
      status: 200,
      body: { ready: true, status: 'ready', checks: { postgres: 'ok', temporal: 'ok', worker: 'ok' } },
    });
    expect(await readiness(urls.ingest)).toEqual({
      status: 200,
      body: { ready: true, status: 'ready', checks: { clickhouse: 'ok', clickhouse_schema: 'ok', spool: 'ok' } },
    });
  });

  it('runs a workflow through the worker and back when asked for the full check', async () => {
    const full = await readiness(`${urls.api}?full=1`);
    expect(full.status).toBe(200);
    expect(full.body.checks.worker_round_trip).toBe('ok');
  });

  it('goes red while Postgres is gone and green again when it is back', async () => {
    await pgProxy.cut();
    const api503 = await readiness(urls.api);
    expect(api503.status).toBe(503);
    expect(api503.body).toEqual({ ready: false, status: 'not_ready', checks: { postgres: 'failing', temporal: 'ok' } });
    const worker503 = await readiness(urls.worker);
    expect(worker503.status).toBe(503);
    expect(worker503.body).toEqual({
      ready: false,
      status: 'not_ready',
      checks: { postgres: 'failing', temporal: 'ok', worker: 'ok' },
    });

    await pgProxy.restore();
    await eventually('api ready after Postgres returns', async () => (await readiness(urls.api)).status === 200);
    await eventually('worker ready after Postgres returns', async () => (await readiness(urls.worker)).status === 200);
  });

  it("names a failing check's state only, never its error (hosts, ports, users); the reason goes to the log", async () => {
    const pg = parseDatabaseUrl(db.databaseUrl);
    const logged = { api: api.output().length, worker: worker.output().length };
    await pgProxy.cut();
    await temporalProxy.cut();
    try {
      const bodies = await Promise.all(
        [urls.api, `${urls.api}?full=1`, urls.worker].map(async (url) => {
          const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
          expect(response.status).toBe(503);
          return response.text();
        }),
      );
      for (const body of bodies) {
        expect(Object.values((JSON.parse(body) as { checks: Record<string, string> }).checks)).toContain('failing');
        for (const detail of [
          '127.0.0.1',
          String(pgProxy.port),
          String(temporalProxy.port),
          `${pg.user}@`,
          'user "',
          pg.database,
          'ECONNREFUSED',
          'error',
          'connect',
        ]) {
          expect(body).not.toContain(detail);
        }
      }
      // Operators find the reason in the process's log, once per change rather than once per probe.
      await eventually('the api logs why postgres is failing', async () =>
        /"check":"postgres","reason":"[^"]*(ECONNREFUSED|connect|terminated)/i.test(api.output().slice(logged.api)),
      );
      expect(worker.output().slice(logged.worker)).toMatch(/"check":"postgres","reason":"[^"]+"/);
    } finally {
      await pgProxy.restore();
      await temporalProxy.restore();
    }
    await eventually('api ready again', async () => (await readiness(urls.api)).status === 200);
    await eventually('worker ready again', async () => (await readiness(urls.worker)).status === 200);
    await eventually('api logs the recovery', async () =>
      /"check":"postgres","msg":"readiness check ok again"/.test(api.output().slice(logged.api)),
    );
  });

  it('goes red while Temporal is gone and green again, workflows included, when it is back', async () => {
    await temporalProxy.cut();
    await eventually('api notices Temporal is gone', async () => (await readiness(urls.api)).status === 503);
    const api503 = await readiness(urls.api);
    expect(api503.body.checks).toEqual({ postgres: 'ok', temporal: 'failing' });
    expect(api503.body.checks.postgres).toBe('ok');
    await eventually('worker notices Temporal is gone', async () => (await readiness(urls.worker)).status === 503);

    await temporalProxy.restore();
    await eventually('api ready after Temporal returns', async () => (await readiness(urls.api)).status === 200);
    await eventually('worker ready after Temporal returns', async () => (await readiness(urls.worker)).status === 200);
    await eventually(
      'a workflow round trip works again',
      async () => (await readiness(`${urls.api}?full=1`)).status === 200,
    );
  });

  it('stays ready while ClickHouse is stopped (the spool takes the beacons), reports it failing, and has its data after a restart', async () => {
    const url = `http://127.0.0.1:${clickhouse.httpPort}`;
    const client = () => createClickHouse({ clickhouse: { ...base.clickhouse, url } }, 'webperf');
    const before = client();
    await before.command({
      query: sql`INSERT INTO ${ident('webperf')}.rum_metrics (site_id, ts, page_view_id, seq, metric_id, metric, value, device, navigation, path, sample_rate, attr_target, attr_url, attr_type) VALUES (1, now(), 'p', 1, 'm', 'LCP', 1234, 'desktop', 'navigate', '/', 100, '', '', '')`,
    });
    await before.close();

    await stopClickHouse(clickhouse);
    // The ingest stays ready (its spool takes the beacons) and says ClickHouse is failing.
    const ingestWithout = await readiness(urls.ingest);
    expect(ingestWithout.status).toBe(200);
    expect(ingestWithout.body.checks).toEqual({ clickhouse: 'failing', clickhouse_schema: 'failing', spool: 'ok' });

    await startClickHouse(clickhouse, () => undefined);
    await eventually(
      'ingest sees ClickHouse again',
      async () => (await readiness(urls.ingest)).body.checks.clickhouse === 'ok',
    );
    const after = client();
    const [row] = await (
      await after.query({ query: 'SELECT count() AS n FROM rum_metrics', format: 'JSONEachRow' })
    ).json<{ n: string }>();
    await after.close();
    expect(Number(row!.n)).toBe(1);
  });
});

describe('the health-check workflow', () => {
  it('completes on the worker, which reaches Postgres, and its history shows the activity', async () => {
    const connection = await Connection.connect({ address: base.temporal.address });
    const client = new Client({ connection, namespace: base.temporal.namespace });
    try {
      const handle = await client.workflow.start('healthCheckWorkflow', {
        taskQueue: mainTaskQueue(taskQueuePrefix),
        workflowId: uniqueName('health'),
        workflowExecutionTimeout: '30 seconds',
      });
      const result = (await handle.result()) as { worker: string; postgres: string };
      expect(result.postgres).toBe('ok');
      expect(result.worker).toBe(`worker@${(await import('node:os')).hostname()}:${worker.child.pid}`);
      const history = await handle.fetchHistory();
      const scheduled = history.events?.find((e) => e.activityTaskScheduledEventAttributes);
      expect(scheduled?.activityTaskScheduledEventAttributes?.activityType?.name).toBe('workerHealth');
    } finally {
      await connection.close();
    }
  });
});

describe('shutdown', () => {
  it('each process drains and exits 0 on SIGTERM; the API finishes a request already in flight', async () => {
    expect(await worker.stop()).toBe(0);
    // Past the window in which an earlier full check's result is shared, so this one really runs.
    await new Promise((r) => setTimeout(r, FULL_CHECK_SHARED_MS + 100));
    // With no worker left, the full readiness check waits for its workflow until the check times out (3 s):
    // a request still open when SIGTERM arrives.
    const inFlight = fetch(`${urls.api}?full=1`).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { status: string; checks: Record<string, string> },
    }));
    await new Promise((r) => setTimeout(r, 500));
    const apiExit = api.stop();
    const answer = await inFlight;
    expect(answer.status).toBe(503);
    expect(answer.body.status).toBe('draining');
    expect(answer.body.checks.worker_round_trip).toBe('failing');
    expect(await apiExit).toBe(0);
    await expect(fetch(urls.api)).rejects.toThrow();
    expect(await ingest.stop()).toBe(0);
  });
});
