import { isoTimestamp } from '../../core/clock.ts';
import { changeSentence } from '../../core/i18n/scan-changes.ts';
import { scanCompareUrl, scanReportUrl } from '../../core/links.ts';
import type { MetricChange } from '../../core/scan/previous.ts';
import type { ScanComparison } from '../../services/scan-comparison.ts';
import type { ViewContext } from './scans.ts';

/**
 * A finished scan's extension `previous` (its schema: `previousSchema` in scan-schemas.ts): the comparison with
 * the previous scan of its URL, each row with its verdict and the rule's numbers, grouped as `result` is
 * (`scores`, `metrics.ttfb_ms`, `metrics.desktop`, `metrics.mobile`). Null when there is no previous scan.
 */
export function previousView(comparison: ScanComparison | null, scanId: string, ctx: ViewContext) {
  if (!comparison) return null;
  const { previous, changes } = comparison;
  const rows = (prefix: string) =>
    Object.fromEntries(
      changes.filter((c) => c.key.startsWith(prefix)).map((c) => [c.key.slice(prefix.length), changeView(c)]),
    );
  const ttfb = changes.find((c) => c.key === 'page:ttfb_ms');
  return {
    scan_id: previous.publicId,
    finished_at: isoTimestamp(previous.finishedAt),
    report_url: scanReportUrl(ctx.baseUrl, previous.publicId),
    compare_url: scanCompareUrl(ctx.baseUrl, previous.publicId, scanId),
    scoring_version: previous.result.scoringVersion,
    summary: changeSentence(changes, ctx.locale),
    scores: rows('score:'),
    metrics: { ...(ttfb ? { ttfb_ms: changeView(ttfb) } : {}), desktop: rows('desktop:'), mobile: rows('mobile:') },
  };
}

function changeView({ before, after, change, decision }: MetricChange) {
  const common = {
    before,
    after,
    change,
    verdict: decision.verdict,
    values: { before: decision.before.n, after: decision.after.n },
  };
  return decision.rule === 'rank_test'
    ? { ...common, rule: decision.rule, p: decision.p, floor: decision.floor }
    : {
        ...common,
        rule: decision.rule,
        band: decision.band,
        band_scans: decision.source.kind === 'history' ? decision.source.scans : null,
      };
}
