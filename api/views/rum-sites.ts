import { isoTimestamp } from '../../core/clock.ts';
import type { Plan } from '../../core/plans.ts';
import { cwvVerdict, rate, RUM_METRICS, type RumMetric } from '../../core/rum/metrics.ts';
import type { HistoryDay, MetricStats, NavigationShare, SlowPage } from '../../core/rum/queries.ts';
import { collectorScriptUrl, embedSnippet, type RumSite } from '../../core/rum/site.ts';

/** What a site view needs besides the site: the ingest service's public URL and the owner's plan. */
export interface RumSiteViewContext {
  ingestPublicUrl: string;
  plan: Plan;
}

/**
 * A live-data site, the spec's fields. `pageviews_this_month` is null while ClickHouse cannot be asked (the
 * rest of the site is still useful then, the snippet above all); otherwise page views measured this UTC month,
 * each counted 100 / sample_rate times.
 */
export function rumSiteView(site: RumSite, context: RumSiteViewContext, pageviewsThisMonth: number | null) {
  return {
    id: site.id,
    domain: site.domain,
    active: site.active,
    embed_snippet: embedSnippet(collectorScriptUrl(context.ingestPublicUrl), site.publicId, site.sampleRate),
    pageviews_this_month: pageviewsThisMonth,
    monthly_limit: context.plan.rumMonthlyPageviews,
    created_at: isoTimestamp(site.createdAt),
  };
}

export interface RumSiteDetail {
  alertCount: number;
  /** Beacons refused this UTC month, by reason; null while ClickHouse cannot be asked. */
  rejectedThisMonth: Record<string, number> | null;
}

/** GET /rum/sites/{id}: the list fields, then `sample_rate`, `public_id`, `alert_count`, `rejected_this_month`, `updated_at`. */
export function rumSiteDetailView(
  site: RumSite,
  context: RumSiteViewContext,
  pageviewsThisMonth: number | null,
  detail: RumSiteDetail,
) {
  return {
    ...rumSiteView(site, context, pageviewsThisMonth),
    public_id: site.publicId,
    sample_rate: site.sampleRate,
    alert_count: detail.alertCount,
    rejected_this_month: detail.rejectedThisMonth,
    updated_at: isoTimestamp(site.updatedAt),
  };
}

/** The spec's summary object; metrics without samples have p75 and rating null. */
export function rumSummaryView(
  site: RumSite,
  period: string,
  device: string,
  metrics: Readonly<Record<RumMetric, MetricStats>>,
  navigation: readonly NavigationShare[],
) {
  return {
    domain: site.domain,
    period,
    device,
    ...cwvVerdict(metrics),
    metrics: Object.fromEntries(
      RUM_METRICS.map((metric) => {
        const { p75, samples } = metrics[metric];
        return [metric, { p75, rating: p75 === null ? null : rate(metric, p75), samples }];
      }),
    ),
    navigation: navigation.map((share) => ({ type: share.navigation, page_views: share.pageViews })),
  };
}

export function rumHistoryItemView(day: HistoryDay) {
  return { date: day.date, p75: day.p75, p50: day.p50, samples: day.samples };
}

export function rumPageItemView(page: SlowPage) {
  const item = { path: page.path, p75: page.p75, samples: page.samples };
  const attribution =
    page.attribution && (page.attribution.target || page.attribution.url)
      ? { target: page.attribution.target || null, url: page.attribution.url || null }
      : null;
  return attribution ? { ...item, attribution } : item;
}
