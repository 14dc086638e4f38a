import type { Knex } from 'knex';
import { pageMeta, pageOffset, type Page, type PageQuery } from '../../core/pagination.ts';
import type { FailureCode } from '../../core/scan/failures.ts';
import type { ScanResultRecord } from '../../core/scan/result.ts';
import type {
  AuthType,
  NewScan,
  Scan,
  ScanFailure,
  ScanStatus,
  ScanTrigger,
  SecretCheck,
} from '../../core/scan/scan.ts';
import { createWebhookStore, type WebhookStore } from './webhooks.ts';

const LOCK_NAMESPACE = 4201;
const IN_FLIGHT: ScanStatus[] = ['queued', 'running'];

export interface ScanRow {
  id: number;
  public_id: string;
  user_id: number;
  url: string;
  host: string;
  region: string;
  is_public: boolean;
  status: ScanStatus;
  runs: number;
  auth_type: AuthType | null;
  auth_secret: string | null;
  secret_check: SecretCheck | null;
  cache_key: string | null;
  share_token: string | null;
  share_enabled: boolean;
  requested_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  failure_code: FailureCode | null;
  failure_message: string | null;
  failure_http_status: number | null;
  result: ScanResultRecord | null;
  target_id: number | null;
  trigger: ScanTrigger;
  progress: string | null;
  /** The scan whose "Scan again" started this one (its row id); read only by previousFinished. */
  rescan_of?: number | null;
}

export const toScan = (row: ScanRow): Scan => ({
  publicId: row.public_id,
  userId: row.user_id,
  url: row.url,
  host: row.host,
  region: row.region,
  isPublic: row.is_public,
  status: row.status,
  runs: row.runs,
  authType: row.auth_type,
  authSecret: row.auth_secret,
  secretCheck: row.secret_check,
  shareToken: row.share_token,
  shareEnabled: row.share_enabled,
  requestedAt: row.requested_at,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
  failureCode: row.failure_code,
  failureHttpStatus: row.failure_http_status,
  result: row.result,
  targetId: row.target_id === null ? null : Number(row.target_id),
  trigger: row.trigger,
  progress: row.progress,
});

const maybeScan = (row: ScanRow | undefined): Scan | undefined => (row ? toScan(row) : undefined);

/** What a scan's row holds once it failed (its credentials, if any, are not kept past its end). */
export const failedColumns = (failure: ScanFailure, now: Date) => ({
  status: 'failed' as const,
  finished_at: now,
  progress: null,
  failure_code: failure.code,
  failure_message: failure.detail,
  failure_http_status: failure.httpStatus,
  auth_secret: null,
});

export interface ScanHistoryEntry {
  publicId: string;
  finishedAt: Date;
  result: Pick<ScanResultRecord, 'scores' | 'metrics' | 'runs' | 'ttfbMs'>;
}

/** An earlier finished scan of a page, with what a comparison and the links to it need. */
export interface PreviousScanEntry {
  publicId: string;
  finishedAt: Date;
  isPublic: boolean;
  /** The share token while sharing is enabled; null otherwise. */
  shareToken: string | null;
  result: Pick<
    ScanResultRecord,
    'scores' | 'metrics' | 'runs' | 'ttfbMs' | 'scoringVersion' | 'notApplicable' | 'isWordPress'
  >;
}

/** A page's latest lab evidence on a host: what the lab-and-field links read (core/rum/lab-field.ts). */
export interface LabEvidenceEntry {
  publicId: string;
  url: string;
  finishedAt: Date;
  result: Pick<ScanResultRecord, 'findings' | 'diagnostics'>;
}

export interface ScanListFilters {
  /** Only scans whose URL contains this text. */
  domain?: string;
  status?: ScanStatus;
}

/** A run-now scan's target was deleted between the caller's lookup and the insert. */
export class TargetGoneError extends Error {
  readonly targetId: number;
  constructor(targetId: number) {
    super(`target ${targetId} no longer exists`);
    this.targetId = targetId;
  }
}

export interface ScanStore {
  /** Runs `work` in one transaction holding the owner's lock, so two requests of one owner are decided one after the other. */
  underOwnerLock<T>(userId: number, work: (locked: ScanStore) => Promise<T>): Promise<T>;
  /** The newest finished scan of the key after `finishedAfter` with at least `minRuns` runs. */
  latestFinished(cacheKey: string, finishedAfter: Date, minRuns: number): Promise<Scan | undefined>;
  /** The newest queued or running scan of the key with at least `minRuns` runs. */
  latestInFlight(cacheKey: string, minRuns: number): Promise<Scan | undefined>;
  /** The newest queued or running scan of the target (scheduled or run now). */
  latestInFlightOfTarget(targetId: number): Promise<Scan | undefined>;
  /**
   * When the owner's scans since `since` were requested, oldest first (the hourly limit), leaving out those that
   * failed as `not_started` and those a target's schedule dispatched (bounded by the plan's target count instead).
   * A target's "Run now" scans count.
   */
  requestTimesSince(userId: number, since: Date): Promise<Date[]>;
  /**
   * Stores a queued scan. With `targetId`, a target's "Run now" scan (`trigger` run_now), and the target's
   * `last_dispatched_at` is set in the same transaction when called under the owner's lock; throws
   * TargetGoneError when the target no longer exists.
   */
  insert(scan: NewScan): Promise<Scan>;
  find(publicId: string): Promise<Scan | undefined>;
  findOwned(userId: number, publicId: string): Promise<Scan | undefined>;
  findShared(shareToken: string): Promise<Scan | undefined>;
  /** The owner's scans, newest first. */
  listOwned(userId: number, filters: ScanListFilters, page: PageQuery): Promise<Page<Scan>>;
  /** The account's latest `limit` finished scans of exactly `url` up to `until`, oldest first: scores, metrics, runs only. */
  urlHistory(userId: number, url: string, until: Date, limit: number): Promise<ScanHistoryEntry[]>;
  /**
   * The finished scan a scan is compared with: the one its "Scan again" was pressed on (`rescan_of`) when that
   * one finished and is of the same owner and `url`; else the owner's latest scan of `url` that finished before it.
   */
  previousFinished(scan: {
    publicId: string;
    userId: number;
    url: string;
    finishedAt: Date;
  }): Promise<PreviousScanEntry | undefined>;
  /** The account's newest finished scan of each URL on `host` finished since `since`, newest first, at most `limit` URLs. */
  latestPerUrlOnHost(userId: number, host: string, since: Date, limit: number): Promise<LabEvidenceEntry[]>;
  /** Scans still queued or running that were requested before `before`, by id after `afterId` (the reconciler's pages). */
  inFlightRequestedBefore(before: Date, afterId: number, limit: number): Promise<InFlightScan[]>;
  /** When the oldest scan still queued in the region was requested; null when none waits (operator metric). */
  oldestQueued(region: string): Promise<Date | null>;
  /** Turns sharing on; a token already there is kept (two enables at once keep whichever was written first). */
  enableSharing(publicId: string, newToken: string): Promise<Scan | undefined>;
  disableSharing(publicId: string): Promise<Scan | undefined>;
  // State transitions: each changes only a scan in the expected state, so retries are harmless.
  markRunning(publicId: string, now: Date): Promise<boolean>;
  /** What a running scan is doing now; ignored once it has ended. */
  recordProgress(publicId: string, step: string): Promise<void>;
  /** `secretCheck`: an authenticated scan's check of what is stored of it (core/scan/scan.ts). */
  markFinished(
    publicId: string,
    result: ScanResultRecord,
    now: Date,
    secretCheck?: SecretCheck | null,
  ): Promise<boolean>;
  /**
   * markFinished, and `outbox` with the finished scan and a webhook store in the same transaction (the outbox
   * rows of scan.completed commit with the scan's end, or not at all). Null when the scan had ended already.
   */
  markFinishedWithOutbox<T>(
    publicId: string,
    result: ScanResultRecord,
    now: Date,
    outbox: (scan: Scan, webhooks: WebhookStore) => Promise<T>,
    secretCheck?: SecretCheck | null,
  ): Promise<T | null>;
  markFailed(publicId: string, failure: ScanFailure, now: Date): Promise<boolean>;
}

type PreviousRow = Pick<ScanRow, 'public_id' | 'finished_at' | 'is_public' | 'share_enabled' | 'share_token'> & {
  scores: ScanResultRecord['scores'] | null;
  metrics: ScanResultRecord['metrics'] | null;
  runs: ScanResultRecord['runs'] | null;
  ttfb_ms: number;
  scoring_version: number;
  not_applicable: ScanResultRecord['notApplicable'] | null;
  is_word_press: boolean;
};

/** A scan the reconciler looks at: enough to name the workflows that may be running it. */
export interface InFlightScan {
  id: number;
  publicId: string;
  status: 'queued' | 'running';
  targetId: number | null;
  trigger: ScanTrigger;
}

/** Every query on `scans`. Scans go in and out as plain objects (core/scan/scan.ts), never as rows. */
export function createScanStore(knex: Knex | Knex.Transaction): ScanStore {
  const scans = () => knex<ScanRow>('scans');
  const inFlight = (publicId: string) => scans().where({ public_id: publicId }).whereIn('status', IN_FLIGHT);
  return {
    async underOwnerLock<T>(userId: number, work: (locked: ScanStore) => Promise<T>): Promise<T> {
      return knex.transaction(async (trx) => {
        await trx.raw('select pg_advisory_xact_lock(?, ?)', [LOCK_NAMESPACE, userId]);
        return work(createScanStore(trx));
      });
    },

    async latestFinished(cacheKey: string, finishedAfter: Date, minRuns: number): Promise<Scan | undefined> {
      return maybeScan(
        await scans()
          .where({ cache_key: cacheKey, status: 'finished' })
          .where('finished_at', '>', finishedAfter)
          .where('runs', '>=', minRuns)
          .orderBy('finished_at', 'desc')
          .first(),
      );
    },

    async latestInFlight(cacheKey: string, minRuns: number): Promise<Scan | undefined> {
      return maybeScan(
        await scans()
          .where({ cache_key: cacheKey })
          .whereIn('status', IN_FLIGHT)
          .where('runs', '>=', minRuns)
          .orderBy('id', 'desc')
          .first(),
      );
    },

    async latestInFlightOfTarget(targetId: number): Promise<Scan | undefined> {
      return maybeScan(
        await scans().where({ target_id: targetId }).whereIn('status', IN_FLIGHT).orderBy('id', 'desc').first(),
      );
    },

    async requestTimesSince(userId: number, since: Date): Promise<Date[]> {
      const rows = await scans()
        .where({ user_id: userId })
        .where('requested_at', '>', since)
        .whereNotIn('trigger', ['schedule', 'confirmation'])
        .where((q) => q.whereNull('failure_code').orWhereNot('failure_code', 'not_started'))
        .orderBy('requested_at', 'asc')
        .select('requested_at');
      return rows.map((row) => row.requested_at);
    },

    async insert(scan: NewScan): Promise<Scan> {
      // The target first: its row lock holds off a concurrent delete until this transaction ends, and a target
      // deleted since the caller looked it up is told apart from a broken insert.
      if (scan.targetId !== undefined) {
        const touched = await knex('scan_targets')
          .where({ id: scan.targetId })
          .update({ last_dispatched_at: scan.requestedAt });
        if (touched === 0) throw new TargetGoneError(scan.targetId);
      }
      const [row] = await scans()
        .insert({
          public_id: scan.publicId,
          user_id: scan.userId,
          url: scan.url,
          host: scan.host,
          region: scan.region,
          is_public: scan.isPublic,
          status: 'queued',
          runs: scan.runs ?? 1,
          auth_type: scan.authType,
          auth_secret: scan.authSecret,
          cache_key: scan.cacheKey,
          requested_at: scan.requestedAt,
          ...(scan.targetId === undefined ? {} : { target_id: scan.targetId, trigger: 'run_now' as const }),
          // Only a scan of the same owner: another's id is no reference at all.
          ...(scan.rescanOf === undefined
            ? {}
            : {
                rescan_of: knex.raw('(select id from scans where public_id = ? and user_id = ?)', [
                  scan.rescanOf,
                  scan.userId,
                ]) as unknown as number,
              }),
        })
        .returning('*');
      return toScan(row as ScanRow);
    },

    async find(publicId: string): Promise<Scan | undefined> {
      return maybeScan(await scans().where({ public_id: publicId }).first());
    },

    async findOwned(userId: number, publicId: string): Promise<Scan | undefined> {
      return maybeScan(await scans().where({ public_id: publicId, user_id: userId }).first());
    },

    async findShared(shareToken: string): Promise<Scan | undefined> {
      return maybeScan(await scans().where({ share_token: shareToken, share_enabled: true }).first());
    },

    async listOwned(userId: number, filters: ScanListFilters, page: PageQuery): Promise<Page<Scan>> {
      const query = scans().where({ user_id: userId });
      if (filters.domain) query.where('url', 'ilike', `%${filters.domain.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      if (filters.status) query.where({ status: filters.status });
      const [counted, rows] = await Promise.all([
        query.clone().count<Array<{ count: number }>>('* as count'),
        query.clone().orderBy('id', 'desc').limit(page.limit).offset(pageOffset(page)),
      ]);
      return { items: rows.map((row) => toScan(row as ScanRow)), meta: pageMeta(page, Number(counted[0]?.count ?? 0)) };
    },

    async urlHistory(userId: number, url: string, until: Date, limit: number): Promise<ScanHistoryEntry[]> {
      const rows = (await scans()
        .where({ user_id: userId, url, status: 'finished' })
        .where('finished_at', '<=', until)
        .orderBy('id', 'desc')
        .limit(limit)
        .select(
          'public_id',
          'finished_at',
          knex.raw(`result->'scores' as scores`),
          knex.raw(`result->'metrics' as metrics`),
          knex.raw(`result->'runs' as runs`),
          knex.raw(`result->'ttfbMs' as ttfb_ms`),
        )) as Array<
        Pick<ScanRow, 'public_id' | 'finished_at'> &
          Pick<ScanResultRecord, 'scores' | 'metrics'> & { runs: ScanResultRecord['runs'] | null; ttfb_ms: number }
      >;
      return rows
        .reverse()
        .filter((row) => row.scores && row.metrics)
        .map((row) => ({
          publicId: row.public_id,
          finishedAt: row.finished_at!,
          result: {
            scores: row.scores,
            metrics: row.metrics,
            ttfbMs: row.ttfb_ms,
            ...(row.runs ? { runs: row.runs } : {}),
          },
        }));
    },

    async previousFinished(scan) {
      const columns = [
        'p.public_id',
        'p.finished_at',
        'p.is_public',
        'p.share_enabled',
        'p.share_token',
        knex.raw(`p.result->'scores' as scores`),
        knex.raw(`p.result->'metrics' as metrics`),
        knex.raw(`p.result->'runs' as runs`),
        knex.raw(`p.result->'ttfbMs' as ttfb_ms`),
        knex.raw(`p.result->'scoringVersion' as scoring_version`),
        knex.raw(`p.result->'notApplicable' as not_applicable`),
        knex.raw(`p.result->'isWordPress' as is_word_press`),
      ];
      const origin = knex('scans as s')
        .join('scans as p', 'p.id', 's.rescan_of')
        .where({ 's.public_id': scan.publicId, 'p.user_id': scan.userId, 'p.url': scan.url, 'p.status': 'finished' })
        .first(columns);
      const latest = knex('scans as p')
        .where({ 'p.user_id': scan.userId, 'p.url': scan.url, 'p.status': 'finished' })
        .where('p.finished_at', '<', scan.finishedAt)
        .whereNot('p.public_id', scan.publicId)
        .orderBy([
          { column: 'p.finished_at', order: 'desc' },
          { column: 'p.id', order: 'desc' },
        ])
        .first(columns);
      const row = ((await origin) ?? (await latest)) as PreviousRow | undefined;
      if (!row?.scores || !row.metrics) return undefined;
      return {
        publicId: row.public_id,
        finishedAt: row.finished_at!,
        isPublic: row.is_public,
        shareToken: row.share_enabled ? row.share_token : null,
        result: {
          scores: row.scores,
          metrics: row.metrics,
          ttfbMs: row.ttfb_ms,
          scoringVersion: row.scoring_version,
          isWordPress: row.is_word_press,
          ...(row.runs ? { runs: row.runs } : {}),
          ...(row.not_applicable ? { notApplicable: row.not_applicable } : {}),
        },
      };
    },

    async latestPerUrlOnHost(userId: number, host: string, since: Date, limit: number): Promise<LabEvidenceEntry[]> {
      const newestPerUrl = scans()
        .distinctOn('url')
        .where({ user_id: userId, host, status: 'finished' })
        .where('finished_at', '>=', since)
        .orderBy([{ column: 'url' }, { column: 'finished_at', order: 'desc' }])
        .select(
          'public_id',
          'url',
          'finished_at',
          knex.raw(`result->'findings' as findings`),
          knex.raw(`result->'diagnostics' as diagnostics`),
        );
      const rows = (await knex
        .select('*')
        .from(newestPerUrl.as('newest'))
        .orderBy('finished_at', 'desc')
        .limit(limit)) as Array<
        Pick<ScanRow, 'public_id' | 'url' | 'finished_at'> & {
          findings: ScanResultRecord['findings'] | null;
          diagnostics: ScanResultRecord['diagnostics'] | null;
        }
      >;
      return rows.map((row) => ({
        publicId: row.public_id,
        url: row.url,
        finishedAt: row.finished_at!,
        result: { findings: row.findings ?? [], ...(row.diagnostics ? { diagnostics: row.diagnostics } : {}) },
      }));
    },

    async oldestQueued(region: string): Promise<Date | null> {
      const row = (await scans().where({ status: 'queued', region }).min('requested_at as oldest').first()) as
        { oldest: Date | null } | undefined;
      return row?.oldest ?? null;
    },

    async inFlightRequestedBefore(before: Date, afterId: number, limit: number): Promise<InFlightScan[]> {
      const rows = await scans()
        .whereIn('status', IN_FLIGHT)
        .where('requested_at', '<', before)
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .select('id', 'public_id', 'status', 'target_id', 'trigger');
      return rows.map((row) => ({
        id: Number(row.id),
        publicId: row.public_id,
        status: row.status as InFlightScan['status'],
        targetId: row.target_id === null ? null : Number(row.target_id),
        trigger: row.trigger,
      }));
    },

    async enableSharing(publicId: string, newToken: string): Promise<Scan | undefined> {
      const [row] = await scans()
        .where({ public_id: publicId })
        .update({
          share_enabled: true,
          share_token: knex.raw('coalesce(share_token, ?)', [newToken]) as unknown as string,
        })
        .returning('*');
      return maybeScan(row as ScanRow | undefined);
    },

    async disableSharing(publicId: string): Promise<Scan | undefined> {
      const [row] = await scans().where({ public_id: publicId }).update({ share_enabled: false }).returning('*');
      return maybeScan(row as ScanRow | undefined);
    },

    async markRunning(publicId: string, now: Date): Promise<boolean> {
      return (
        (await scans()
          .where({ public_id: publicId, status: 'queued' })
          .update({ status: 'running', started_at: now })) > 0
      );
    },

    async recordProgress(publicId: string, step: string): Promise<void> {
      await scans()
        .where({ public_id: publicId, status: 'running' })
        .update({ progress: step.slice(0, 100) });
    },

    async markFinished(publicId, result, now, secretCheck = null) {
      const updated = await inFlight(publicId).update({
        status: 'finished',
        finished_at: now,
        progress: null,
        result: JSON.stringify(result) as unknown as ScanResultRecord,
        auth_secret: null,
        secret_check: secretCheck,
      });
      return updated > 0;
    },

    async markFinishedWithOutbox(publicId, result, now, outbox, secretCheck = null) {
      return knex.transaction(async (trx) => {
        const [row] = (await trx<ScanRow>('scans')
          .where({ public_id: publicId })
          .whereIn('status', IN_FLIGHT)
          .update({
            status: 'finished',
            finished_at: now,
            progress: null,
            result: JSON.stringify(result) as unknown as ScanResultRecord,
            auth_secret: null,
            secret_check: secretCheck,
          })
          .returning('*')) as ScanRow[];
        return row ? outbox(toScan(row), createWebhookStore(trx)) : null;
      });
    },

    async markFailed(publicId: string, failure: ScanFailure, now: Date): Promise<boolean> {
      return (await inFlight(publicId).update(failedColumns(failure, now))) > 0;
    },
  };
}
