/**
 * Capacity benchmark: the unit costs of the service, measured on the real processes, and what 1,000, 10,000
 * and 100,000 customers of a stated plan mix need (bench/capacity-model.ts). Measures, in one run:
 * - worker CPU (the worker process and everything below it: runners, Chromium) and wall time per scan, split
 *   by form factor (the scan's progress steps), for on-demand scans (1 page load per form factor) and for a
 *   target's scheduled scan (the plan's page loads: Pro, 3);
 * - Temporal Cloud billable actions, counted from the real histories (bench/temporal-actions.ts) of a scan
 *   (with its share of the region dispatcher), a target's scheduled day, a webhook delivery, a live-data alert
 *   check and the reconcilers;
 * - Postgres rows and bytes and image bytes per scan;
 * - ClickHouse bytes per million beacons (generated, inserted by the ingest's own code, merged), and beacons per
 *   second per ingest core (the real ingest process under bench/ingest-load.ts).
 * Prints a Markdown section; `--write-docs` puts it between the markers in docs/capacity.md.
 *
 *   ./svc stack up && npm run bench:capacity -- [--scans 3] [--beacons 1000000] [--write-docs]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { msToNumber } from '@temporalio/common';
import { RECONCILE_EVERY } from '../core/scan/lifecycle.ts';
import { TARGET_RECONCILE_EVERY } from '../core/monitoring/schedule.ts';
import { newRumSitePublicId } from '../core/rum/site.ts';
import {
  mainTaskQueue,
  rumAlertCheckScheduleId,
  scanDispatcherWorkflowId,
  scanReconcilerScheduleId,
  scanWorkflowId,
  targetReconcilerScheduleId,
  targetScheduleId,
  webhookDeliveryWorkflowId,
} from '../core/temporal.ts';
import { createClickHouse } from '../db/clickhouse/client.ts';
import { dropClickHouseDatabase, ensureClickHouseSchema } from '../db/clickhouse/schema.ts';
import { ident, sql, str } from '../db/clickhouse/sql.ts';
import { createStorage } from '../db/store/index.ts';
import { startFixtureSites } from '../fixtures/sites.ts';
import { loadConfig, PROJECT_ROOT } from '../infra/config.ts';
import { saveWebhookSettings } from '../services/webhook-settings.ts';
import { freePort } from '../stack/ports.ts';
import { spawnService, stopService, waitReady } from '../stack/services.ts';
import { insertGeneratedBeacons } from './capacity-beacons.ts';
import { ASSUMPTIONS, needsFor, type UnitCosts } from './capacity-model.ts';
import { renderCapacity, type Measured } from './capacity-report.ts';
import {
  benchDatabase,
  benchIngestEnvironment,
  benchUser,
  cpuSeconds,
  ingestLoad,
  processTreeCpu,
  startBenchServices,
} from './support.ts';
import { countAllRuns, countWorkflowTree, printActionLines, type ActionCount } from './temporal-actions.ts';

const { values } = parseArgs({
  options: {
    scans: { type: 'string', default: '3' },
    beacons: { type: 'string', default: '1000000' },
    'ingest-seconds': { type: 'string', default: '10' },
    'write-docs': { type: 'boolean', default: false },
  },
});
const scanCount = Number(values.scans);
const beaconCount = Number(values.beacons);
const benchStarted = performance.now();
const n = (x: number) => Math.round(x).toLocaleString('en-US');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const base = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const sites = await startFixtureSites();
const db = await benchDatabase('capacity');
const assetsDir = mkdtempSync(join(tmpdir(), 'bench-capacity-'));
const services = await startBenchServices(db.databaseUrl, assetsDir);
const prefix = services.config.temporal.taskQueuePrefix;
const connection = await Connection.connect({ address: services.config.temporal.address });
const temporal = new Client({ connection, namespace: services.config.temporal.namespace });
const workerCpu = processTreeCpu(services.pids.worker);
const admin = createClickHouse(base, 'default');
const storageDb = `${base.clickhouse.database}_bench_capacity`;
const ingestDb = `${base.clickhouse.database}_bench_capacity_ingest`;
const spoolDir = mkdtempSync(join(tmpdir(), 'bench-capacity-spool-'));
// The webhook receiver of the target's account.
const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('ok')));
await new Promise<void>((ready) => receiver.listen(0, '127.0.0.1', ready));

async function post(token: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${services.apiUrl}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`POST ${path} answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { data: Record<string, unknown> }).data;
}

interface ScanCost {
  id: string;
  wallSeconds: number;
  cpuSeconds: number;
  /** CPU and wall seconds by the step the scan's row showed: `start` (queue, runner start), desktop, mobile (with storing). */
  steps: Record<string, { cpu: number; wall: number }>;
  /** Page loads the runner made again because the machine was too busy to trust them (SCAN_MIN_BENCHMARK_INDEX). */
  repeats: number;
}

/** Follows a scan (by its row's status and progress, every 50 ms) from now to its end, with the worker tree's CPU. */
async function followScan(
  publicId: string,
  startedAt = performance.now(),
  cpuAtStart = workerCpu.seconds(),
): Promise<ScanCost> {
  const steps: ScanCost['steps'] = {};
  let step = 'start';
  let mark = { at: startedAt, cpu: cpuAtStart };
  const close = (next: string) => {
    const now = { at: performance.now(), cpu: workerCpu.seconds() };
    const kept = (steps[step] ??= { cpu: 0, wall: 0 });
    kept.cpu += now.cpu - mark.cpu;
    kept.wall += (now.at - mark.at) / 1000;
    mark = now;
    step = next;
  };
  for (;;) {
    const row = (await db.knex('scans').where({ public_id: publicId }).first('status', 'progress')) as
      { status: string; progress: string | null } | undefined;
    const factor = row?.progress?.split(' ')[0];
    if (factor && factor !== step && (factor === 'desktop' || factor === 'mobile')) close(factor);
    if (row?.status === 'finished') break;
    if (row?.status === 'failed') throw new Error(`scan ${publicId} failed`);
    await sleep(50);
  }
  close('done');
  const sum = (pick: (s: { cpu: number; wall: number }) => number) =>
    Object.values(steps).reduce((total, s) => total + pick(s), 0);
  const { runs } = (await db
    .knex('scans')
    .where({ public_id: publicId })
    .first(db.knex.raw(`result->'runs' as runs`))) as {
    runs: Record<string, Array<{ repeated?: boolean }>> | null;
  };
  const repeats = ['desktop', 'mobile'].reduce(
    (total, factor) => total + (runs?.[factor] ?? []).filter((run) => run.repeated).length,
    0,
  );
  return { id: publicId, wallSeconds: sum((s) => s.wall), cpuSeconds: sum((s) => s.cpu), steps, repeats };
}

interface TableSize {
  rows: number;
  bytes: number;
  relation: number;
}

/** Per table: rows, bytes of the rows themselves (pg_column_size, compressed/TOASTed as stored), and on disk with indexes. */
async function tableSizes(): Promise<Map<string, TableSize>> {
  const { rows: tables } = (await db.knex.raw(
    `select tablename from pg_tables where schemaname = 'public' order by tablename`,
  )) as { rows: Array<{ tablename: string }> };
  const sizes = new Map<string, TableSize>();
  for (const { tablename } of tables) {
    const { rows } = (await db.knex.raw(
      `select count(*)::bigint as rows, coalesce(sum(pg_column_size(t.*)), 0)::bigint as bytes,
        pg_total_relation_size(?::regclass)::bigint as relation from ?? t`,
      [`public.${tablename}`, tablename],
    )) as { rows: Array<{ rows: string; bytes: string; relation: string }> };
    sizes.set(tablename, {
      rows: Number(rows[0]!.rows),
      bytes: Number(rows[0]!.bytes),
      relation: Number(rows[0]!.relation),
    });
  }
  return sizes;
}

/**
 * On-disk bytes per scan row with all its indexes. A few rows only ever show whole 8 KB pages, so the measured
 * scans' rows are copied `copies` times each in SQL (new ids, the same contents) and the table's growth divided.
 */
async function scanRowBytesOnDisk(publicIds: string[], copies = 1000): Promise<number> {
  const { rows: columns } = (await db.knex.raw(
    `select column_name from information_schema.columns
      where table_schema = 'public' and table_name = 'scans' and column_name <> 'id' order by ordinal_position`,
  )) as { rows: Array<{ column_name: string }> };
  const names = columns.map((c) => c.column_name);
  const size = async () =>
    Number(
      (
        (await db.knex.raw(`select pg_total_relation_size('public.scans')::bigint as n`)) as {
          rows: Array<{ n: string }>;
        }
      ).rows[0]!.n,
    );
  const before = await size();
  await db.knex.raw(
    `insert into scans (${names.map((n) => `"${n}"`).join(', ')})
      select ${names.map((n) => (n === 'public_id' ? `s.public_id || '-' || g` : `s."${n}"`)).join(', ')}
      from scans s cross join generate_series(1, ?) g where s.public_id = any(?)`,
    [copies, publicIds],
  );
  return ((await size()) - before) / (copies * publicIds.length);
}

/** Triggers a schedule now and resolves with the id of the workflow that run started. */
async function triggerSchedule(scheduleId: string): Promise<string> {
  const handle = temporal.schedule.getHandle(scheduleId);
  const idsOf = async () => {
    const { info } = await handle.describe();
    return [
      ...info.recentActions.map((a) => a.action.workflow.workflowId),
      ...info.runningActions.map((w) => w.workflow.workflowId),
    ];
  };
  const before = new Set(await idsOf());
  await handle.trigger();
  for (let i = 0; i < 600; i++) {
    const started = (await idsOf()).find((id) => !before.has(id));
    if (started) return started;
    await sleep(100);
  }
  throw new Error(`schedule ${scheduleId} started nothing`);
}

const shown = new Set<string>();
/** Prints the event-by-event classification of the first history of each kind, so the counts are traceable. */
async function traced<T extends ActionCount>(title: string, counting: Promise<T>): Promise<T> {
  const count = await counting;
  if (!shown.has(title)) printActionLines(title, count);
  shown.add(title);
  return count;
}

try {
  const { token } = await benchUser(db.knex, 'agency');
  const url = `${sites.origin}/fast/`;
  // Warm-up, not measured: the first scan of a fresh worker pays for loading code.
  const warm = await post(token, '/scans', { url: `${url}?warm`, force: true });
  await followScan(warm.id as string);
  let scansServed = 1;

  // On-demand scans (1 page load per form factor), one at a time.
  console.log(`on-demand scans: ${scanCount}, one at a time`);
  const before = await tableSizes();
  const apiCpuBefore = cpuSeconds(services.pids.api);
  const onDemand: ScanCost[] = [];
  for (let i = 0; i < scanCount; i++) {
    const startedAt = performance.now();
    const cpu = workerCpu.seconds();
    const created = await post(token, '/scans', { url: `${url}?run=${i}`, force: true });
    const cost = await followScan(created.id as string, startedAt, cpu);
    scansServed += 1;
    onDemand.push(cost);
    const split = Object.entries(cost.steps)
      .map(([name, s]) => `${name} ${s.cpu.toFixed(1)} s CPU / ${s.wall.toFixed(1)} s`)
      .join(', ');
    console.log(
      `  scan ${cost.id}: ${cost.cpuSeconds.toFixed(1)} s CPU in ${cost.wallSeconds.toFixed(1)} s wall (${split}; ${cost.repeats} loads repeated)`,
    );
  }
  const apiCpuPerScan = (cpuSeconds(services.pids.api) - apiCpuBefore) / scanCount;
  const after = await tableSizes();
  const tableGrowth = [...after].map(([table, size]) => {
    const was = before.get(table) ?? { rows: 0, bytes: 0, relation: 0 };
    return { table, rows: size.rows - was.rows, bytes: size.bytes - was.bytes, relation: size.relation - was.relation };
  });
  const lighthouseTable = 'scan_lighthouse_reports';
  const perScanOf = (pick: (g: (typeof tableGrowth)[number]) => number, lighthouse: boolean) =>
    tableGrowth.filter((g) => (g.table === lighthouseTable) === lighthouse).reduce((sum, g) => sum + pick(g), 0) /
    scanCount;
  for (const g of tableGrowth.filter((x) => x.rows || x.relation))
    console.log(`  postgres ${g.table}: +${g.rows} rows, +${g.bytes} row bytes, +${g.relation} bytes on disk`);
  const scanRowOnDisk = await scanRowBytesOnDisk(onDemand.map((scan) => scan.id));
  console.log(
    `  postgres scans: ${n(scanRowOnDisk)} bytes on disk per row with its indexes (measured over copies of the rows)`,
  );
  const imageBytes = onDemand.map((scan) =>
    readdirSync(join(assetsDir, scan.id)).reduce((sum, name) => sum + statSync(join(assetsDir, scan.id, name)).size, 0),
  );

  const scanActionCounts: ActionCount[] = [];
  for (const scan of onDemand)
    scanActionCounts.push(await traced('a scan (its workflow)', countWorkflowTree(temporal, scanWorkflowId(scan.id))));

  // A target's scheduled day: a Pro account's target (3 page loads per form factor), its schedule triggered
  // now; the account has a webhook endpoint, so the scan's scan.completed is a real delivery.
  const pro = await benchUser(db.knex, 'pro');
  const saved = await saveWebhookSettings(
    {
      webhooks: createStorage(db.knex).webhooks,
      keys: services.config.keys,
      allowLoopback: true,
      clock: () => new Date(),
    },
    { id: pro.userId, plan: 'pro' },
    {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      headerName: '',
      headerValue: '',
      events: ['scan.completed'],
    },
  );
  if (saved.status !== 'saved') throw new Error(`webhook settings not saved: ${JSON.stringify(saved)}`);
  const target = await post(pro.token, '/domains', { url: `${url}?target` });
  const targetStarted = performance.now();
  const targetCpu = workerCpu.seconds();
  const targetWorkflowId = await triggerSchedule(targetScheduleId(prefix, target.id as number));
  let targetScanId: string | undefined;
  while (!targetScanId) {
    const row = (await db
      .knex('scans')
      .where({ target_id: target.id as number })
      .first('public_id')) as { public_id: string } | undefined;
    targetScanId = row?.public_id;
    if (!targetScanId) await sleep(50);
  }
  const targetScan = await followScan(targetScanId, targetStarted, targetCpu);
  scansServed += 1;
  const targetRuns = (await db.knex('scans').where({ public_id: targetScanId }).first('runs')) as { runs: number };
  console.log(
    `  target's scan ${targetScanId} (${targetRuns.runs} page loads per form factor): ${targetScan.cpuSeconds.toFixed(1)} s CPU in ${targetScan.wallSeconds.toFixed(1)} s wall, ${targetScan.repeats} loads repeated`,
  );
  const targetDay = await traced(
    "a target's scheduled day (schedule, its workflow, the scan)",
    countWorkflowTree(temporal, targetWorkflowId, { scheduled: true }),
  );

  // The delivery of that scan's scan.completed (first attempt direct, then its workflow records it).
  let deliveryId: number | undefined;
  for (let i = 0; i < 600 && deliveryId === undefined; i++) {
    const row = (await db
      .knex('webhook_deliveries')
      .where({ user_id: pro.userId })
      .whereNotNull('workflow_started_at')
      .first('id')) as { id: string | number } | undefined;
    if (row) deliveryId = Number(row.id);
    else await sleep(100);
  }
  if (deliveryId === undefined) throw new Error('the webhook delivery never got its workflow');
  const webhook = await traced(
    'a webhook delivery',
    countWorkflowTree(temporal, webhookDeliveryWorkflowId(mainTaskQueue(prefix), deliveryId)),
  );

  // The region's dispatcher, shared by every scan of this run.
  const dispatcher = await traced(
    'the region dispatcher, all its runs',
    countAllRuns(temporal, scanDispatcherWorkflowId(prefix, services.config.regions.default)),
  );
  const dispatcherPerScan = dispatcher.actions / scansServed;

  const alertCheck = await traced(
    'a live-data alert check',
    countWorkflowTree(temporal, await triggerSchedule(rumAlertCheckScheduleId(prefix)), { scheduled: true }),
  );
  const reconcilers = [
    { id: scanReconcilerScheduleId(prefix), every: RECONCILE_EVERY },
    { id: targetReconcilerScheduleId(prefix), every: TARGET_RECONCILE_EVERY },
  ];
  let fixedActionsPerMonth = 0;
  for (const r of reconcilers) {
    const count = await traced(
      `a reconciler run (${r.id})`,
      countWorkflowTree(temporal, await triggerSchedule(r.id), { scheduled: true }),
    );
    fixedActionsPerMonth += count.actions * ((ASSUMPTIONS.daysPerMonth * 86_400_000) / msToNumber(r.every));
  }

  // ClickHouse: generated beacons inserted by the ingest's code into a fresh database, merged, measured.
  await dropClickHouseDatabase(admin, storageDb);
  await ensureClickHouseSchema(admin, storageDb);
  // Uncompressed requests, as the ingest sends them; merging 5 million rows takes longer than the default timeout.
  const chStorage = createClickHouse(base, storageDb, { compressRequests: false, requestTimeoutMs: 600_000 });
  const insertStarted = performance.now();
  const rowsWritten = await insertGeneratedBeacons(chStorage, storageDb, beaconCount, new Date());
  const insertSeconds = (performance.now() - insertStarted) / 1000;
  const partitions = (await (
    await chStorage.query({
      query: sql`SELECT DISTINCT partition FROM system.parts WHERE database = ${str(storageDb)} AND table = 'rum_metrics' AND active`,
      format: 'JSONEachRow',
    })
  ).json()) as Array<{ partition: string }>;
  for (const { partition } of partitions) {
    if (!/^\d{6}$/.test(partition)) throw new Error(`unexpected partition ${partition}`);
    await chStorage.command({
      query: `${sql`OPTIMIZE TABLE ${ident(storageDb)}.rum_metrics`} PARTITION ${partition} FINAL`,
    });
  }
  const [parts] = (await (
    await chStorage.query({
      query: sql`SELECT sum(rows) AS rows, sum(data_compressed_bytes) AS compressed, sum(data_uncompressed_bytes) AS uncompressed
        FROM system.parts WHERE database = ${str(storageDb)} AND active`,
      format: 'JSONEachRow',
    })
  ).json()) as Array<{ rows: string; compressed: string; uncompressed: string }>;
  await chStorage.close();
  console.log(
    `clickhouse: ${beaconCount} beacons (${rowsWritten} rows) inserted in ${insertSeconds.toFixed(1)} s; after merging ${parts!.rows} rows, ${parts!.compressed} bytes compressed (${parts!.uncompressed} uncompressed)`,
  );

  // The ingest process under load: beacons per second per core of its own CPU.
  await dropClickHouseDatabase(admin, ingestDb);
  await ensureClickHouseSchema(admin, ingestDb);
  const site = await createStorage(db.knex).rumSites.insert({
    userId: pro.userId,
    publicId: newRumSitePublicId(),
    domain: 'example.com',
    sampleRate: 100,
    createdAt: new Date(),
  });
  const [port, metricsPort] = [await freePort(), await freePort()];
  const ingest = spawnService(
    'ingest',
    'ingest/main.ts',
    `http://127.0.0.1:${port}/readyz`,
    benchIngestEnvironment({
      databaseUrl: db.databaseUrl,
      clickhouseDatabase: ingestDb,
      port,
      metricsPort,
      spoolDir,
      fsync: true,
    }),
  );
  let ingestResult: { perSecond: number; perCoreSecond: number; cpu: number };
  try {
    await waitReady(ingest);
    const beaconUrl = `http://127.0.0.1:${port}/b`;
    await ingestLoad(beaconUrl, site.publicId, 32, 2);
    const cpuBefore = cpuSeconds(ingest.child.pid!);
    const load = await ingestLoad(beaconUrl, site.publicId, 32, Number(values['ingest-seconds']));
    const cpu = cpuSeconds(ingest.child.pid!) - cpuBefore;
    ingestResult = { perSecond: load.perSecond, perCoreSecond: load.acknowledged / cpu, cpu };
    console.log(
      `ingest: ${load.acknowledged} beacons acknowledged, ${Math.round(load.perSecond)}/s, ${cpu.toFixed(1)} s of its CPU: ${Math.round(ingestResult.perCoreSecond)} beacons per core-second`,
    );
  } finally {
    await stopService(ingest);
  }

  const onDemandCpu = median(onDemand.map((s) => s.cpuSeconds));
  const onDemandWall = median(onDemand.map((s) => s.wallSeconds));
  const costs: UnitCosts = {
    scans: [
      { runs: 1, cpuSeconds: onDemandCpu, wallSeconds: onDemandWall },
      { runs: targetRuns.runs, cpuSeconds: targetScan.cpuSeconds, wallSeconds: targetScan.wallSeconds },
    ],
    actionsPerOnDemandScan: median(scanActionCounts.map((c) => c.actions)) + dispatcherPerScan,
    actionsPerTargetDay: targetDay.actions + dispatcherPerScan,
    actionsPerWebhookDelivery: webhook.actions,
    actionsPerAlertCheck: alertCheck.actions,
    fixedActionsPerMonth,
    // The scan's row on disk (measured over copies), and what other tables grew by.
    postgresBytesPerScan: scanRowOnDisk + perScanOf((g) => (g.table === 'scans' ? 0 : g.relation), false),
    postgresRowsPerScan: perScanOf((g) => g.rows, false),
    lighthouseBytesPerScan: perScanOf((g) => g.relation, true),
    imageBytesPerScan: median(imageBytes),
    clickhouseBytesPerBeacon: Number(parts!.compressed) / beaconCount,
    beaconsPerIngestCoreSecond: ingestResult.perCoreSecond,
  };
  const measured: Measured = {
    costs,
    scanCount,
    onDemand,
    target: { ...targetScan, runs: targetRuns.runs },
    apiCpuPerScan,
    postgresRowBytesPerScan: perScanOf((g) => g.bytes, false),
    lighthouseRowBytesPerScan: perScanOf((g) => g.bytes, true),
    scanActions: scanActionCounts[0]!,
    dispatcher: { ...dispatcher, scansServed },
    targetDay,
    webhook,
    alertCheck,
    beacons: {
      count: beaconCount,
      rows: rowsWritten,
      compressed: Number(parts!.compressed),
      uncompressed: Number(parts!.uncompressed),
    },
    ingest: ingestResult,
    loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    seconds: (performance.now() - benchStarted) / 1000,
  };
  const needs = ASSUMPTIONS.customerCounts.map((n) => needsFor(n, costs, base.ingest.keepMonths));
  const markdown = renderCapacity(measured, needs);
  console.log(`\n${markdown}`);
  if (values['write-docs']) {
    const path = resolve(PROJECT_ROOT, 'docs/capacity.md');
    const doc = readFileSync(path, 'utf8');
    const [begin, end] = ['<!-- capacity:begin -->', '<!-- capacity:end -->'];
    if (!doc.includes(begin) || !doc.includes(end))
      throw new Error(`docs/capacity.md lacks the markers ${begin} ${end}`);
    writeFileSync(
      path,
      `${doc.slice(0, doc.indexOf(begin) + begin.length)}\n${markdown}\n${doc.slice(doc.indexOf(end))}`,
    );
    console.log('docs/capacity.md updated');
  }
  console.log(`bench:capacity took ${((performance.now() - benchStarted) / 1000).toFixed(0)} s`);
} finally {
  workerCpu.stop();
  receiver.close();
  await connection.close();
  await services.close();
  await db.drop();
  await dropClickHouseDatabase(admin, storageDb).catch(() => undefined);
  await dropClickHouseDatabase(admin, ingestDb).catch(() => undefined);
  await admin.close();
  rmSync(assetsDir, { recursive: true, force: true });
  rmSync(spoolDir, { recursive: true, force: true });
  await sites.close();
}
