/**
 * Targets benchmark. 1,000 monitored targets created through the API (an Agency account), each with its
 * Temporal Schedule, against plain `POST /scans` creations in the same run, interleaved (one scan after every
 * fifth target) so both sides see the same machine. Then every target's schedule is described in Temporal and
 * its start time read back: prints how many start in the busiest minute of the day (target <= 5).
 * Targets and scans go to a region no worker serves, so nothing is scanned while the benchmark runs; every
 * schedule and workflow of the run is removed at the end.
 *
 *   ./svc stack up && npm run bench:targets -- --targets 1000
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { dailyStartTime } from '../core/monitoring/schedule.ts';
import { mainTaskQueue } from '../core/temporal.ts';
import { describeTargetSchedule } from '../infra/temporal-client.ts';
import { benchDatabase, benchUser, startBenchServices } from './support.ts';

const { values } = parseArgs({
  options: { targets: { type: 'string', default: '1000' }, 'scan-every': { type: 'string', default: '5' } },
});
const targetCount = Number(values.targets);
const scanEvery = Number(values['scan-every']);

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { n: times.length, mean, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1)! };
};
const format = (s: ReturnType<typeof summary>) =>
  `n=${s.n} mean ${s.mean.toFixed(1)} ms, p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;

const db = await benchDatabase('targets');
const assetsDir = mkdtempSync(join(tmpdir(), 'bench-targets-'));
// `far` has no worker: scheduled and submitted scans wait there instead of running Lighthouse.
const services = await startBenchServices(db.databaseUrl, assetsDir, {
  SCAN_REGIONS: 'local,far',
  WORKER_SCAN_REGIONS: 'local',
});
const connection = await Connection.connect({ address: services.config.temporal.address });
const temporal = new Client({ connection, namespace: services.config.temporal.namespace });
const prefix = services.config.temporal.taskQueuePrefix;

async function post(
  token: string,
  path: string,
  body: unknown,
  expected: number,
): Promise<{ ms: number; data: { id: number | string } }> {
  const started = performance.now();
  const res = await fetch(`${services.apiUrl}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== expected) throw new Error(`POST ${path} answered ${res.status}: ${text}`);
  return { ms, data: (JSON.parse(text) as { data: { id: number | string } }).data };
}

try {
  const { token } = await benchUser(db.knex, 'agency');
  // Warm-up of both paths (JIT, pools, Temporal connection); not measured, and not among the 1,000.
  const warm = await benchUser(db.knex, 'agency');
  for (let i = 0; i < 5; i++) {
    await post(warm.token, '/domains', { url: `https://warm-${i}.example/`, region: 'far' }, 201);
    await post(warm.token, '/scans', { url: `https://warm-${i}.example/`, region: 'far' }, 202);
  }

  const targetTimes: number[] = [];
  const scanTimes: number[] = [];
  const targetIds: number[] = [];
  const started = performance.now();
  for (let i = 0; i < targetCount; i++) {
    const created = await post(token, '/domains', { url: `https://target-${i}.example/`, region: 'far' }, 201);
    targetTimes.push(created.ms);
    targetIds.push(created.data.id as number);
    if (i % scanEvery === 0)
      scanTimes.push((await post(token, '/scans', { url: `https://scan-${i}.example/`, region: 'far' }, 202)).ms);
  }
  const wall = performance.now() - started;

  // Every target has its schedule, at its own time of day.
  const perMinute = new Map<number, number>();
  let missing = 0;
  let wrongTime = 0;
  for (const id of targetIds) {
    const schedule = await describeTargetSchedule(temporal, prefix, id);
    if (!schedule) {
      missing++;
      continue;
    }
    const calendar = schedule.spec.calendars![0]!;
    const [hour, minute, second] = [calendar.hour![0]!.start, calendar.minute![0]!.start, calendar.second![0]!.start];
    const expected = dailyStartTime(id);
    if (hour !== expected.hour || minute !== expected.minute || second !== expected.second) wrongTime++;
    const key = hour * 60 + minute;
    perMinute.set(key, (perMinute.get(key) ?? 0) + 1);
  }
  const busiest = Math.max(...perMinute.values());

  const t = summary(targetTimes);
  const s = summary(scanTimes);
  console.log(
    `targets created: ${targetIds.length} in ${(wall / 1000).toFixed(1)} s (with ${scanTimes.length} scans interleaved)`,
  );
  console.log(`POST /domains (row + schedule): ${format(t)}`);
  console.log(`POST /scans (row + workflow):   ${format(s)}`);
  console.log(`ratio target / scan creation: p50 ${(t.p50 / s.p50).toFixed(2)}, mean ${(t.mean / s.mean).toFixed(2)}`);
  console.log(
    `schedules in Temporal: ${targetIds.length - missing} of ${targetIds.length}${wrongTime ? `, ${wrongTime} at the wrong time` : ''}`,
  );
  console.log(`start times: ${perMinute.size} distinct minutes of 1440; busiest minute holds ${busiest} (target <= 5)`);
  if (missing || wrongTime || busiest > 5) process.exitCode = 1;
} finally {
  // Whatever this run started on its queues (scans waiting in `far`, dispatchers), then its schedules (services.close()).
  for await (const workflow of temporal.workflow.list({
    query: `TaskQueue = '${mainTaskQueue(prefix)}' AND ExecutionStatus = 'Running'`,
  })) {
    await temporal.workflow
      .getHandle(workflow.workflowId, workflow.runId)
      .terminate('benchmark finished')
      .catch(() => undefined);
  }
  await services.close();
  await connection.close();
  await db.drop();
  rmSync(assetsDir, { recursive: true, force: true });
}
