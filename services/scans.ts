import { createHash, randomBytes } from 'node:crypto';
import { newPublicId } from '../core/ids.ts';
import type { Plan } from '../core/plans.ts';
import type { FailureCode } from '../core/scan/failures.ts';
import type { ScanResultRecord } from '../core/scan/result.ts';
import type { Keyring } from '../core/keys.ts';
import { encryptScanCredentials, type ScanCredentials } from '../core/scan/credentials.ts';
import { shareRefusal, type Scan, type SecretCheck, type ShareRefusal } from '../core/scan/scan.ts';
import type { WebhookDelivery } from '../core/webhooks/delivery.ts';
import { scanCompletedPayload } from '../core/webhooks/payloads.ts';
import type { ScanStore } from '../db/store/scans.ts';
import { enqueueWebhook } from './webhook-delivery.ts';

/** A finished result for the same owner, URL and region is reused for this long unless `force` is set. */
export const CACHE_WINDOW_MS = 24 * 3600_000;
export const HOUR_MS = 3600_000;

export interface ScanRequest {
  userId: number;
  plan: Plan;
  url: string;
  host: string;
  region: string;
  isPublic: boolean;
  force: boolean;
  /** Page loads per form factor (median of runs), already checked against the plan. */
  runs: number;
  auth: ScanCredentials | null;
  /** The scan whose report's "Scan again" asked for this one (a new scan is compared with it). */
  rescanOf?: string;
}

export type CreateOutcome =
  | { kind: 'cached'; scan: Scan }
  | { kind: 'in_progress'; scan: Scan }
  | { kind: 'created'; scan: Scan }
  | { kind: 'hourly_limit'; limit: number; resetAt: Date };

/**
 * The cache key: owner, normalised URL, region and visibility. The owner is part of it so no user is ever
 * handed another user's scan, visibility so a request for a private scan never gets a public one (or the
 * reverse); authenticated scans have none and are never reused.
 */
export const cacheKey = (userId: number, url: string, region: string, isPublic: boolean): string =>
  createHash('sha256')
    .update(`${userId}\n${region}\n${isPublic ? 'public' : 'private'}\n${url}`)
    .digest('hex');

/**
 * Decides, under a per-user lock, whether a request reuses a finished scan (< 24 h, no force), joins one
 * already queued or running for the same key, is over the hourly limit, or creates a new scan. The lock
 * makes two identical requests arriving together produce one scan, and keeps the hourly count exact.
 * A scan is reused or joined only when it has at least the runs asked for: a median of 3 answers a request
 * for one run, a single run never answers a request for 3.
 */
export async function createOrReuseScan(
  store: ScanStore,
  request: ScanRequest,
  now: Date,
  keys: Keyring,
): Promise<CreateOutcome> {
  return store.underOwnerLock(request.userId, async (scans) => {
    const key = request.auth ? null : cacheKey(request.userId, request.url, request.region, request.isPublic);
    if (key) {
      if (!request.force) {
        const cached = await scans.latestFinished(key, new Date(now.getTime() - CACHE_WINDOW_MS), request.runs);
        if (cached) return { kind: 'cached', scan: cached };
      }
      const inFlight = await scans.latestInFlight(key, request.runs);
      if (inFlight) return { kind: 'in_progress', scan: inFlight };
    }

    // Scans we failed to start (`not_started`, our fault) do not count; every other scan used a browser.
    const limit = hourlyLimitReached(
      await scans.requestTimesSince(request.userId, new Date(now.getTime() - HOUR_MS)),
      request.plan,
    );
    if (limit) return limit;

    const publicId = newPublicId(now);
    const scan = await scans.insert({
      publicId,
      userId: request.userId,
      url: request.url,
      host: request.host,
      region: request.region,
      // Authenticated scans are always private.
      isPublic: request.auth ? false : request.isPublic,
      runs: request.runs,
      authType: request.auth?.type ?? null,
      authSecret: request.auth ? encryptScanCredentials(keys, publicId, request.auth) : null,
      cacheKey: key,
      requestedAt: now,
      ...(request.rescanOf ? { rescanOf: request.rescanOf } : {}),
    });
    return { kind: 'created', scan };
  });
}

/**
 * The hourly scan limit, given when the account's counted scans of the last hour were requested (oldest
 * first; ScanStore.requestTimesSince): the limit's answer with the moment a slot frees up, or null when one
 * more scan may start. POST /scans and a target's "Run now" both ask it, under the account's scan lock.
 */
export function hourlyLimitReached(
  recent: readonly Date[],
  plan: Plan,
): { kind: 'hourly_limit'; limit: number; resetAt: Date } | null {
  if (recent.length < plan.hourlyScanLimit) return null;
  const oldest = recent[recent.length - plan.hourlyScanLimit]!;
  return { kind: 'hourly_limit', limit: plan.hourlyScanLimit, resetAt: new Date(oldest.getTime() + HOUR_MS) };
}

export class ShareRefusedError extends Error {
  readonly reason: ShareRefusal;
  constructor(reason: ShareRefusal) {
    super(`sharing refused: ${reason}`);
    this.reason = reason;
  }
}

/**
 * The share token is made on first enable and kept for ever after, so re-enabling gives the same URL. Enabling
 * throws ShareRefusedError for a scan that shareRefusal refuses.
 */
export async function setSharing(store: ScanStore, scan: Scan, enabled: boolean): Promise<Scan> {
  const refusal = enabled ? shareRefusal(scan) : null;
  if (refusal) throw new ShareRefusedError(refusal);
  const updated = enabled
    ? await store.enableSharing(scan.publicId, randomBytes(24).toString('base64url'))
    : await store.disableSharing(scan.publicId);
  if (!updated) throw new Error(`scan ${scan.publicId} disappeared`);
  return updated;
}

// ---- state transitions, written by the workflow's activities; each is idempotent under retries ----

export const markRunning = (store: ScanStore, publicId: string, now: Date): Promise<boolean> =>
  store.markRunning(publicId, now);

export const markFinished = (
  store: ScanStore,
  publicId: string,
  result: ScanResultRecord,
  now: Date,
  secretCheck: SecretCheck | null = null,
): Promise<boolean> => store.markFinished(publicId, result, now, secretCheck);

/**
 * The scan's end with its scan.completed webhook (when the owner gets one) in one transaction. Returns
 * whether it finished now (false: it had ended before) and the delivery whose workflow the caller starts.
 */
export async function finishScan(
  store: ScanStore,
  publicId: string,
  result: ScanResultRecord,
  now: Date,
  baseUrl: string,
  secretCheck: SecretCheck | null = null,
): Promise<{ finished: boolean; webhooks: WebhookDelivery[] }> {
  const webhooks = await store.markFinishedWithOutbox(
    publicId,
    result,
    now,
    async (scan, outbox) => {
      const delivery = await enqueueWebhook(
        outbox,
        scan.userId,
        'scan.completed',
        scanCompletedPayload({ publicId: scan.publicId, url: scan.url, finishedAt: now }, result, baseUrl),
        now,
      );
      return delivery ? [delivery] : [];
    },
    secretCheck,
  );
  return { finished: webhooks !== null, webhooks: webhooks ?? [] };
}

/** `detail` is for operators (never shown: users see the code's text); `httpStatus` names the status of an http_error. */
export async function markFailed(
  store: ScanStore,
  publicId: string,
  code: FailureCode,
  detail: string,
  now: Date,
  httpStatus: number | null = null,
): Promise<boolean> {
  return store.markFailed(publicId, { code, detail: detail.slice(0, 1000), httpStatus }, now);
}
