import type { Clock } from '../core/clock.ts';
import { RUM_METRICS, type RumMetric } from '../core/rum/metrics.ts';
import { historyWindow, RUM_HISTORY_DAYS } from '../core/rum/periods.ts';
import { RumDataUnavailable, type HistoryDay, type RumQueries } from '../core/rum/queries.ts';
import type { AccountDataStore, ExportRow } from '../db/store/account-data.ts';

export interface AccountExportDeps {
  accountData: AccountDataStore;
  rum: Pick<RumQueries, 'history' | 'pageviewsThisMonth'>;
  clock: Clock;
}

/** Scans read from Postgres per page while the archive is written: memory stays bounded however many there are. */
export const EXPORT_SCAN_PAGE = 200;
/** The live-data days in the archive: the longest history the dashboards offer. */
export const EXPORT_LIVE_DAYS = Math.max(...RUM_HISTORY_DAYS);
export const EXPORT_FORMAT = 'webperf-account-export';
export const EXPORT_VERSION = 1;

export type AccountExport =
  | { kind: 'ready'; filename: string; body: AsyncIterable<string> }
  | { kind: 'not_found' }
  /** ClickHouse did not answer: no archive at all rather than one without its live data. */
  | { kind: 'live_data_unavailable' };

type DailyLiveData = Record<RumMetric, HistoryDay[]>;

/**
 * "Download my data": one JSON document with the account, its targets, alerts, live-data sites (with their
 * alert configurations and, per day and metric, p75, p50 and measurements over the last EXPORT_LIVE_DAYS days,
 * and this month's page views), notification settings, Slack and Teams alert destinations (their URL hints), user flows (with their runs, and their secrets' names only), API tokens, authorised apps and every scan with its
 * result. Never a password hash, token hash, webhook header value or signing secret: the store reads named
 * columns only. Everything but the scans is read before the first byte, so a missing part (ClickHouse away)
 * turns into an answer of its own; the scans then follow page by page.
 */
export async function prepareAccountExport(deps: AccountExportDeps, userId: number): Promise<AccountExport> {
  const { accountData } = deps;
  const now = deps.clock();
  const account = await accountData.account(userId);
  if (!account || account.deletedAt) return { kind: 'not_found' };
  const [targets, alerts, sites, webhookSettings, apiTokens, authorisedApps, alertDestinations, flows] =
    await Promise.all([
      accountData.targets(userId),
      accountData.alerts(userId),
      accountData.rumSites(userId),
      accountData.webhookSettings(userId),
      accountData.tokens(userId),
      accountData.oauthApps(userId),
      accountData.alertDestinations(userId),
      accountData.flows(userId),
    ]);
  let liveDataSites: ExportRow[];
  try {
    liveDataSites = await withLiveData(deps, sites, now);
  } catch (error) {
    if (error instanceof RumDataUnavailable) return { kind: 'live_data_unavailable' };
    throw error;
  }
  const head = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    account: {
      id: account.id,
      name: account.name,
      email: account.email,
      plan: account.plan,
      locale: account.locale,
      createdAt: account.createdAt,
      updatedAt: account.updatedAt,
    },
    targets,
    alerts,
    liveDataSites,
    webhookSettings,
    alertDestinations,
    apiTokens,
    authorisedApps,
    flows,
  };
  return {
    kind: 'ready',
    filename: `webperf-account-${account.id}-${now.toISOString().slice(0, 10)}.json`,
    body: writeArchive(accountData, userId, head),
  };
}

async function withLiveData(deps: AccountExportDeps, sites: ExportRow[], now: Date): Promise<ExportRow[]> {
  if (sites.length === 0) return [];
  const ids = sites.map((site) => site.id as number);
  const window = historyWindow(EXPORT_LIVE_DAYS, now);
  const pageViews = await deps.rum.pageviewsThisMonth(ids, now);
  const result: ExportRow[] = [];
  for (const site of sites) {
    const daily = {} as DailyLiveData;
    for (const metric of RUM_METRICS) daily[metric] = await deps.rum.history(site.id as number, metric, window, 'all');
    result.push({
      ...site,
      liveData: {
        from: window.from.toISOString(),
        to: window.to.toISOString(),
        pageViewsThisMonth: pageViews.get(site.id as number) ?? 0,
        daily,
      },
    });
  }
  return result;
}

/** The head's fields, then `"scans": [...]` written a page at a time, as one JSON object. */
async function* writeArchive(
  accountData: AccountDataStore,
  userId: number,
  head: Record<string, unknown>,
): AsyncGenerator<string> {
  const opening = JSON.stringify(head, null, 1);
  yield `${opening.slice(0, -2)},\n "scans": [`;
  let first = true;
  for (let after = 0; ;) {
    const page = await accountData.scanPage(userId, after, EXPORT_SCAN_PAGE);
    for (const scan of page) {
      yield `${first ? '\n' : ',\n'}${JSON.stringify(scan)}`;
      first = false;
    }
    if (page.length < EXPORT_SCAN_PAGE) break;
    after = page[page.length - 1]!.id as number;
  }
  yield '\n ]\n}\n';
}
