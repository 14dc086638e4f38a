import type { Knex } from 'knex';
import { recipientFromRow, wantsEmailSql, type RecipientRow } from './email-preferences.ts';
import { createAlertHistoryReads, type AlertHistoryReads } from './alert-history.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type {
  Alert,
  AlertChange,
  AlertDetails,
  AlertSeverity,
  AlertStatusFilter,
  AlertType,
} from '../../core/monitoring/alert.ts';
import type { Budgets } from '../../core/monitoring/budgets.ts';
import type { Thresholds } from '../../core/monitoring/thresholds.ts';
import type { FlowBudgets } from '../../core/flows/flow-budgets.ts';
import { pageMeta, pageOffset, type Page, type PageQuery } from '../../core/pagination.ts';
import { createWebhookStore, type WebhookStore } from './webhooks.ts';

export type { EvaluatedScan } from './alert-history.ts';

interface AlertRow {
  id: string | number;
  user_id: string | number;
  target_id: string | number | null;
  flow_id?: string | number | null;
  type: AlertType;
  severity: AlertSeverity;
  details: AlertDetails;
  url: string;
  host: string;
  region: string;
  scan_public_id: string;
  resolved_scan_public_id: string | null;
  is_read: boolean;
  is_dismissed: boolean;
  created_at: Date;
  updated_at: Date;
  escalated_at: Date | null;
  resolved_at: Date | null;
  dismissed_at: Date | null;
  raised_emailed_at: Date | null;
  escalated_emailed_at: Date | null;
  resolved_emailed_at: Date | null;
}

const toAlert = (row: AlertRow): Alert => ({
  id: Number(row.id),
  userId: Number(row.user_id),
  targetId: row.target_id === null ? null : Number(row.target_id),
  type: row.type,
  severity: row.severity,
  details: row.details,
  url: row.url,
  host: row.host,
  region: row.region,
  scanPublicId: row.scan_public_id,
  resolvedScanPublicId: row.resolved_scan_public_id,
  isRead: row.is_read,
  isDismissed: row.is_dismissed,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  escalatedAt: row.escalated_at,
  resolvedAt: row.resolved_at,
  dismissedAt: row.dismissed_at,
  raisedEmailedAt: row.raised_emailed_at,
  escalatedEmailedAt: row.escalated_emailed_at,
  resolvedEmailedAt: row.resolved_emailed_at,
});

const EMAILED_COLUMN: Record<AlertChange, 'raised_emailed_at' | 'escalated_emailed_at' | 'resolved_emailed_at'> = {
  raised: 'raised_emailed_at',
  escalated: 'escalated_emailed_at',
  resolved: 'resolved_emailed_at',
};

export interface AlertListFilters {
  /** The API's filters, plus `closed`: resolved or dismissed (a target page's recent history), and `dismissed` (the web area's filter). */
  status?: AlertStatusFilter | 'closed' | 'dismissed';
  severity?: AlertSeverity;
  /** Only this target's alerts. */
  targetId?: number;
}

/** What alerts need of a target: whose it is, what it watches and what is copied into its alerts. */
export interface AlertTarget {
  id: number;
  userId: number;
  url: string;
  host: string;
  region: string;
  thresholds: Thresholds;
  budgets: Budgets;
}

/** Whom an alert's e-mail goes to, and in which language. */
export interface AlertRecipient {
  email: string;
  name: string;
  locale: Locale;
  /** Alert e-mails go only to verified addresses (services/account-mail.ts). */
  verified: boolean;
  /** False when the user turned alert e-mails of targets off in the settings. */
  wantsEmail: boolean;
}

export type NewAlert = Pick<
  Alert,
  'userId' | 'targetId' | 'type' | 'severity' | 'details' | 'url' | 'host' | 'region' | 'scanPublicId' | 'createdAt'
> & {
  /** A flow's alert (services/flow-alerts.ts): the flow's row id; `targetId` is then null. */
  flowId?: number;
};

/** What a flow's alerts need of the flow, read under its row lock. */
export interface AlertFlow {
  id: number;
  publicId: string;
  userId: number;
  name: string;
  monitored: boolean;
  budgets: FlowBudgets;
}

export interface AlertStore extends AlertHistoryReads {
  /** The owner's alerts, newest first. */
  listOwned(userId: number, filters: AlertListFilters, page: PageQuery): Promise<Page<Alert>>;
  findOwned(userId: number, id: number): Promise<Alert | undefined>;
  /** How many of the owner's alerts are unread (the navigation's badge). */
  countUnread(userId: number): Promise<number>;
  find(id: number): Promise<Alert | undefined>;
  /** Marks the owner's unread alerts read (only those in `ids` when given; others' and unknown ids are ignored); how many changed. */
  markRead(userId: number, ids: number[] | null, now: Date): Promise<number>;
  /** Dismissed (and read); the alert, or undefined when the owner has no such alert. Dismissing twice keeps the first time. */
  dismiss(userId: number, id: number, now: Date): Promise<Alert | undefined>;
  /**
   * Takes a dismissal back (the alert stays read); undefined when the owner has no such dismissed alert, or when
   * it is unresolved and its target is gone (nothing could ever resolve it again).
   */
  undismiss(userId: number, id: number, now: Date): Promise<Alert | undefined>;
  /** Records that the e-mail about `change` was accepted by the SMTP server; false when it was recorded already. */
  recordEmailed(id: number, change: AlertChange, at: Date): Promise<boolean>;
  recipient(alertId: number): Promise<AlertRecipient | undefined>;

  // Evaluation (services/alert-evaluation.ts); the scan and flow-run history it reads is in alert-history.ts.
  /**
   * Runs `work` in one transaction holding the target's row lock, so evaluations of one target happen one
   * after the other (the unique index on unresolved alerts is the backstop); undefined when the target is gone.
   * `outbox`: the webhook store in the same transaction, so webhook events commit with the alert changes.
   */
  underTargetLock<T>(
    targetId: number,
    work: (locked: AlertStore, target: AlertTarget, outbox: WebhookStore) => Promise<T>,
  ): Promise<T | undefined>;
  unresolvedOfTarget(targetId: number): Promise<Alert[]>;
  insert(alert: NewAlert): Promise<Alert>;
  escalate(
    id: number,
    change: { severity: AlertSeverity; details: AlertDetails; scanPublicId: string },
    now: Date,
  ): Promise<void>;
  resolve(id: number, change: { details: AlertDetails; scanPublicId: string }, now: Date): Promise<void>;
  /** The target's alerts that `scanPublicId` raised, escalated or resolved. */
  changedByScan(targetId: number, scanPublicId: string): Promise<Alert[]>;

  // Flows' alerts (services/flow-alerts.ts): the same table, keyed by `flow_id` instead of `target_id`.
  /** As underTargetLock, holding the flow's row lock; undefined when the flow is gone. */
  underFlowLock<T>(
    flowId: number,
    work: (locked: AlertStore, flow: AlertFlow, outbox: WebhookStore) => Promise<T>,
  ): Promise<T | undefined>;
  unresolvedOfFlow(flowId: number): Promise<Alert[]>;
  /** The flow's alerts that the run `runPublicId` raised, escalated or resolved. */
  changedByFlowRun(flowId: number, runPublicId: string): Promise<Alert[]>;
}

/** Every query on `alerts`, plus the target and flow locks and owners evaluating them reads (history: alert-history.ts). */
export function createAlertStore(knex: Knex | Knex.Transaction): AlertStore {
  const alerts = () => knex<AlertRow>('alerts');
  const one = (row: AlertRow | undefined) => (row ? toAlert(row) : undefined);
  return {
    ...createAlertHistoryReads(knex),
    async listOwned(userId, filters, page) {
      const query = alerts().where({ user_id: userId });
      if (filters.status === 'open') query.whereNull('resolved_at').where({ is_dismissed: false });
      if (filters.status === 'resolved') query.whereNotNull('resolved_at');
      if (filters.status === 'unread') query.where({ is_read: false });
      if (filters.status === 'dismissed') query.where({ is_dismissed: true });
      if (filters.status === 'closed')
        query.where((closed) => closed.whereNotNull('resolved_at').orWhere({ is_dismissed: true }));
      if (filters.severity) query.where({ severity: filters.severity });
      if (filters.targetId !== undefined) query.where({ target_id: filters.targetId });
      const [counted, rows] = await Promise.all([
        query.clone().count<Array<{ count: string }>>('* as count'),
        query.clone().orderBy('id', 'desc').limit(page.limit).offset(pageOffset(page)),
      ]);
      return { items: (rows as AlertRow[]).map(toAlert), meta: pageMeta(page, Number(counted[0]?.count ?? 0)) };
    },

    async countUnread(userId) {
      const [row] = await alerts()
        .where({ user_id: userId, is_read: false })
        .count<Array<{ count: string }>>('* as count');
      return Number(row?.count ?? 0);
    },

    async findOwned(userId, id) {
      return one(await alerts().where({ id, user_id: userId }).first());
    },

    async find(id) {
      return one(await alerts().where({ id }).first());
    },

    async markRead(userId, ids, now) {
      if (ids !== null && ids.length === 0) return 0;
      const query = alerts().where({ user_id: userId, is_read: false });
      if (ids !== null) query.whereIn('id', ids);
      return query.update({ is_read: true, updated_at: now });
    },

    async dismiss(userId, id, now) {
      const [row] = await alerts()
        .where({ id, user_id: userId })
        .update({
          is_dismissed: true,
          is_read: true,
          dismissed_at: knex.raw('coalesce(dismissed_at, ?)', [now]) as unknown as Date,
          updated_at: now,
        })
        .returning('*');
      return one(row as AlertRow | undefined);
    },

    async undismiss(userId, id, now) {
      const [row] = await alerts()
        .where({ id, user_id: userId, is_dismissed: true })
        .where((kept) => kept.whereNotNull('target_id').orWhereNotNull('flow_id').orWhereNotNull('resolved_at'))
        .update({ is_dismissed: false, dismissed_at: null, updated_at: now })
        .returning('*');
      return one(row as AlertRow | undefined);
    },

    async recordEmailed(id, change, at) {
      const column = EMAILED_COLUMN[change];
      return (
        (await alerts()
          .where({ id })
          .whereNull(column)
          .update({ [column]: at })) > 0
      );
    },

    async recipient(alertId) {
      const row = (await knex('alerts')
        .join('users', 'users.id', 'alerts.user_id')
        .where('alerts.id', alertId)
        .first(
          'users.email',
          'users.name',
          'users.locale',
          'users.email_verified_at',
          wantsEmailSql(knex, 'users.id', 'target_alerts'),
        )) as RecipientRow | undefined;
      return row && recipientFromRow(row);
    },

    async underTargetLock(targetId, work) {
      return knex.transaction(async (trx) => {
        const row = (await trx('scan_targets')
          .where({ id: targetId })
          .forUpdate()
          .first('id', 'user_id', 'url', 'host', 'region', 'thresholds', 'budgets')) as
          | {
              id: string;
              user_id: string;
              url: string;
              host: string;
              region: string;
              thresholds: Thresholds;
              budgets: Budgets | null;
            }
          | undefined;
        if (!row) return undefined;
        const target: AlertTarget = {
          id: Number(row.id),
          userId: Number(row.user_id),
          url: row.url,
          host: row.host,
          region: row.region,
          thresholds: row.thresholds,
          budgets: row.budgets ?? {},
        };
        return work(createAlertStore(trx), target, createWebhookStore(trx));
      });
    },

    async unresolvedOfTarget(targetId) {
      return ((await alerts().where({ target_id: targetId }).whereNull('resolved_at').orderBy('id')) as AlertRow[]).map(
        toAlert,
      );
    },

    async insert(alert) {
      const [row] = await alerts()
        .insert({
          user_id: alert.userId,
          target_id: alert.targetId,
          ...(alert.flowId !== undefined ? { flow_id: alert.flowId } : {}),
          type: alert.type,
          severity: alert.severity,
          details: JSON.stringify(alert.details) as unknown as AlertDetails,
          url: alert.url,
          host: alert.host,
          region: alert.region,
          scan_public_id: alert.scanPublicId,
          created_at: alert.createdAt,
          updated_at: alert.createdAt,
        })
        .returning('*');
      return toAlert(row as AlertRow);
    },

    async escalate(id, change, now) {
      await alerts()
        .where({ id })
        .whereNull('resolved_at')
        .update({
          severity: change.severity,
          details: JSON.stringify(change.details) as unknown as AlertDetails,
          scan_public_id: change.scanPublicId,
          escalated_at: now,
          // Worse news than what was read: unread again.
          is_read: false,
          updated_at: now,
        });
    },

    async resolve(id, change, now) {
      await alerts()
        .where({ id })
        .whereNull('resolved_at')
        .update({
          details: JSON.stringify(change.details) as unknown as AlertDetails,
          resolved_scan_public_id: change.scanPublicId,
          resolved_at: now,
          updated_at: now,
        });
    },

    async changedByScan(targetId, scanPublicId) {
      const rows = await alerts()
        .where({ target_id: targetId })
        .where((q) => q.where({ scan_public_id: scanPublicId }).orWhere({ resolved_scan_public_id: scanPublicId }))
        .orderBy('id');
      return (rows as AlertRow[]).map(toAlert);
    },

    async underFlowLock(flowId, work) {
      return knex.transaction(async (trx) => {
        const row = (await trx('flows')
          .where({ id: flowId })
          .forUpdate()
          .first('id', 'public_id', 'user_id', 'name', 'monitored', 'budgets')) as
          | {
              id: string;
              public_id: string;
              user_id: string;
              name: string;
              monitored: boolean;
              budgets: FlowBudgets | null;
            }
          | undefined;
        if (!row) return undefined;
        const flow: AlertFlow = {
          id: Number(row.id),
          publicId: row.public_id,
          userId: Number(row.user_id),
          name: row.name,
          monitored: row.monitored,
          budgets: row.budgets ?? {},
        };
        return work(createAlertStore(trx), flow, createWebhookStore(trx));
      });
    },

    async unresolvedOfFlow(flowId) {
      return ((await alerts().where({ flow_id: flowId }).whereNull('resolved_at').orderBy('id')) as AlertRow[]).map(
        toAlert,
      );
    },

    async changedByFlowRun(flowId, runPublicId) {
      const rows = await alerts()
        .where({ flow_id: flowId })
        .where((q) => q.where({ scan_public_id: runPublicId }).orWhere({ resolved_scan_public_id: runPublicId }))
        .orderBy('id');
      return (rows as AlertRow[]).map(toAlert);
    },
  };
}
