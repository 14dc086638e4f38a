import type { Knex } from 'knex';
import * as accounts from './20261122_001_accounts.ts';
import * as webSessions from './20261122_002_web_sessions.ts';
import * as scans from './20261122_003_scans.ts';
import * as signInFailures from './20261123_004_sign_in_failures.ts';
import * as signInDevices from './20261124_005_sign_in_devices.ts';
import * as scanFailureHttpStatus from './20261124_006_scan_failure_http_status.ts';
import * as scanTargets from './20261125_007_scan_targets.ts';
import * as alerts from './20261125_008_alerts.ts';
import * as alertEmails from './20261125_010_alert_emails.ts';
import * as scanProgress from './20261125_011_scan_progress.ts';
import * as webhooks from './20261126_012_webhooks.ts';
import * as rum from './20261127_013_rum.ts';
import * as rumAlertState from './20261127_014_rum_alert_state.ts';
import * as oauth from './20261128_015_oauth.ts';
import * as scansQueuedIndex from './20261128_016_scans_queued_index.ts';
import * as webhookPendingIndex from './20261129_017_webhook_pending_index.ts';
import * as oauthArtifactsAccountIndex from './20261130_018_oauth_artifacts_account_index.ts';
import * as webhookClaims from './20261130_019_webhook_claims.ts';
import * as webhookLimits from './20261201_020_webhook_limits.ts';
import * as rumLimitNotices from './20261201_021_rum_limit_notices.ts';
import * as webhookAttemptKeys from './20261201_023_webhook_attempt_keys.ts';
import * as scanLighthouseReports from './20261202_024_scan_lighthouse_reports.ts';
import * as scanTrigger from './20261202_025_scan_trigger.ts';
import * as accountMail from './20261203_026_account_mail.ts';
import * as settings from './20261203_027_settings.ts';
import * as planRequests from './20261203_028_plan_requests.ts';
import * as accountDeletion from './20261203_029_account_deletion.ts';
import * as confirmedRegressions from './20261204_032_confirmed_regressions.ts';
import * as scansFinishedByUrlIndex from './20261203_030_scans_finished_by_url_index.ts';
import * as budgets from './20261204_031_budgets.ts';
import * as alertDestinations from './20261204_033_alert_destinations.ts';
import * as flows from './20261205_034_flows.ts';
import * as flowMonitoring from './20261206_035_flow_monitoring.ts';
import * as flowBudgets from './20261207_036_flow_budgets.ts';
import * as flowFailedAlerts from './20261208_037_flow_failed_alerts.ts';
import * as scanSecretCheck from './20261209_038_scan_secret_check.ts';
import * as accountLinkPurposes from './20261209_039_account_link_purposes.ts';
import * as scanRescanOf from './20261210_040_scan_rescan_of.ts';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Every migration, in order. Listed statically so the same code runs under Node, jest and a bundled image. */
export const MIGRATIONS: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ['20261122_001_accounts', accounts],
  ['20261122_002_web_sessions', webSessions],
  ['20261122_003_scans', scans],
  ['20261123_004_sign_in_failures', signInFailures],
  ['20261124_005_sign_in_devices', signInDevices],
  ['20261124_006_scan_failure_http_status', scanFailureHttpStatus],
  ['20261125_007_scan_targets', scanTargets],
  ['20261125_008_alerts', alerts],
  ['20261125_010_alert_emails', alertEmails],
  ['20261125_011_scan_progress', scanProgress],
  ['20261126_012_webhooks', webhooks],
  ['20261127_013_rum', rum],
  ['20261127_014_rum_alert_state', rumAlertState],
  ['20261128_015_oauth', oauth],
  ['20261128_016_scans_queued_index', scansQueuedIndex],
  ['20261129_017_webhook_pending_index', webhookPendingIndex],
  ['20261130_018_oauth_artifacts_account_index', oauthArtifactsAccountIndex],
  ['20261130_019_webhook_claims', webhookClaims],
  ['20261201_020_webhook_limits', webhookLimits],
  ['20261201_021_rum_limit_notices', rumLimitNotices],
  ['20261201_023_webhook_attempt_keys', webhookAttemptKeys],
  ['20261202_024_scan_lighthouse_reports', scanLighthouseReports],
  ['20261202_025_scan_trigger', scanTrigger],
  ['20261203_026_account_mail', accountMail],
  ['20261203_027_settings', settings],
  ['20261203_028_plan_requests', planRequests],
  ['20261203_029_account_deletion', accountDeletion],
  ['20261203_030_scans_finished_by_url_index', scansFinishedByUrlIndex],
  ['20261204_031_budgets', budgets],
  ['20261204_032_confirmed_regressions', confirmedRegressions],
  ['20261204_033_alert_destinations', alertDestinations],
  ['20261205_034_flows', flows],
  ['20261206_035_flow_monitoring', flowMonitoring],
  ['20261207_036_flow_budgets', flowBudgets],
  ['20261208_037_flow_failed_alerts', flowFailedAlerts],
  ['20261209_038_scan_secret_check', scanSecretCheck],
  ['20261209_039_account_link_purposes', accountLinkPurposes],
  ['20261210_040_scan_rescan_of', scanRescanOf],
];

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => MIGRATIONS.map(([name]) => name),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const found = MIGRATIONS.find(([candidate]) => candidate === name);
    if (!found) throw new Error(`unknown migration ${name}`);
    return found[1];
  },
};
