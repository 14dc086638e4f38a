import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { createLogger } from '../../infra/logger.ts';
import { QUEUE_PROBE_SHARED_MS } from '../../infra/temporal-queues.ts';
import { waitUntil } from '../../stack/proc.ts';
import { createStorage } from '../../db/store/index.ts';
import { sendTestEvent } from '../../services/webhook-actions.ts';
import { temporalWebhookDispatch } from '../../services/webhook-dispatch.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { call, createTestUser } from '../harness/api.ts';
import { startScanStack, waitForScan, type ScanStack } from '../harness/scans.ts';
import { webhookReceiver } from '../../fixtures/webhook-receiver.ts';

/** The worker's /metrics (on its health port) move with a real scan in Chromium, and describe each region's queue. */
let stack: ScanStack;
let sites: FixtureSites;
beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack({ runner: 'replay' });
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

const scrape = async (): Promise<string[]> =>
  (await (await fetch(`http://127.0.0.1:${stack.workerEnv.WORKER_HEALTH_PORT}/metrics`)).text()).split('\n');
const value = (lines: string[], name: string, labels: Record<string, string> = {}): number | undefined => {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = lines.find(
    (l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && wanted.every((w) => l.includes(w)),
  );
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
};

it('counts a scan started and finished in its region, with its duration and benchmark index', async () => {
  const region = stack.api.config.regions.default;
  const before = await scrape();
  const { token } = await createTestUser(stack.api, 'starter');
  const started = await call(stack.api, '/scans', { token, method: 'POST', body: { url: `${sites.origin}/fast/` } });
  const scan = await waitForScan(stack.api, token, (started.body.data as { id: string }).id);
  expect(scan.status).toBe('finished');
  const after = await scrape();
  const delta = (name: string, labels: Record<string, string>) =>
    (value(after, name, labels) ?? 0) - (value(before, name, labels) ?? 0);
  expect(delta('webperf_scans_started_total', { region })).toBe(1);
  expect(delta('webperf_scans_finished_total', { region, outcome: 'finished', failure_code: 'none' })).toBe(1);
  expect(delta('webperf_scan_duration_seconds_count', { region })).toBe(1);
  expect(value(after, 'webperf_lighthouse_benchmark_index', { region })).toBeGreaterThan(0);
  expect(after.some((l) => l.startsWith('nodejs_heap_size_used_bytes'))).toBe(true);
});

it("describes every configured region's queue: backlog, pollers (this worker), oldest waiting scan", async () => {
  // The queue's description is shared for QUEUE_PROBE_SHARED_MS: the one read before the worker's first poll
  // may still be the one served (a replayed scan ends within it).
  let lines: string[] = [];
  await waitUntil(
    'the queue probe to see this worker poll',
    async () => {
      lines = await scrape();
      return (value(lines, 'webperf_scan_queue_pollers', { region: stack.api.config.regions.default }) ?? 0) >= 1;
    },
    QUEUE_PROBE_SHARED_MS * 4,
    500,
  ).catch(() => undefined);
  for (const region of stack.api.config.regions.available) {
    expect(value(lines, 'webperf_scan_queue_backlog', { region })).toBeGreaterThanOrEqual(0);
    expect(value(lines, 'webperf_scan_oldest_waiting_seconds', { region })).toBeGreaterThanOrEqual(0);
  }
  expect(
    value(lines, 'webperf_scan_queue_pollers', { region: stack.api.config.regions.default }),
  ).toBeGreaterThanOrEqual(1);
  // Ready by the same checks as its /readyz (Postgres, Temporal, its Temporal workers running).
  expect(value(lines, 'webperf_ready', { service: 'worker' })).toBe(1);
  // Labels come from fixed sets: regions from the configuration, nothing else.
  const regions = new Set(
    lines.filter((l) => l.startsWith('webperf_')).flatMap((l) => [...l.matchAll(/region="([^"]*)"/g)].map((m) => m[1])),
  );
  for (const region of regions) expect(stack.api.config.regions.available).toContain(region);
});

it('counts a webhook delivery the worker process sent, and reports the pending backlog', async () => {
  const receiver = await webhookReceiver();
  try {
    const webhooks = createStorage(stack.api.db.knex).webhooks;
    const clock = () => new Date();
    const { user } = await createTestUser(stack.api, 'pro');
    const saved = await saveWebhookSettings(
      { webhooks, keys: stack.api.config.keys, allowLoopback: true, clock },
      user,
      { url: receiver.url, headerName: '', headerValue: '', events: [] },
    );
    expect(saved.status).toBe('saved');
    const before = await scrape();
    const dispatch = temporalWebhookDispatch({
      temporal: () => stack.api.temporal,
      webhooks,
      taskQueuePrefix: stack.api.config.temporal.taskQueuePrefix,
      log: createLogger({ logLevel: 'silent' }, 'api'),
    });
    const outcome = await sendTestEvent({ webhooks, dispatch, clock }, user.id);
    expect(outcome.status).toBe('done');
    expect(receiver.received).toHaveLength(1);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      (value(after, name, labels) ?? 0) - (value(before, name, labels) ?? 0);
    expect(delta('webperf_webhook_attempts_total', { result: 'succeeded' })).toBe(1);
    expect(delta('webperf_webhook_deliveries_total', { outcome: 'succeeded' })).toBe(1);
    expect(value(after, 'webperf_webhook_backlog')).toBeGreaterThanOrEqual(0);
    for (const family of [
      'webperf_target_runs_dispatched_total',
      'webperf_emails_total',
      'webperf_rum_alert_check_duration_seconds_count',
      'webperf_webhook_endpoints_disabled_total',
    ]) {
      expect(after.some((line) => line.startsWith(family))).toBe(true);
    }
  } finally {
    await receiver.close();
  }
});
