import { hasFeature, planFor } from '../core/plans.ts';
import {
  judge,
  step,
  type RumAlert,
  type SiteWindow,
  type SiteWindowsQuery,
  type Verdict,
} from '../core/rum/alert-check.ts';
import { isoTimestamp } from '../core/clock.ts';
import type { WebhookDelivery } from '../core/webhooks/delivery.ts';
import { rumAlertPayload, type RumAlertNotice } from '../core/webhooks/payloads.ts';
import type { RumAlertCheckResult } from '../core/rum/alert-check-result.ts';
import type { CheckedRumAlert, CheckRecord, RumAlertStore, TransitionRecord } from '../db/store/rum-alerts.ts';
import { enqueueWebhook } from './webhook-delivery.ts';
import { rumAlertChatNotice } from '../core/alert-destinations/notice.ts';
import { enqueueChatAlerts } from './alert-destinations.ts';

export interface RumAlertCheckDeps {
  rumAlerts: RumAlertStore;
  windows: SiteWindowsQuery;
  /** BASE_URL: payloads and e-mails link to the site's dashboard there. */
  baseUrl: string;
}

/**
 * The 5-minute check (core/rum/alert-check.ts has the rules): every configuration of every active site,
 * with one ClickHouse query per distinct window length for all their sites, then every outcome recorded in
 * one Postgres transaction, with the webhook outbox row of each transition. The caller starts the delivery
 * workflows and e-mails after it returns.
 */
export async function checkRumAlerts(
  deps: RumAlertCheckDeps,
  now: Date,
): Promise<{ result: RumAlertCheckResult; webhooks: WebhookDelivery[] }> {
  const configurations = (await deps.rumAlerts.forCheck()).filter(({ ownerPlan }) =>
    hasFeature(planFor(ownerPlan), 'live_data'),
  );
  const windows = await readWindows(deps.windows, configurations, now);
  const plain: CheckRecord[] = [];
  const moving: Array<{
    record: TransitionRecord;
    checked: CheckedRumAlert;
    verdict: Exclude<Verdict, { kind: 'insufficient' }>;
  }> = [];
  for (const checked of configurations) {
    const { alert, site } = checked;
    const verdict = judge(
      alert,
      windows.get(alert.windowMinutes)?.get(site.id) ?? {},
      alert.status === 'triggered' ? alert.triggeredMetric : null,
    );
    const next = step(alert, verdict, alert.consecutiveThreshold);
    const reading =
      verdict.kind === 'insufficient'
        ? { metric: null, p75: null, samples: null }
        : { metric: verdict.metric, p75: verdict.p75, samples: verdict.samples };
    const record: CheckRecord = { id: alert.id, readUpdatedAt: alert.updatedAt, streak: next.streak, ...reading };
    if (next.transition && verdict.kind !== 'insufficient') {
      moving.push({ record: { ...record, metric: verdict.metric, transition: next.transition }, checked, verdict });
    } else {
      plain.push(record);
    }
  }

  return deps.rumAlerts.inTransaction(async (locked, outbox) => {
    let recorded = await locked.recordChecks(plain, now);
    const result: RumAlertCheckResult = {
      configurations: configurations.length,
      queries: windows.size,
      recorded: 0,
      transitions: [],
      emails: [],
    };
    const webhooks: WebhookDelivery[] = [];
    for (const { record, checked, verdict } of moving) {
      const updated = await locked.recordTransition(record, now);
      if (!updated) continue;
      recorded += 1;
      const notice = noticeOf(updated, checked, verdict, now);
      result.transitions.push({ alertId: updated.id, change: record.transition });
      result.emails.push({ alertId: updated.id, change: record.transition, occurrenceMs: now.getTime(), notice });
      const event = record.transition === 'triggered' ? 'rum.alert.triggered' : 'rum.alert.resolved';
      const payload = rumAlertPayload(notice, event, deps.baseUrl);
      const delivery = await enqueueWebhook(outbox, checked.site.userId, event, payload, now);
      if (delivery) webhooks.push(delivery);
      // Slack and Teams destinations: the account-wide ones (a live-data alert has no target).
      webhooks.push(
        ...(await enqueueChatAlerts(
          outbox,
          { userId: checked.site.userId, targetId: null, event, payload },
          (locale) => rumAlertChatNotice(notice, record.transition, locale),
          now,
        )),
      );
    }
    result.recorded = recorded;
    return { result, webhooks };
  });
}

/** One query per distinct window length, each over the sites that have a configuration with that window. */
async function readWindows(
  query: SiteWindowsQuery,
  configurations: readonly CheckedRumAlert[],
  now: Date,
): Promise<Map<number, Map<number, SiteWindow>>> {
  const sitesByWindow = new Map<number, Set<number>>();
  for (const { alert, site } of configurations) {
    const sites = sitesByWindow.get(alert.windowMinutes) ?? new Set<number>();
    sites.add(site.id);
    sitesByWindow.set(alert.windowMinutes, sites);
  }
  const entries = await Promise.all(
    [...sitesByWindow].map(
      async ([minutes, sites]) =>
        [
          minutes,
          await query(
            [...sites].sort((a, b) => a - b),
            minutes,
            now,
          ),
        ] as const,
    ),
  );
  return new Map(entries);
}

/**
 * The numbers a transition reports: the reading on the metric it triggered on (for a resolution, that metric's
 * recovered p75), with the threshold it is judged against.
 */
function noticeOf(
  alert: RumAlert,
  checked: CheckedRumAlert,
  verdict: Exclude<Verdict, { kind: 'insufficient' }>,
  at: Date,
): RumAlertNotice {
  return {
    alertName: alert.title,
    domain: checked.site.domain,
    siteId: checked.site.id,
    metric: verdict.metric,
    p75: verdict.p75,
    threshold: verdict.threshold,
    samples: verdict.samples,
    windowMinutes: alert.windowMinutes,
    at: isoTimestamp(at),
  };
}
