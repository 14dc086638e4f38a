import type { ScanTrigger } from '../scan/scan.ts';
import type { FormFactor } from '../scan/observation.ts';
import type { LighthouseCategoryScores } from '../scan/lighthouse-categories.ts';

/**
 * A target's lab metrics over its scans, as the target page charts them (web/charts/lab-metric-history.ts):
 * each finished scan's median-run values per form factor and every run's values, read from the stored result
 * (core/scan/result.ts) by the target store's `labHistory`.
 */
export const LAB_METRICS = ['lcp_ms', 'cls', 'tbt_ms', 'fcp_ms', 'ttfb_ms'] as const;
export type LabMetric = (typeof LAB_METRICS)[number];

/** The per-run metrics (TTFB is measured once per scan, so it has no runs). */
export type RunLabMetric = Exclude<LabMetric, 'ttfb_ms'>;
export type LabValues = Record<RunLabMetric, number>;

export interface LabHistoryItem {
  scanId: string;
  finishedAt: Date;
  trigger: ScanTrigger;
  /** The Lighthouse version that measured it: its metrics change meaning across major versions. */
  lighthouseVersion: string | null;
  /** The page's time to first byte (once per scan, the first form factor's load). */
  ttfbMs: number | null;
  /** The median run's values (the report's), per form factor; null where the result has none. */
  metrics: Record<FormFactor, LabValues | null>;
  /** Every run's values, per form factor, in the order loaded; empty for results stored before runs were. */
  runs: Record<FormFactor, LabValues[]>;
  /** Lighthouse's own category scores of the median run, per form factor; null where the result has none. */
  lighthouse?: Record<FormFactor, LighthouseCategoryScores | null>;
}
