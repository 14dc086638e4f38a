import type { ScoreKey } from '../scoring/categories.ts';

/**
 * A target's alert thresholds: an alert is raised when a score falls below `warning` (severity warning) or
 * below `critical` (severity critical). `overall` always has thresholds; the categories only when the user
 * sets them. Scores are integers 0–100, and `critical` ≤ `warning`.
 */
export interface ScoreThreshold {
  warning: number;
  critical: number;
}

export type Thresholds = { overall: ScoreThreshold } & Partial<Record<Exclude<ScoreKey, 'overall'>, ScoreThreshold>>;

export const DEFAULT_THRESHOLDS: Thresholds = { overall: { warning: 70, critical: 50 } };
