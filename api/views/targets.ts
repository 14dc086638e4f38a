import { isoTimestamp } from '../../core/clock.ts';
import { nextScheduledScan } from '../../core/monitoring/schedule.ts';
import type { ScanTarget, TargetHistoryItem } from '../../core/monitoring/target.ts';

/**
 * A target (the spec's domain): the spec's fields, then the extensions `region`, `thresholds`, `created_at`
 * and `next_scan_at` (from `now`).
 */
export function targetView(target: ScanTarget, now: Date) {
  const next = nextScheduledScan(target, now);
  return {
    id: target.id,
    host: target.host,
    url: target.url,
    schedule: target.schedule,
    is_active: target.isActive,
    last_dispatched_at: target.lastDispatchedAt ? isoTimestamp(target.lastDispatchedAt) : null,
    region: target.region,
    thresholds: target.thresholds,
    budgets: target.budgets,
    created_at: isoTimestamp(target.createdAt),
    next_scan_at: next ? isoTimestamp(next) : null,
  };
}

export function historyItemView(item: TargetHistoryItem) {
  return { score: item.score, created_at: isoTimestamp(item.createdAt), region: item.region };
}
