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

/**
 * What is wrong with thresholds whose shape was already checked (integers 0–100, known keys): each score's
 * `critical` must not be above its `warning`. Field names as the API reports them (`thresholds.speed.critical`).
 */
export function thresholdErrors(thresholds: Thresholds): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [key, threshold] of Object.entries(thresholds) as Array<[string, ScoreThreshold | undefined]>) {
    if (threshold && threshold.critical > threshold.warning) {
      errors[`thresholds.${key}.critical`] = [
        `The thresholds.${key}.critical may not be greater than thresholds.${key}.warning.`,
      ];
    }
  }
  return errors;
}
