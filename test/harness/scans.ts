import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestClock } from './api.ts';
import { call, startTestApi, type TestApi } from './api.ts';
import { scanWorkflowId } from '../../core/temporal.ts';
import { newPublicId } from '../../core/ids.ts';
import type { ScanObservation } from '../../core/scan/observation.ts';
import type { ScanRunnerKind } from '../../infra/config.ts';
import { buildResultRecord } from '../../core/scan/result.ts';
import type { Scan } from '../../core/scan/scan.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { createStorage } from '../../db/store/index.ts';
import { markFinished } from '../../services/scans.ts';
import { cleanObservation, SCANNED_AT } from '../unit/observation-builder.ts';
import { freePort } from './isolated.ts';
import { startReady, type RunningService } from './processes.ts';
import { baseTestEnv, harnessInfo } from './shared.ts';

export interface ScanStack {
  api: TestApi;
  worker: RunningService;
  workerEnv: Record<string, string | undefined>;
  close(): Promise<void>;
}

/**
 * The in-process API and a real worker process, sharing a database and an asset folder. The worker runs
 * Lighthouse in Chromium, or with `runner: 'replay'` (for tests whose subject is not Lighthouse) replays the
 * recorded runs of the fixture pages (fixtures/replay-runner.ts) in the same runner processes.
 */
export async function startScanStack(
  options: { clock?: TestClock; env?: Record<string, string>; runner?: ScanRunnerKind } = {},
): Promise<ScanStack> {
  const assetsDir = mkdtempSync(join(tmpdir(), 'webperf-assets-'));
  const api = await startTestApi({ clock: options.clock, env: { ASSETS_DIR: assetsDir, ...options.env } });
  const workerEnv = {
    ...baseTestEnv(),
    DATABASE_URL: api.db.databaseUrl,
    TEMPORAL_TASK_QUEUE_PREFIX: api.config.temporal.taskQueuePrefix,
    WORKER_HEALTH_PORT: String(await freePort()),
    WORKFLOW_BUNDLE_PATH: harnessInfo().workflowBundlePath,
    ASSETS_DIR: assetsDir,
    LOG_LEVEL: 'info',
    SCAN_RUNNER: options.runner ?? 'lighthouse',
    ...options.env,
  };
  const worker = await startReady('worker', workerEnv);
  return {
    api,
    worker,
    workerEnv,
    close: async () => {
      await worker.stop();
      // The API's close ends what the stack left in Temporal: schedules, dispatchers, queued scans.
      await api.close();
      rmSync(assetsDir, { recursive: true, force: true });
    },
  };
}

export type ScanDetail = Record<string, unknown> & { status: string; public_id: string };

/** Polls GET /scans/{id} until the scan has ended. */
export async function waitForScan(api: TestApi, token: string, id: string, timeoutMs = 240_000): Promise<ScanDetail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(api, `/scans/${id}`, { token });
    const data = res.body.data as ScanDetail;
    if (data.status === 'finished' || data.status === 'failed') return data;
    if (Date.now() > deadline) throw new Error(`scan ${id} still ${data.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Cancels scans a test started only for the API's answer (it never looks at their results), so that the
 * region's slot and the worker's CPU go to the scans that matter, and stopping the worker does not wait for them.
 */
export async function cancelScans(api: TestApi, ids: string[]): Promise<void> {
  for (const id of ids)
    await api.temporal.workflow
      .getHandle(scanWorkflowId(id))
      .cancel()
      .catch(() => undefined);
}

/**
 * A finished scan of `url` owned by `userId`, stored as the worker leaves one: its result scored from
 * `observation` (a clean, fast page unless given), finished at the API's clock.
 */
export async function insertFinishedScan(
  api: TestApi,
  userId: number,
  url: string,
  options: { isPublic?: boolean; observation?: ScanObservation } = {},
): Promise<Scan> {
  const store = createStorage(api.db.knex).scans;
  const at = api.clock.read();
  const scan = await store.insert({
    publicId: newPublicId(at),
    userId,
    url,
    host: new URL(url).hostname,
    region: api.config.regions.default,
    isPublic: options.isPublic ?? false,
    authType: null,
    authSecret: null,
    requestedAt: at,
    cacheKey: null,
  });
  const observation = options.observation ?? cleanObservation();
  await markFinished(store, scan.publicId, buildResultRecord(observation, scoreScan(observation, SCANNED_AT)), at);
  return (await store.find(scan.publicId))!;
}
