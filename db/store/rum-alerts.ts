import type { Knex } from 'knex';
import { recipientFromRow, wantsEmailSql, type RecipientRow } from './email-preferences.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import { isPlanKey, type PlanKey } from '../../core/plans.ts';
import {
  MIN_CHECK_GAP_MS,
  type RumAlert,
  type RumAlertMode,
  type RumAlertStatus,
  type Transition,
} from '../../core/rum/alert-check.ts';
import type { RumMetric } from '../../core/rum/metrics.ts';
import { createWebhookStore, type WebhookStore } from './webhooks.ts';

interface RumAlertRow {
  id: number | string;
  site_id: number | string;
  title: string;
  mode: RumAlertMode;
  metric: RumMetric | null;
  threshold: number | null;
  window_minutes: number;
  min_samples: number;
  consecutive_threshold: number;
  status: RumAlertStatus;
  streak: number;
  last_metric: RumMetric | null;
  last_p75: number | null;
  last_samples: number | null;
  last_checked_at: Date | null;
  triggered_metric: RumMetric | null;
  triggered_at: Date | null;
  emailed_at: Date | null;
  resolved_at: Date | null;
  resolved_emailed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toAlert = (row: RumAlertRow): RumAlert => ({
  id: Number(row.id),
  siteId: Number(row.site_id),
  title: row.title,
  mode: row.mode,
  metric: row.metric,
  threshold: row.threshold === null ? null : Number(row.threshold),
  windowMinutes: row.window_minutes,
  minSamples: row.min_samples,
  consecutiveThreshold: row.consecutive_threshold,
  status: row.status,
  streak: row.streak,
  lastMetric: row.last_metric,
  lastP75: row.last_p75 === null ? null : Number(row.last_p75),
  lastSamples: row.last_samples,
  lastCheckedAt: row.last_checked_at,
  triggeredMetric: row.triggered_metric,
  triggeredAt: row.triggered_at,
  emailedAt: row.emailed_at,
  resolvedAt: row.resolved_at,
  resolvedEmailedAt: row.resolved_emailed_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const maybeAlert = (row: RumAlertRow | undefined): RumAlert | undefined => (row ? toAlert(row) : undefined);

export interface NewRumAlert {
  siteId: number;
  title: string;
  mode: RumAlertMode;
  metric: RumMetric | null;
  threshold: number | null;
  windowMinutes: number;
  minSamples: number;
  consecutiveThreshold: number;
  createdAt: Date;
}

export type RumAlertChanges = Partial<Omit<NewRumAlert, 'siteId' | 'createdAt'>>;

/** A configuration as the check sees it: with its site and the owner's plan. */
export interface CheckedRumAlert {
  alert: RumAlert;
  site: { id: number; domain: string; userId: number };
  ownerPlan: PlanKey;
}

/** What one check recorded for a configuration. Null readings keep the previous ones (too few samples). */
export interface CheckRecord {
  id: number;
  /** The row's updated_at when the check read it: a configuration changed since is left alone. */
  readUpdatedAt: Date;
  streak: number;
  metric: RumMetric | null;
  p75: number | null;
  samples: number | null;
}

export interface TransitionRecord extends CheckRecord {
  transition: Transition;
  /** The metric it triggers on (kept while triggered). */
  metric: RumMetric;
}

export interface RumAlertRecipient {
  email: string;
  name: string;
  locale: Locale;
  /** Alert e-mails go only to verified addresses (services/account-mail.ts). */
  verified: boolean;
  /** False when the user turned live-data alert e-mails off in the settings. */
  wantsEmail: boolean;
}

export interface RumAlertStore {
  /** A site's configurations, oldest first. */
  listForSite(siteId: number): Promise<RumAlert[]>;
  findForSite(siteId: number, id: number): Promise<RumAlert | undefined>;
  countForSite(siteId: number): Promise<number>;
  insert(alert: NewRumAlert): Promise<RumAlert>;
  /** Changing the rule (anything but the title) starts the streak again: the checks it counted judged another rule. */
  update(siteId: number, id: number, changes: RumAlertChanges, now: Date): Promise<RumAlert | undefined>;
  delete(siteId: number, id: number): Promise<boolean>;
  find(id: number): Promise<RumAlert | undefined>;
  recipient(id: number): Promise<RumAlertRecipient | undefined>;

  // The check (services/rum-alert-check.ts).
  /** Every configuration of an active site, with its site and owner's plan. */
  forCheck(): Promise<CheckedRumAlert[]>;
  /** Runs `work` in one transaction; `outbox` writes webhook deliveries in it. */
  inTransaction<T>(work: (locked: RumAlertStore, outbox: WebhookStore) => Promise<T>): Promise<T>;
  /**
   * Records checks without a transition, all in one statement; only for rows unchanged since they were read
   * and not checked within MIN_CHECK_GAP_MS (core/rum/alert-check.ts). How many were recorded.
   */
  recordChecks(records: readonly CheckRecord[], now: Date): Promise<number>;
  /** Records a trigger or resolution under the same conditions; the alert as it is now, or undefined when skipped. */
  recordTransition(record: TransitionRecord, now: Date): Promise<RumAlert | undefined>;
  /** Records that the e-mail about `change` at `occurrence` was accepted; false when recorded before or out of date. */
  recordEmailed(id: number, change: Transition, occurrence: Date, at: Date): Promise<boolean>;
}

/** Every query on `rum_alerts`. */
export function createRumAlertStore(knex: Knex | Knex.Transaction): RumAlertStore {
  const alerts = () => knex<RumAlertRow>('rum_alerts');
  const checkable = (query: Knex.QueryBuilder, id: number, readUpdatedAt: Date, now: Date) =>
    query
      .where({ id, updated_at: readUpdatedAt })
      .where((q) =>
        q.whereNull('last_checked_at').orWhere('last_checked_at', '<=', new Date(now.getTime() - MIN_CHECK_GAP_MS)),
      );
  return {
    async listForSite(siteId) {
      return ((await alerts().where({ site_id: siteId }).orderBy('id', 'asc')) as RumAlertRow[]).map(toAlert);
    },

    async findForSite(siteId, id) {
      return maybeAlert((await alerts().where({ site_id: siteId, id }).first()) as RumAlertRow | undefined);
    },

    async countForSite(siteId) {
      const [counted] = await alerts().where({ site_id: siteId }).count<Array<{ count: string }>>('* as count');
      return Number(counted?.count ?? 0);
    },

    async insert(alert) {
      const [row] = await alerts()
        .insert({
          site_id: alert.siteId,
          title: alert.title,
          mode: alert.mode,
          metric: alert.metric,
          threshold: alert.threshold,
          window_minutes: alert.windowMinutes,
          min_samples: alert.minSamples,
          consecutive_threshold: alert.consecutiveThreshold,
          status: 'active',
          streak: 0,
          created_at: alert.createdAt,
          updated_at: alert.createdAt,
        })
        .returning('*');
      return toAlert(row as RumAlertRow);
    },

    async update(siteId, id, changes, now) {
      const values: Partial<RumAlertRow> = { updated_at: now };
      if (changes.title !== undefined) values.title = changes.title;
      if (changes.mode !== undefined) values.mode = changes.mode;
      if (changes.metric !== undefined) values.metric = changes.metric;
      if (changes.threshold !== undefined) values.threshold = changes.threshold;
      if (changes.windowMinutes !== undefined) values.window_minutes = changes.windowMinutes;
      if (changes.minSamples !== undefined) values.min_samples = changes.minSamples;
      if (changes.consecutiveThreshold !== undefined) values.consecutive_threshold = changes.consecutiveThreshold;
      if (Object.keys(values).some((key) => key !== 'updated_at' && key !== 'title')) values.streak = 0;
      const [row] = await alerts().where({ site_id: siteId, id }).update(values).returning('*');
      return maybeAlert(row as RumAlertRow | undefined);
    },

    async delete(siteId, id) {
      return (await alerts().where({ site_id: siteId, id }).delete()) > 0;
    },

    async find(id) {
      return maybeAlert((await alerts().where({ id }).first()) as RumAlertRow | undefined);
    },

    async recipient(id) {
      const row = (await knex('rum_alerts as a')
        .join('rum_sites as s', 's.id', 'a.site_id')
        .join('users as u', 'u.id', 's.user_id')
        .where('a.id', id)
        .first('u.email', 'u.name', 'u.locale', 'u.email_verified_at', wantsEmailSql(knex, 'u.id', 'live_alerts'))) as
        RecipientRow | undefined;
      return row && recipientFromRow(row);
    },

    async forCheck() {
      const rows = (await knex('rum_alerts as a')
        .join('rum_sites as s', 's.id', 'a.site_id')
        .join('users as u', 'u.id', 's.user_id')
        .where('s.active', true)
        .orderBy('a.id', 'asc')
        .select('a.*', 's.domain as site_domain', 's.user_id as site_user_id', 'u.plan as owner_plan')) as Array<
        RumAlertRow & { site_domain: string; site_user_id: string | number; owner_plan: string }
      >;
      return rows.map((row) => {
        if (!isPlanKey(row.owner_plan)) throw new Error(`unknown plan ${row.owner_plan}`);
        return {
          alert: toAlert(row),
          site: { id: Number(row.site_id), domain: row.site_domain, userId: Number(row.site_user_id) },
          ownerPlan: row.owner_plan,
        };
      });
    },

    async inTransaction(work) {
      return knex.transaction(async (trx) => work(createRumAlertStore(trx), createWebhookStore(trx)));
    },

    async recordChecks(records, now) {
      if (records.length === 0) return 0;
      const column = <K extends keyof CheckRecord>(key: K) => records.map((r) => r[key]);
      const result = await knex.raw(
        `update rum_alerts a
            set streak = v.streak,
                last_metric = coalesce(v.metric, a.last_metric),
                last_p75 = coalesce(v.p75, a.last_p75),
                last_samples = coalesce(v.samples, a.last_samples),
                last_checked_at = ?
           from unnest(?::bigint[], ?::timestamptz[], ?::int[], ?::text[], ?::float8[], ?::int[]) as v(id, read_updated_at, streak, metric, p75, samples)
          where a.id = v.id and a.updated_at = v.read_updated_at
            and (a.last_checked_at is null or a.last_checked_at <= ?)`,
        // Arrays with nulls are fine for pg (Postgres arrays); knex's binding type does not list them.
        [
          now,
          column('id'),
          column('readUpdatedAt'),
          column('streak'),
          column('metric'),
          column('p75'),
          column('samples'),
          new Date(now.getTime() - MIN_CHECK_GAP_MS),
        ] as unknown as Knex.RawBinding[],
      );
      return (result as { rowCount: number }).rowCount;
    },

    async recordTransition(record, now) {
      const reading = {
        streak: 0,
        last_metric: record.metric,
        last_p75: record.p75,
        last_samples: record.samples,
        last_checked_at: now,
      };
      const values: Partial<RumAlertRow> =
        record.transition === 'triggered'
          ? {
              ...reading,
              status: 'triggered',
              triggered_metric: record.metric,
              triggered_at: now,
              emailed_at: null,
              resolved_at: null,
              resolved_emailed_at: null,
            }
          : { ...reading, status: 'resolved', resolved_at: now, resolved_emailed_at: null };
      const [row] = await checkable(alerts(), record.id, record.readUpdatedAt, now).update(values).returning('*');
      return maybeAlert(row as RumAlertRow | undefined);
    },

    async recordEmailed(id, change, occurrence, at) {
      const query = alerts().where({ id });
      if (change === 'triggered') query.where({ triggered_at: occurrence }).whereNull('emailed_at');
      else query.where({ resolved_at: occurrence }).whereNull('resolved_emailed_at');
      return (await query.update(change === 'triggered' ? { emailed_at: at } : { resolved_emailed_at: at })) > 0;
    },
  };
}
