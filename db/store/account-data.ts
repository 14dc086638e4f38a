import type { Knex } from 'knex';

/**
 * Everything of one account at once: what the data export reads (named columns only, so a secret column added
 * to a table later is never exported by accident) and what closing and deleting an account writes
 * (services/account-deletion.ts, activities/account-deletion.ts). Rows are returned as stored (snake_case
 * keys, the user id left out): the export's format is the tables' own.
 */

export type ExportRow = Record<string, unknown>;

const SCAN_COLUMNS = [
  'id',
  'public_id',
  'url',
  'host',
  'region',
  'is_public',
  'status',
  'runs',
  'trigger',
  'target_id',
  'share_enabled',
  'requested_at',
  'started_at',
  'finished_at',
  'failure_code',
  'failure_message',
  'failure_http_status',
  'result',
] as const;
const TARGET_COLUMNS = [
  'id',
  'url',
  'host',
  'region',
  'schedule',
  'is_active',
  'thresholds',
  'budgets',
  'last_dispatched_at',
  'created_at',
  'updated_at',
] as const;
const ALERT_COLUMNS = [
  'id',
  'target_id',
  'type',
  'severity',
  'details',
  'url',
  'host',
  'region',
  'scan_public_id',
  'resolved_scan_public_id',
  'is_read',
  'is_dismissed',
  'created_at',
  'updated_at',
  'resolved_at',
  'dismissed_at',
  'escalated_at',
] as const;
const SITE_COLUMNS = ['id', 'public_id', 'domain', 'active', 'sample_rate', 'created_at', 'updated_at'] as const;
const RUM_ALERT_COLUMNS = [
  'id',
  'site_id',
  'title',
  'mode',
  'metric',
  'threshold',
  'window_minutes',
  'min_samples',
  'consecutive_threshold',
  'status',
  'triggered_at',
  'resolved_at',
  'created_at',
  'updated_at',
] as const;
/** The endpoint without its header value and signing secrets (encrypted in the row, left out here). */
const WEBHOOK_COLUMNS = [
  'url',
  'header_name',
  'events',
  'failing_since',
  'disabled_at',
  'disabled_reason',
  'created_at',
  'updated_at',
] as const;
const FLOW_COLUMNS = ['id', 'public_id', 'name', 'form_factor', 'steps', 'created_at', 'updated_at'] as const;
const FLOW_RUN_COLUMNS = [
  'id',
  'public_id',
  'flow_id',
  'region',
  'status',
  'trigger',
  'definition',
  'failure',
  'lighthouse_version',
  'chromium_version',
  'requested_at',
  'started_at',
  'finished_at',
] as const;
/** A token's name, visible prefix and dates; never its hash. */
const TOKEN_COLUMNS = ['id', 'name', 'prefix', 'expires_at', 'last_used_at', 'created_at'] as const;
const OAUTH_APP_COLUMNS = [
  'client_id',
  'name',
  'client_host',
  'verified',
  'scopes',
  'authorised_at',
  'last_used_at',
] as const;

export interface AccountRecord {
  id: number;
  name: string;
  email: string;
  plan: string;
  locale: string | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** What the deletion removed from Postgres, per table. */
export type RemovedRows = Record<string, number>;

export interface AccountDataStore {
  account(userId: number): Promise<AccountRecord | undefined>;
  /** One page of the user's scans by id (keyset: ids above `afterId`), oldest first. */
  scanPage(userId: number, afterId: number, limit: number): Promise<ExportRow[]>;
  targets(userId: number): Promise<ExportRow[]>;
  alerts(userId: number): Promise<ExportRow[]>;
  /** Live-data sites with their alert configurations (`alerts`). */
  rumSites(userId: number): Promise<ExportRow[]>;
  /** User flows with their secrets' names and kinds (never values), runs and measured steps. */
  flows(userId: number): Promise<ExportRow[]>;
  webhookSettings(userId: number): Promise<ExportRow | null>;
  /** Slack and Teams alert destinations: never the URL (a credential), only its hint. */
  alertDestinations(userId: number): Promise<ExportRow[]>;
  tokens(userId: number): Promise<ExportRow[]>;
  oauthApps(userId: number): Promise<ExportRow[]>;

  /**
   * Closes the account in one transaction: marks it deleted, removes its password, signs it out everywhere
   * (sessions), deletes its account-mail links (password reset, verification, e-mail change), revokes its API
   * tokens and OAuth grants with everything they issued, and pauses its live-data sites. False when it was
   * closed already.
   */
  close(userId: number, now: Date): Promise<boolean>;
  /** Accounts closed before `closedBefore` whose user row is still there (their deletion has not finished). */
  closedAccounts(closedBefore: Date, limit: number): Promise<number[]>;

  /** The ids of the user's targets, scans still queued or running, pending webhook deliveries, live-data sites. */
  targetIds(userId: number): Promise<number[]>;
  inFlightScans(userId: number): Promise<string[]>;
  pendingDeliveries(userId: number): Promise<number[]>;
  siteIds(userId: number): Promise<number[]>;
  /** The public ids of the user's flow runs (each an image folder), and of those still queued or running. */
  flowRunIds(userId: number): Promise<string[]>;
  inFlightFlowRuns(userId: number): Promise<string[]>;
  /** A page of the user's scans' public ids (keyset on id) and the last id, for walking all of them. */
  scanIdPage(userId: number, afterId: number, limit: number): Promise<Array<{ id: number; publicId: string }>>;
  /**
   * Every row of the user's but the user row, table by table, the scans in batches of `batch` (their
   * Lighthouse results go with them). Safe to repeat.
   */
  deleteRows(userId: number, batch: number): Promise<RemovedRows>;
  /**
   * The sign-in failures and account-mail requests recorded for this address (by its SHA-256), and the user row
   * itself, which cascades whatever is left.
   */
  deleteUser(userId: number, emailHash: string | null): Promise<boolean>;
}

export function createAccountDataStore(knex: Knex): AccountDataStore {
  return {
    async account(userId) {
      const row = await knex('users')
        .where({ id: userId })
        .first('id', 'name', 'email', 'plan', 'locale', 'created_at', 'updated_at', 'deleted_at');
      return (
        row && {
          id: Number(row.id),
          name: row.name,
          email: row.email,
          plan: row.plan,
          locale: row.locale,
          createdAt: row.created_at,
          updatedAt: row.updated_at,
          deletedAt: row.deleted_at,
        }
      );
    },

    async scanPage(userId, afterId, limit) {
      return knex('scans')
        .where({ user_id: userId })
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .select(...SCAN_COLUMNS);
    },

    async targets(userId) {
      return knex('scan_targets')
        .where({ user_id: userId })
        .orderBy('id')
        .select(...TARGET_COLUMNS);
    },

    async alerts(userId) {
      return knex('alerts')
        .where({ user_id: userId })
        .orderBy('id')
        .select(...ALERT_COLUMNS);
    },

    async rumSites(userId) {
      const sites: ExportRow[] = await knex('rum_sites')
        .where({ user_id: userId })
        .orderBy('id')
        .select(...SITE_COLUMNS);
      const alerts: ExportRow[] = sites.length
        ? await knex('rum_alerts')
            .whereIn(
              'site_id',
              sites.map((site) => site.id as number),
            )
            .orderBy('id')
            .select(...RUM_ALERT_COLUMNS)
        : [];
      return sites.map((site) => ({ ...site, alerts: alerts.filter((alert) => alert.site_id === site.id) }));
    },

    async flows(userId) {
      const flows: ExportRow[] = await knex('flows')
        .where({ user_id: userId })
        .orderBy('id')
        .select(...FLOW_COLUMNS);
      if (flows.length === 0) return [];
      const ids = flows.map((flow) => flow.id as number);
      const [secrets, runs] = await Promise.all([
        knex('flow_secrets').whereIn('flow_id', ids).orderBy('name').select('flow_id', 'name', 'kind', 'updated_at'),
        knex('flow_runs')
          .whereIn('flow_id', ids)
          .orderBy('id')
          .select(...FLOW_RUN_COLUMNS) as Promise<ExportRow[]>,
      ]);
      const steps: ExportRow[] = runs.length
        ? await knex('flow_run_steps')
            .whereIn(
              'run_id',
              runs.map((run) => run.id as number),
            )
            .orderBy(['run_id', 'index'])
            .select('run_id', 'index', 'mode', 'name', 'url', 'scores', 'metrics', 'findings', 'screenshot')
        : [];
      return flows.map((flow) => ({
        ...flow,
        secrets: secrets
          .filter((secret) => secret.flow_id === flow.id)
          .map(({ name, kind, updated_at }) => ({ name, kind, updated_at })),
        runs: runs
          .filter((run) => run.flow_id === flow.id)
          .map((run) => ({ ...run, steps: steps.filter((step) => step.run_id === run.id) })),
      }));
    },

    async webhookSettings(userId) {
      const row = await knex('webhook_endpoints')
        .where({ user_id: userId })
        .first(...WEBHOOK_COLUMNS);
      return row ?? null;
    },

    async alertDestinations(userId) {
      return knex('alert_destinations')
        .where({ user_id: userId })
        .orderBy('id')
        .select('id', 'kind', 'target_id', 'url_hint', 'disabled_at', 'disabled_reason', 'created_at');
    },

    async tokens(userId) {
      return knex('api_tokens')
        .where({ user_id: userId })
        .orderBy('id')
        .select(...TOKEN_COLUMNS);
    },

    async oauthApps(userId) {
      return knex('oauth_apps')
        .where({ user_id: userId })
        .orderBy('authorised_at')
        .select(...OAUTH_APP_COLUMNS);
    },

    async close(userId, now) {
      return knex.transaction(async (trx) => {
        const closed = await trx('users')
          .where({ id: userId })
          .whereNull('deleted_at')
          .update({ deleted_at: now, password_hash: null, updated_at: now });
        if (!closed) return false;
        await trx('web_sessions').where({ user_id: userId }).delete();
        // Password reset, verification and e-mail change links: each could otherwise give the account a way back in.
        await trx('account_links').where({ user_id: userId }).delete();
        await trx('api_tokens').where({ user_id: userId }).delete();
        const grants = trx('oauth_apps').where({ user_id: userId }).select('grant_id');
        await trx('oauth_artifacts').whereIn('grant_id', grants).delete();
        await trx('oauth_artifacts').where({ account_id: userId }).delete();
        await trx('oauth_apps').where({ user_id: userId }).delete();
        await trx('rum_sites').where({ user_id: userId }).update({ active: false, updated_at: now });
        return true;
      });
    },

    async closedAccounts(closedBefore, limit) {
      const rows = await knex('users')
        .where('deleted_at', '<', closedBefore)
        .orderBy('deleted_at')
        .limit(limit)
        .pluck('id');
      return rows.map(Number);
    },

    async targetIds(userId) {
      const rows = await knex('scan_targets').where({ user_id: userId }).orderBy('id').pluck('id');
      return rows.map(Number);
    },

    async inFlightScans(userId) {
      return knex('scans')
        .where({ user_id: userId })
        .whereIn('status', ['queued', 'running'])
        .orderBy('id')
        .pluck('public_id');
    },

    async pendingDeliveries(userId) {
      const rows = await knex('webhook_deliveries')
        .where({ user_id: userId })
        .whereNull('completed_at')
        .orderBy('id')
        .pluck('id');
      return rows.map(Number);
    },

    async siteIds(userId) {
      const rows = await knex('rum_sites').where({ user_id: userId }).orderBy('id').pluck('id');
      return rows.map(Number);
    },

    async flowRunIds(userId) {
      return knex('flow_runs').where({ user_id: userId }).orderBy('id').pluck('public_id');
    },

    async inFlightFlowRuns(userId) {
      return knex('flow_runs')
        .where({ user_id: userId })
        .whereIn('status', ['queued', 'running'])
        .orderBy('id')
        .pluck('public_id');
    },

    async scanIdPage(userId, afterId, limit) {
      const rows = await knex('scans')
        .where({ user_id: userId })
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .select('id', 'public_id');
      return rows.map((row) => ({ id: Number(row.id), publicId: row.public_id as string }));
    },

    async deleteRows(userId, batch) {
      const removed: RemovedRows = {};
      const count = (table: string, n: number) => (removed[table] = (removed[table] ?? 0) + n);
      for (;;) {
        const ids = knex('scans').where({ user_id: userId }).orderBy('id').limit(batch).select('id');
        const n = await knex('scans').whereIn('id', ids).delete();
        count('scans', n);
        if (n < batch) break;
      }
      // Children before parents where a foreign key has no cascade of its own; each table keyed by the user.
      const byUser = [
        'flow_runs',
        'flows',
        'alerts',
        'scan_targets',
        'webhook_deliveries',
        'alert_destinations',
        'webhook_actions',
        'webhook_attempt_slots',
        'webhook_endpoints',
        'rum_sites',
        'api_tokens',
        'oauth_apps',
        'web_sessions',
        'account_links',
        'api_usage_daily',
      ];
      for (const table of byUser) count(table, await knex(table).where({ user_id: userId }).delete());
      count('oauth_artifacts', await knex('oauth_artifacts').where({ account_id: userId }).delete());
      return removed;
    },

    async deleteUser(userId, emailHash) {
      return knex.transaction(async (trx) => {
        if (emailHash) {
          await trx('sign_in_failures').where({ email_hash: emailHash }).delete();
          // The account-mail throttle's uses for the address (services/account-mail-throttle.ts keys them so).
          await trx('account_mail_requests')
            .where({ key: `email:${emailHash}` })
            .delete();
        }
        return (await trx('users').where({ id: userId }).delete()) > 0;
      });
    },
  };
}
