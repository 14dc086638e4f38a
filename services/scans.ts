import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { newPublicId } from '../core/ids.ts';
import type { Plan } from '../core/plans.ts';
import type { FailureCode } from '../core/scan/failures.ts';
import type { ScanResultRecord } from '../core/scan/result.ts';
import type { Keyring } from '../core/keys.ts';
import { encryptScanCredentials, type ScanCredentials } from '../core/scan/credentials.ts';
import { Scan, type AuthType, type ScanStatus } from '../db/models/Scan.ts';

/** A finished result for the same owner, URL and region is reused for this long unless `force` is set. */
export const CACHE_WINDOW_MS = 24 * 3600_000;
const HOUR_MS = 3600_000;
const LOCK_NAMESPACE = 4201;

/** Still exported for api/routes/scans.ts, which predates core/scan/credentials.ts; import it from there. */
export type { ScanCredentials };

export interface ScanRequest {
  userId: number;
  plan: Plan;
  url: string;
  host: string;
  region: string;
  isPublic: boolean;
  force: boolean;
  auth: ScanCredentials | null;
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
  createHash('sha256').update(`${userId}\n${region}\n${isPublic ? 'public' : 'private'}\n${url}`).digest('hex');

/**
 * Decides, under a per-user lock, whether a request reuses a finished scan (< 24 h, no force), joins one
 * already queued or running for the same key, is over the hourly limit, or creates a new scan. The lock
 * makes two identical requests arriving together produce one scan, and keeps the hourly count exact.
 */
export async function createOrReuseScan(knex: Knex, request: ScanRequest, now: Date, keys: Keyring): Promise<CreateOutcome> {
  return knex.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?, ?)', [LOCK_NAMESPACE, request.userId]);
    const key = request.auth ? null : cacheKey(request.userId, request.url, request.region, request.isPublic);
    if (key) {
      if (!request.force) {
        const cached = await Scan.query(trx)
          .where({ cache_key: key, status: 'finished' })
          .where('finished_at', '>', new Date(now.getTime() - CACHE_WINDOW_MS))
          .orderBy('finished_at', 'desc')
          .first();
        if (cached) return { kind: 'cached', scan: cached };
      }
      const inFlight = await Scan.query(trx).where({ cache_key: key }).whereIn('status', ['queued', 'running']).orderBy('id', 'desc').first();
      if (inFlight) return { kind: 'in_progress', scan: inFlight };
    }

    // Scans we failed to start (`not_started`, our fault) do not count; every other scan used a browser.
    const recent = await trx('scans')
      .where({ user_id: request.userId })
      .where('requested_at', '>', new Date(now.getTime() - HOUR_MS))
      .where((q) => q.whereNull('failure_code').orWhereNot('failure_code', 'not_started'))
      .orderBy('requested_at', 'asc')
      .select<Array<{ requested_at: Date }>>('requested_at');
    if (recent.length >= request.plan.hourlyScanLimit) {
      const oldest = recent[recent.length - request.plan.hourlyScanLimit]!.requested_at;
      return { kind: 'hourly_limit', limit: request.plan.hourlyScanLimit, resetAt: new Date(oldest.getTime() + HOUR_MS) };
    }

    const publicId = newPublicId(now);
    const scan = await Scan.query(trx).insertAndFetch({
      public_id: publicId,
      user_id: request.userId,
      url: request.url,
      host: request.host,
      region: request.region,
      // Authenticated scans are always private.
      is_public: request.auth ? false : request.isPublic,
      status: 'queued',
      auth_type: request.auth?.type ?? null,
      auth_secret: request.auth ? encryptScanCredentials(keys, publicId, request.auth) : null,
      cache_key: key,
      requested_at: now,
    });
    return { kind: 'created', scan };
  });
}

export async function findUserScan(knex: Knex, userId: number, publicId: string): Promise<Scan | undefined> {
  return Scan.query(knex).findOne({ public_id: publicId, user_id: userId });
}

export async function findScan(knex: Knex, publicId: string): Promise<Scan | undefined> {
  return Scan.query(knex).findOne({ public_id: publicId });
}

export function userScansQuery(knex: Knex, userId: number, filters: { domain?: string; status?: ScanStatus }) {
  const query = Scan.query(knex).where({ user_id: userId }).orderBy('id', 'desc');
  if (filters.domain) query.where('url', 'ilike', `%${filters.domain.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (filters.status) query.where({ status: filters.status });
  return query;
}

/** The share token is made on first enable and kept for ever after, so re-enabling gives the same URL. */
export async function setSharing(knex: Knex, scan: Scan, enabled: boolean): Promise<Scan> {
  const patch: Partial<Scan> = { share_enabled: enabled };
  if (enabled && !scan.share_token) patch.share_token = randomBytes(24).toString('base64url');
  const updated = await Scan.query(knex)
    .patchAndFetchById(scan.id, patch)
    // Two enables at once: keep whichever token was written first.
    .modify((q) => (patch.share_token ? q.whereNull('share_token') : q));
  return updated ?? (await Scan.query(knex).patchAndFetchById(scan.id, { share_enabled: enabled }));
}

export async function findSharedScan(knex: Knex, token: string): Promise<Scan | undefined> {
  return Scan.query(knex).findOne({ share_token: token, share_enabled: true });
}

// ---- state transitions, written by the workflow's activities; each is idempotent under retries ----

export async function markRunning(knex: Knex, publicId: string, now: Date): Promise<boolean> {
  const updated = await Scan.query(knex).patch({ status: 'running', started_at: now }).where({ public_id: publicId, status: 'queued' });
  return updated > 0;
}

export async function markFinished(knex: Knex, publicId: string, result: ScanResultRecord, now: Date): Promise<boolean> {
  const updated = await Scan.query(knex)
    .patch({ status: 'finished', finished_at: now, result, auth_secret: null })
    .where({ public_id: publicId })
    .whereIn('status', ['queued', 'running']);
  return updated > 0;
}

/** `detail` is for operators (never shown: users see the code's text); `httpStatus` names the status of an http_error. */
export async function markFailed(knex: Knex, publicId: string, code: FailureCode, detail: string, now: Date, httpStatus: number | null = null): Promise<boolean> {
  const updated = await Scan.query(knex)
    .patch({ status: 'failed', finished_at: now, failure_code: code, failure_message: detail.slice(0, 1000), failure_http_status: httpStatus, auth_secret: null })
    .where({ public_id: publicId })
    .whereIn('status', ['queued', 'running']);
  return updated > 0;
}

export type { AuthType };
