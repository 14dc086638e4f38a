import type { Knex } from 'knex';
import { postgresReady } from '../knex.ts';
import { createAccountDataStore, type AccountDataStore } from './account-data.ts';
import { createAlertStore, type AlertStore } from './alerts.ts';
import { createFlowStore, type FlowStore } from './flows.ts';
import { createEmailPreferenceStore, type EmailPreferenceStore } from './email-preferences.ts';
import { createLighthouseReportStore, type LighthouseReportStore } from './lighthouse-reports.ts';
import { createOAuthStore, type OAuthStore } from './oauth.ts';
import { createPlanRequestStore, type PlanRequestStore } from './plan-requests.ts';
import { createRumAlertStore, type RumAlertStore } from './rum-alerts.ts';
import { createRumSiteStore, type RumSiteStore } from './rum-sites.ts';
import { createScanStore, type ScanStore } from './scans.ts';
import { createSessionStore, type SessionStore } from './sessions.ts';
import { createTargetStore, type TargetStore } from './targets.ts';
import { createThrottleStore, type ThrottleStore } from './throttles.ts';
import { createTokenStore, type TokenStore } from './tokens.ts';
import { createUsageStore, type UsageStore } from './usage.ts';
import { createUserStore, type UserStore } from './users.ts';
import { createWebhookStore, type WebhookStore } from './webhooks.ts';
import { createAccountLinkStore, type AccountLinkStore } from './account-links.ts';

/** Every Postgres query of the service, one store per aggregate, each returning plain objects. */
export interface Storage {
  scans: ScanStore;
  /** Each finished scan's whole Lighthouse result per form factor (compressed), until its retention ends. */
  lighthouseReports: LighthouseReportStore;
  /** Monitored scan targets (the spec's domains). */
  targets: TargetStore;
  /** Score alerts of monitored targets, and what evaluating them reads. */
  alerts: AlertStore;
  /** Live-data (RUM) sites; their measurements are in ClickHouse. */
  rumSites: RumSiteStore;
  /** User flows, their secrets (encrypted), runs and measured steps. */
  flows: FlowStore;
  /** Live-data alert configurations and their state (the 5-minute check). */
  rumAlerts: RumAlertStore;
  users: UserStore;
  /** Outgoing webhooks: endpoints (notification settings), the delivery outbox and attempts. */
  webhooks: WebhookStore;
  sessions: SessionStore;
  /** OAuth: the authorization server's artifacts (hashed), authorised apps, registration attempts. */
  oauth: OAuthStore;
  tokens: TokenStore;
  /** The sign-in and sign-up throttles' records. */
  throttles: ThrottleStore;
  /** The daily API counter, on its own pool when one is given. */
  usage: UsageStore;
  /** Account mail: one-use links (password reset, e-mail verification and change) and their throttle. */
  accountLinks: AccountLinkStore;
  /** Upgrade requests sent from the plan page, for their throttle. */
  planRequests: PlanRequestStore;
  /** One account's data at once: the data export, closing and deleting the account. */
  accountData: AccountDataStore;
  /** Which alert e-mails each user wants (the settings' notifications). */
  emailPreferences: EmailPreferenceStore;
  /** Throws unless Postgres answers a query (readiness checks). */
  ping(): Promise<void>;
}

/** `counterKnex`: the daily counter's pool (db/knex.ts createCounterKnex); the main pool when not given. */
export function createStorage(knex: Knex, counterKnex: Knex = knex): Storage {
  return {
    scans: createScanStore(knex),
    lighthouseReports: createLighthouseReportStore(knex),
    targets: createTargetStore(knex),
    alerts: createAlertStore(knex),
    rumSites: createRumSiteStore(knex),
    flows: createFlowStore(knex),
    rumAlerts: createRumAlertStore(knex),
    users: createUserStore(knex),
    webhooks: createWebhookStore(knex),
    sessions: createSessionStore(knex),
    oauth: createOAuthStore(knex),
    tokens: createTokenStore(knex),
    throttles: createThrottleStore(knex),
    usage: createUsageStore(counterKnex),
    accountLinks: createAccountLinkStore(knex),
    planRequests: createPlanRequestStore(knex),
    accountData: createAccountDataStore(knex),
    emailPreferences: createEmailPreferenceStore(knex),
    ping: () => postgresReady(knex),
  };
}
