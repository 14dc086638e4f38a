import { gunzipSync } from 'node:zlib';
import { PLAN_KEYS, PLANS, type Plan } from '../core/plans.ts';
import type { FormFactor } from '../core/scan/observation.ts';
import type { Scan } from '../core/scan/scan.ts';
import type { LighthouseReportStore, StoredLighthouseReport } from '../db/store/lighthouse-reports.ts';

/** How often each worker deletes Lighthouse results past their retention. */
export const LIGHTHOUSE_REPORT_SWEEP_EVERY_MS = 60 * 60_000;
/** Rows per delete statement: a sweep after a long pause deletes in bounded steps. */
const SWEEP_BATCH = 500;
const DAY_MS = 24 * 3600_000;

/** When a result stored at `createdAt` expires under `plan` (the owner's current plan decides, as the sweep does). */
export const lighthouseReportExpiry = (createdAt: Date, plan: Plan): Date =>
  new Date(createdAt.getTime() + plan.lighthouseReportDays * DAY_MS);

/**
 * Deletes every stored Lighthouse result older than its owner's plan's `lighthouseReportDays`, in batches.
 * A downgrade shortens the retention of results already stored; an upgrade lengthens it for those not yet
 * deleted. Returns how many were deleted.
 */
export async function sweepExpiredLighthouseReports(store: LighthouseReportStore, now: Date): Promise<number> {
  const cutoffs = PLAN_KEYS.map((key) => ({
    plan: key,
    before: new Date(now.getTime() - PLANS[key].lighthouseReportDays * DAY_MS),
  }));
  let deleted = 0;
  for (;;) {
    const batch = await store.deleteExpired(cutoffs, SWEEP_BATCH);
    deleted += batch;
    if (batch < SWEEP_BATCH) return deleted;
  }
}

/** The result as a download's file name: `<scan id>-<form factor>.lighthouse.json`. */
export const lighthouseFileName = (scan: Pick<Scan, 'publicId'>, formFactor: FormFactor): string =>
  `${scan.publicId}-${formFactor}.lighthouse.json`;

/** A stored result as JSON text. */
export const lighthouseJson = (report: StoredLighthouseReport): string => gunzipSync(report.gzip).toString('utf8');

/** A stored result parsed (for rendering Lighthouse's HTML report). */
export const lighthouseResult = (report: StoredLighthouseReport): Record<string, unknown> =>
  JSON.parse(lighthouseJson(report)) as Record<string, unknown>;
