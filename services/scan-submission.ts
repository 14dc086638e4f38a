import type { Client } from '@temporalio/client';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../infra/config.ts';
import { cheapestPlanAllowingRuns, type Plan } from '../core/plans.ts';
import { checkScanTarget } from '../infra/scan-target.ts';
import { startScanWorkflow } from '../infra/temporal-client.ts';
import { normaliseScanUrl } from '../core/url.ts';
import type { ScanCredentials } from '../core/scan/credentials.ts';
import type { Scan } from '../core/scan/scan.ts';
import type { ScanStore } from '../db/store/scans.ts';
import { FAILURE_DETAILS } from '../core/scan/failures.ts';
import { createOrReuseScan, markFailed } from './scans.ts';

export interface ScanSubmissionDeps {
  scans: ScanStore;
  temporal: Client;
  config: Pick<Config, 'keys' | 'outboundAllowLoopback' | 'regions' | 'temporal'>;
  clock: Clock;
}

/** A scan as asked for (the API's request body, already checked against its schema). */
export interface ScanSubmission {
  url: string;
  region?: string;
  public?: boolean;
  force?: boolean;
  /** Page loads per form factor, 1-5 (the request schema's range); the plan may allow fewer. */
  runs?: number;
  auth?: {
    type: 'basic' | 'header';
    username?: string;
    password?: string;
    header_name?: string;
    header_value?: string;
  };
}

export type SubmissionOutcome =
  | { kind: 'accepted'; scan: Scan; cached: boolean }
  | { kind: 'invalid'; errors: Record<string, string[]> }
  | { kind: 'hourly_limit'; limit: number; resetAt: Date }
  /** More runs than the plan's maxRunsPerScan; `needed` is the cheapest plan that allows them. */
  | { kind: 'runs_over_plan'; runs: number; allowed: number; needed: Plan }
  /** Temporal did not take the workflow; the scan is stored as failed (`not_started`). */
  | { kind: 'not_started'; cause: unknown };

/**
 * Submitting a scan, top to bottom: normalise the URL, check the address, check the runs against the plan, reuse a recent or running scan or
 * (under the account's lock) count the hourly limit and store a new one, start its workflow, and when that
 * fails, record the scan as `not_started` so it neither hangs nor counts against the limit. `rescanOf`: the
 * owner's scan whose report's "Scan again" submitted it (web only), which a new scan is compared with.
 */
export async function submitScan(
  deps: ScanSubmissionDeps,
  user: { id: number; plan: Plan },
  submission: ScanSubmission,
  { rescanOf }: { rescanOf?: string } = {},
): Promise<SubmissionOutcome> {
  const { config } = deps;
  const normalised = normaliseScanUrl(submission.url);
  if (!normalised.ok) return invalid('url', normalised.error);
  // Names are judged when the scan runs, against the addresses actually used (the runner and its egress proxy).
  const target = await checkScanTarget(normalised.host, {
    allowLoopback: config.outboundAllowLoopback,
    resolveNames: false,
  });
  if (!target.allowed) return invalid('url', 'The url must point to a public address.');
  const { auth } = submission;
  if (auth?.type === 'header' && FORBIDDEN_HEADERS.test(auth.header_name!))
    return invalid('auth.header_name', `The auth.header_name may not be ${auth.header_name}.`);
  const credentials = auth ? scanCredentials(auth) : null;
  const runs = submission.runs ?? 1;
  if (runs > user.plan.maxRunsPerScan) {
    const needed = cheapestPlanAllowingRuns(runs);
    if (!needed) throw new Error(`no plan allows ${runs} runs, yet the request schema let them through`);
    return { kind: 'runs_over_plan', runs, allowed: user.plan.maxRunsPerScan, needed };
  }

  const now = deps.clock();
  const stored = await createOrReuseScan(
    deps.scans,
    {
      userId: user.id,
      plan: user.plan,
      url: normalised.url,
      host: normalised.host,
      region: submission.region ?? config.regions.default,
      isPublic: submission.public ?? false,
      force: submission.force ?? false,
      runs,
      auth: credentials,
      ...(rescanOf ? { rescanOf } : {}),
    },
    now,
    config.keys,
  );
  if (stored.kind === 'hourly_limit') return stored;
  if (stored.kind !== 'created') return { kind: 'accepted', scan: stored.scan, cached: stored.kind === 'cached' };

  const { scan } = stored;
  try {
    await startScanWorkflow(deps.temporal, config.temporal.taskQueuePrefix, {
      publicId: scan.publicId,
      host: scan.host,
      region: scan.region,
    });
  } catch (error) {
    await markFailed(
      deps.scans,
      scan.publicId,
      'not_started',
      FAILURE_DETAILS.workflowNotStarted(describeError(error)),
      deps.clock(),
    );
    return { kind: 'not_started', cause: error };
  }
  return { kind: 'accepted', scan, cached: false };
}

const invalid = (field: string, message: string): SubmissionOutcome => ({
  kind: 'invalid',
  errors: { [field]: [message] },
});

// Headers that would break the request or the browser's connection handling if set by a user.
const FORBIDDEN_HEADERS =
  /^(host|content-length|connection|transfer-encoding|upgrade|te|trailer|keep-alive|expect|proxy-.*)$/i;

/** The stored form of the credentials (the request schema made sure the fields of their type are there). */
function scanCredentials(auth: NonNullable<ScanSubmission['auth']>): ScanCredentials {
  return auth.type === 'basic'
    ? { type: 'basic', username: auth.username!, password: auth.password! }
    : { type: 'header', header_name: auth.header_name!, header_value: auth.header_value! };
}

/** An error and the causes it wraps ("Failed to start Workflow" says little on its own), for operators. */
function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let current = error; current instanceof Error && parts.length < 4; current = current.cause)
    parts.push(current.message);
  return parts.join(': ');
}
