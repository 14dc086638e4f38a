import { resolve } from 'node:path';
import { WEBHOOK_WORKER_SLOTS_DEFAULT } from '../../core/webhooks/limits.ts';
import { RECONCILE_GRACE_DEFAULT_MS, RECONCILE_GRACE_MAX_SECONDS } from '../../core/scan/lifecycle.ts';
import { atLeastOne, ConfigError, oneOf, port, str, type Env } from './parsers.ts';
import { PROJECT_ROOT } from './root.ts';
import { SCAN_RUNNER_KINDS, WORKER_ROLES, type AppEnv, type Config } from './types.ts';

type WorkerPlacement = Pick<Config['worker'], 'scanRegions' | 'role' | 'scanRunner'>;

/** What the worker runs: its role, scan regions and scan runner, checked against each other and the regions. */
export function loadWorkerPlacement(env: Env, appEnv: AppEnv, scanRegions: Config['regions']): WorkerPlacement {
  const workerScanRegions = (env.WORKER_SCAN_REGIONS?.trim() ?? scanRegions.available.join(','))
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r && r !== 'none');
  for (const region of workerScanRegions) {
    if (!scanRegions.available.includes(region))
      throw new ConfigError('WORKER_SCAN_REGIONS', `names "${region}", which is not in SCAN_REGIONS`);
  }
  const workerRole = oneOf(env, 'WORKER_ROLE', WORKER_ROLES, 'all');
  if (workerRole === 'scan' && workerScanRegions.length === 0)
    throw new ConfigError('WORKER_SCAN_REGIONS', 'must name at least one region for WORKER_ROLE=scan');
  const scanRunner = oneOf(env, 'SCAN_RUNNER', SCAN_RUNNER_KINDS, 'lighthouse');
  if (scanRunner === 'replay' && appEnv !== 'test')
    throw new ConfigError(
      'SCAN_RUNNER',
      'replay (recorded runs of the fixture pages and flows) is for APP_ENV=test only',
    );
  return { scanRegions: workerScanRegions, role: workerRole, scanRunner };
}

/** The worker's section, around its placement (loadWorkerPlacement). */
export function loadWorker(env: Env, placement: WorkerPlacement): Config['worker'] {
  const { scanRegions: workerScanRegions, role: workerRole, scanRunner } = placement;
  return {
    healthHost: str(env, 'WORKER_HEALTH_HOST', '127.0.0.1'),
    healthPort: port(env, 'WORKER_HEALTH_PORT', 3200),
    sdkMetricsPort: env.WORKER_SDK_METRICS_PORT?.trim() ? port(env, 'WORKER_SDK_METRICS_PORT', 3201) : null,
    workflowBundlePath: env.WORKFLOW_BUNDLE_PATH?.trim()
      ? resolve(PROJECT_ROOT, env.WORKFLOW_BUNDLE_PATH.trim())
      : null,
    scanRegions: workerScanRegions,
    role: workerRole,
    webhookSlots: atLeastOne(env, 'WEBHOOK_WORKER_SLOTS', WEBHOOK_WORKER_SLOTS_DEFAULT, 1000),
    reconcileGraceMs:
      atLeastOne(env, 'RECONCILE_GRACE_SECONDS', RECONCILE_GRACE_DEFAULT_MS / 1000, RECONCILE_GRACE_MAX_SECONDS) * 1000,
    scanRunner,
  };
}
