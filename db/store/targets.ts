import type { Knex } from 'knex';
import { pageMeta, pageOffset, type Page, type PageQuery } from '../../core/pagination.ts';
import type { Scan, ScanFailure, ScanTrigger } from '../../core/scan/scan.ts';
import type {
  NewScanTarget,
  ScanTarget,
  ScanTargetChanges,
  TargetHistoryItem,
  TargetSchedule,
} from '../../core/monitoring/target.ts';
import type { Budgets } from '../../core/monitoring/budgets.ts';
import type { Thresholds } from '../../core/monitoring/thresholds.ts';
import type { LabHistoryItem, LabValues } from '../../core/monitoring/lab-history.ts';
import type { FormFactor } from '../../core/scan/observation.ts';
import type { LighthouseCategoryScores } from '../../core/scan/lighthouse-categories.ts';
import { failedColumns, toScan, type ScanRow } from './scans.ts';

// Scans use 4201 for their owner lock; targets have their own, so the two never wait for each other.
const LOCK_NAMESPACE = 4202;
/** Monitored flows count against the plan's target limit, so turning a flow's monitoring on takes this lock too. */
export const TARGET_LOCK_NAMESPACE = LOCK_NAMESPACE;

/** What the plan's `maxTargets` limits: the owner's targets and monitored user flows (docs/flows.md#monitoring). */
export async function countMonitoredTargets(knex: Knex | Knex.Transaction, userId: number): Promise<number> {
  const row = (await knex
    .select(
      knex.raw(
        '(select count(*) from scan_targets where user_id = ?) + (select count(*) from flows where user_id = ? and monitored) as count',
        [userId, userId],
      ),
    )
    .first()) as { count: string | number } | undefined;
  return Number(row?.count ?? 0);
}

interface TargetRow {
  id: number;
  user_id: number;
  url: string;
  host: string;
  region: string;
  schedule: TargetSchedule;
  is_active: boolean;
  thresholds: Thresholds;
  budgets: Budgets;
  last_dispatched_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toTarget = (row: TargetRow): ScanTarget => ({
  id: row.id,
  userId: row.user_id,
  url: row.url,
  host: row.host,
  region: row.region,
  schedule: row.schedule,
  isActive: row.is_active,
  thresholds: row.thresholds,
  budgets: row.budgets ?? {},
  lastDispatchedAt: row.last_dispatched_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const maybeTarget = (row: TargetRow | undefined): ScanTarget | undefined => (row ? toTarget(row) : undefined);

/** A scheduled scan as the dispatch stores it; the rest comes from its target. */
export interface DispatchedScan {
  publicId: string;
  requestedAt: Date;
  runs: number;
  /**
   * `confirmation`: the scan a regression candidate starts at once (core/monitoring/regression-rules.ts); it
   * leaves `last_dispatched_at` alone. Default `schedule`.
   */
  trigger?: 'schedule' | 'confirmation';
}

export interface TargetStore {
  /**
   * Runs `work` in one transaction holding the owner's target lock, so one owner's changes are decided one
   * after the other (the plan's count, duplicates). The transaction commits only when `work` resolves, which
   * is how a target's row and its Temporal schedule change together (services/targets.ts).
   */
  underOwnerLock<T>(userId: number, work: (locked: TargetStore) => Promise<T>): Promise<T>;
  /** Runs `work` in one transaction holding the target's row lock (undefined: no such target). */
  withTargetLocked<T>(
    id: number,
    work: (target: ScanTarget | undefined, locked: TargetStore) => Promise<T>,
  ): Promise<T>;
  find(id: number): Promise<ScanTarget | undefined>;
  /** The owner's target, row-locked until the transaction ends when called under a lock. */
  findOwned(userId: number, id: number): Promise<ScanTarget | undefined>;
  findByUrl(userId: number, url: string, region: string): Promise<ScanTarget | undefined>;
  /** The owner's targets, oldest first (ids are stable in pagination). */
  listOwned(userId: number, page: PageQuery): Promise<Page<ScanTarget>>;
  countOwned(userId: number): Promise<number>;
  /** Targets and monitored flows: what the plan's `maxTargets` limits. */
  countMonitored(userId: number): Promise<number>;
  insert(target: NewScanTarget): Promise<ScanTarget>;
  update(id: number, changes: ScanTargetChanges, now: Date): Promise<ScanTarget | undefined>;
  /** Deletes the target; its unresolved alerts are dismissed first (kept as history, nothing left to resolve them). */
  delete(id: number, now: Date): Promise<boolean>;
  /** Fails the target's scans still `queued` (never started) with `failure`; their public ids. */
  failQueuedScans(id: number, failure: ScanFailure, now: Date): Promise<string[]>;
  /** Every target's id and whether it is active, for the reconciler. */
  scheduleStates(): Promise<Array<{ id: number; isActive: boolean }>>;
  /** The last finished scans of the target with an overall score, newest first. */
  history(targetId: number, limit: number): Promise<TargetHistoryItem[]>;
  /** The last finished scans of the target with their lab metrics and every run's, newest first (the target page's charts). */
  labHistory(targetId: number, limit: number): Promise<LabHistoryItem[]>;
  /**
   * Stores a scheduled scan of an active target (queued, `target_id` set, never reused, so no cache key) and sets
   * the target's `last_dispatched_at`, in one transaction under the target's row lock. Idempotent: a scan with
   * this public id already stored for the target is returned as it is. Null when the target is gone or paused.
   */
  dispatchScan(targetId: number, scan: DispatchedScan): Promise<Scan | null>;
}

/** Every query on `scan_targets` (and the scheduled scan's insert, which must commit with the dispatch). */
export function createTargetStore(knex: Knex | Knex.Transaction): TargetStore {
  const targets = () => knex<TargetRow>('scan_targets');
  const inTransaction = 'isTransaction' in knex && knex.isTransaction === true;
  const owned = (userId: number, id: number) => {
    const query = targets().where({ id, user_id: userId });
    return inTransaction ? query.forUpdate() : query;
  };
  return {
    async underOwnerLock<T>(userId: number, work: (locked: TargetStore) => Promise<T>): Promise<T> {
      return knex.transaction(async (trx) => {
        await trx.raw('select pg_advisory_xact_lock(?, ?)', [LOCK_NAMESPACE, userId]);
        return work(createTargetStore(trx));
      });
    },

    async withTargetLocked<T>(
      id: number,
      work: (target: ScanTarget | undefined, locked: TargetStore) => Promise<T>,
    ): Promise<T> {
      return knex.transaction(async (trx) => {
        const row = (await trx<TargetRow>('scan_targets').where({ id }).forUpdate().first()) as TargetRow | undefined;
        return work(maybeTarget(row), createTargetStore(trx));
      });
    },

    async find(id) {
      return maybeTarget((await targets().where({ id }).first()) as TargetRow | undefined);
    },

    async findOwned(userId, id) {
      return maybeTarget((await owned(userId, id).first()) as TargetRow | undefined);
    },

    async findByUrl(userId, url, region) {
      return maybeTarget((await targets().where({ user_id: userId, url, region }).first()) as TargetRow | undefined);
    },

    async listOwned(userId, page) {
      const query = targets().where({ user_id: userId });
      const [counted, rows] = await Promise.all([
        query.clone().count<Array<{ count: number }>>('* as count'),
        query.clone().orderBy('id', 'asc').limit(page.limit).offset(pageOffset(page)),
      ]);
      return {
        items: rows.map((row) => toTarget(row as TargetRow)),
        meta: pageMeta(page, Number(counted[0]?.count ?? 0)),
      };
    },

    countMonitored: (userId) => countMonitoredTargets(knex, userId),

    async countOwned(userId) {
      const [counted] = await targets().where({ user_id: userId }).count<Array<{ count: number }>>('* as count');
      return Number(counted?.count ?? 0);
    },

    async insert(target) {
      const [row] = await targets()
        .insert({
          user_id: target.userId,
          url: target.url,
          host: target.host,
          region: target.region,
          schedule: 'daily',
          is_active: target.isActive,
          thresholds: JSON.stringify(target.thresholds) as unknown as Thresholds,
          budgets: JSON.stringify(target.budgets ?? {}) as unknown as Budgets,
          created_at: target.createdAt,
          updated_at: target.createdAt,
        })
        .returning('*');
      return toTarget(row as TargetRow);
    },

    async update(id, changes, now) {
      const values: Partial<TargetRow> = { updated_at: now };
      if (changes.isActive !== undefined) values.is_active = changes.isActive;
      if (changes.region !== undefined) values.region = changes.region;
      if (changes.thresholds !== undefined)
        values.thresholds = JSON.stringify(changes.thresholds) as unknown as Thresholds;
      if (changes.budgets !== undefined) values.budgets = JSON.stringify(changes.budgets) as unknown as Budgets;
      const [row] = await targets().where({ id }).update(values).returning('*');
      return maybeTarget(row as TargetRow | undefined);
    },

    async delete(id, now) {
      await knex('alerts')
        .where({ target_id: id, is_dismissed: false })
        .whereNull('resolved_at')
        .update({ is_dismissed: true, dismissed_at: now, updated_at: now });
      return (await targets().where({ id }).delete()) > 0;
    },

    async failQueuedScans(id, failure, now) {
      const rows = await knex<ScanRow>('scans')
        .where({ target_id: id, status: 'queued' })
        .update(failedColumns(failure, now))
        .returning('public_id');
      return rows.map((row) => row.public_id);
    },

    async scheduleStates() {
      const rows = await targets().orderBy('id').select('id', 'is_active');
      return rows.map((row) => ({ id: row.id, isActive: row.is_active }));
    },

    async history(targetId, limit) {
      const rows = await knex<ScanRow>('scans')
        .where({ target_id: targetId, status: 'finished' })
        .whereRaw("result->'scores'->'overall' is not null")
        .orderBy('finished_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .select<
          Array<{
            public_id: string;
            score: number;
            finished_at: Date;
            region: string;
            runs: number[] | null;
            trigger: ScanTrigger;
            scoring_version: number | null;
          }>
        >(
          'public_id',
          knex.raw("(result->'scores'->>'overall')::int as score"),
          'finished_at',
          'region',
          knex.raw("result->'runs'->'overall' as runs"),
          'trigger',
          knex.raw("(result->>'scoringVersion')::int as scoring_version"),
        );
      return rows.map((row) => ({
        scanId: row.public_id,
        score: row.score,
        createdAt: row.finished_at,
        region: row.region,
        runOveralls: Array.isArray(row.runs) ? row.runs : [],
        trigger: row.trigger,
        scoringVersion: row.scoring_version ?? 1,
      }));
    },

    async labHistory(targetId, limit) {
      const rows = await knex<ScanRow>('scans')
        .where({ target_id: targetId, status: 'finished' })
        .whereNotNull('result')
        .orderBy('finished_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .select<
          Array<{
            public_id: string;
            finished_at: Date;
            trigger: ScanTrigger;
            lighthouse_version: string | null;
            ttfb_ms: number | null;
            metrics: Partial<Record<FormFactor, Partial<LabValues>>> | null;
            runs: Partial<Record<FormFactor, Array<Partial<LabValues>>>> | null;
            lighthouse: Partial<Record<FormFactor, LighthouseCategoryScores>> | null;
          }>
        >(
          'public_id',
          'finished_at',
          'trigger',
          knex.raw("result->>'lighthouseVersion' as lighthouse_version"),
          knex.raw("(result->>'ttfbMs')::float8 as ttfb_ms"),
          knex.raw("result->'metrics' as metrics"),
          knex.raw(
            "jsonb_build_object('desktop', result->'runs'->'desktop', 'mobile', result->'runs'->'mobile') as runs",
          ),
          knex.raw("result->'lighthouse'->'categories' as lighthouse"),
        );
      const values = (v: Partial<LabValues> | null | undefined): LabValues | null =>
        v && [v.lcp_ms, v.cls, v.tbt_ms, v.fcp_ms].every((n) => typeof n === 'number')
          ? { lcp_ms: v.lcp_ms!, cls: v.cls!, tbt_ms: v.tbt_ms!, fcp_ms: v.fcp_ms! }
          : null;
      const runs = (list: Array<Partial<LabValues>> | null | undefined): LabValues[] =>
        Array.isArray(list) ? list.map(values).filter((v): v is LabValues => v !== null) : [];
      return rows.map((row) => ({
        scanId: row.public_id,
        finishedAt: row.finished_at,
        trigger: row.trigger,
        lighthouseVersion: row.lighthouse_version,
        ttfbMs: row.ttfb_ms,
        metrics: { desktop: values(row.metrics?.desktop), mobile: values(row.metrics?.mobile) },
        runs: { desktop: runs(row.runs?.desktop), mobile: runs(row.runs?.mobile) },
        lighthouse: { desktop: row.lighthouse?.desktop ?? null, mobile: row.lighthouse?.mobile ?? null },
      }));
    },

    async dispatchScan(targetId, scan) {
      return knex.transaction(async (trx) => {
        const target = (await trx<TargetRow>('scan_targets').where({ id: targetId }).forUpdate().first()) as
          TargetRow | undefined;
        const [existing] = await trx<ScanRow>('scans').where({ public_id: scan.publicId });
        if (existing) return existing.target_id === targetId ? toScan(existing as ScanRow) : null;
        if (!target?.is_active) return null;
        const [row] = await trx<ScanRow>('scans')
          .insert({
            public_id: scan.publicId,
            user_id: target.user_id,
            url: target.url,
            host: target.host,
            region: target.region,
            is_public: false,
            status: 'queued',
            auth_type: null,
            auth_secret: null,
            cache_key: null,
            requested_at: scan.requestedAt,
            target_id: targetId,
            trigger: scan.trigger ?? 'schedule',
            runs: scan.runs,
          } as Partial<ScanRow>)
          .returning('*');
        if (scan.trigger !== 'confirmation')
          await trx<TargetRow>('scan_targets').where({ id: targetId }).update({ last_dispatched_at: scan.requestedAt });
        return toScan(row as ScanRow);
      });
    },
  };
}
