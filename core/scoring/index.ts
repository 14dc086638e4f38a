import type { ScanObservation } from '../scan/observation.ts';
import { CATEGORY_KEYS, categoryRank, SCORE_CATEGORIES, type ScanScores, type ScoreCategory } from './categories.ts';
import { CACHING_CHECKS } from './checks/caching.ts';
import { IMAGE_CHECKS } from './checks/images.ts';
import { SPEED_CHECKS } from './checks/speed.ts';
import { TECHNICAL_CHECKS } from './checks/technical.ts';
import { detectWordPress, WORDPRESS_CHECKS } from './checks/wordpress.ts';
import type { Check, Finding, Severity } from './types.ts';

/** Bumped whenever a check or weight changes, and stored with each result. */
export const SCORING_VERSION = 3;

export const CHECKS: readonly Check[] = [
  ...SPEED_CHECKS,
  ...IMAGE_CHECKS,
  ...CACHING_CHECKS,
  ...TECHNICAL_CHECKS,
  ...WORDPRESS_CHECKS,
];

/** Every finding code any check can emit. */
export const FINDING_CODES: readonly string[] = CHECKS.flatMap((c) => c.codes);

export const OVERALL_WEIGHTS = Object.fromEntries(SCORE_CATEGORIES.map((c) => [c.key, c.weight])) as Record<
  ScoreCategory,
  number
>;
const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

export interface Scored {
  version: number;
  scores: ScanScores;
  findings: Finding[];
  isWordPress: boolean;
}

/**
 * Each category: the weighted mean of its applicable checks (100 with none). `overall`: the categories'
 * weighted mean (`core/scoring/categories.ts`); WordPress-only categories count for WordPress sites only
 * (elsewhere they score 100 and drop out), renormalised. `scannedAt` is when the page was loaded.
 */
export function scoreScan(obs: ScanObservation, scannedAt: Date): Scored {
  const isWordPress = detectWordPress(obs);
  const totals = Object.fromEntries(CATEGORY_KEYS.map((c) => [c, { sum: 0, weight: 0 }])) as Record<
    ScoreCategory,
    { sum: number; weight: number }
  >;
  const findings: Finding[] = [];
  for (const check of CHECKS) {
    const result = check.run(obs, { isWordPress, scannedAt });
    findings.push(...result.findings);
    if (!result.applicable || check.weight === 0) continue;
    totals[check.category].sum += Math.max(0, Math.min(1, result.score)) * check.weight;
    totals[check.category].weight += check.weight;
  }
  const counts = (c: (typeof SCORE_CATEGORIES)[number]) => !c.wordpressOnly || isWordPress;
  const category = (c: (typeof SCORE_CATEGORIES)[number]) =>
    !counts(c) || totals[c.key].weight === 0 ? 100 : Math.round((100 * totals[c.key].sum) / totals[c.key].weight);
  const byCategory = Object.fromEntries(SCORE_CATEGORIES.map((c) => [c.key, category(c)])) as Record<
    ScoreCategory,
    number
  >;
  const counted = SCORE_CATEGORIES.filter(counts);
  const weightSum = counted.reduce((s, c) => s + c.weight, 0);
  const overall = Math.round(counted.reduce((s, c) => s + byCategory[c.key] * c.weight, 0) / weightSum);
  findings.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      categoryRank(a.category) - categoryRank(b.category) ||
      a.code.localeCompare(b.code),
  );
  return { version: SCORING_VERSION, scores: { overall, ...byCategory }, findings, isWordPress };
}
