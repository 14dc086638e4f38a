import type { ResponseObservation, ScanObservation } from '../scan/observation.ts';
import { CATEGORY_KEYS, SCORE_CATEGORIES, type ScanScores, type ScoreCategory } from './categories.ts';
import { CACHING_CHECKS } from './checks/caching.ts';
import { IMAGE_CHECKS } from './checks/images.ts';
import { SPEED_CHECKS } from './checks/speed.ts';
import { TECHNICAL_CHECKS } from './checks/technical.ts';
import { detectWordPress, WORDPRESS_CHECKS } from './checks/wordpress.ts';
import { LCP_CHECKS } from './checks/lcp-discovery.ts';
import { LOADING_CHECKS } from './checks/loading.ts';
import { SCRIPT_CHECKS } from './checks/scripts.ts';
import { orderFindings } from './priority.ts';
import type { Check, Finding } from './types.ts';

/** Bumped whenever a check or weight changes, and stored with each result. */
export const SCORING_VERSION = 5;

export const CHECKS: readonly Check[] = [
  ...SPEED_CHECKS,
  ...LCP_CHECKS,
  ...IMAGE_CHECKS,
  ...CACHING_CHECKS,
  ...TECHNICAL_CHECKS,
  ...SCRIPT_CHECKS,
  ...LOADING_CHECKS,
  ...WORDPRESS_CHECKS,
];

/** Every finding code any check can emit. */
export const FINDING_CODES: readonly string[] = CHECKS.flatMap((c) => c.codes);

export const OVERALL_WEIGHTS = Object.fromEntries(SCORE_CATEGORIES.map((c) => [c.key, c.weight])) as Record<
  ScoreCategory,
  number
>;

export interface Scored {
  version: number;
  scores: ScanScores;
  findings: Finding[];
  isWordPress: boolean;
  /**
   * Categories with nothing to judge on this page (no applicable check: caching on a page without static
   * resources or text, WordPress on other sites). Their score reads 100 in the API's integer field and they do
   * not count in `overall`; pages show them as not applicable.
   */
  notApplicable: ScoreCategory[];
}

const byContent = (a: ResponseObservation, b: ResponseObservation): number =>
  a.url < b.url ? -1 : a.url > b.url ? 1 : JSON.stringify(a) < JSON.stringify(b) ? -1 : 1;

/**
 * The responses in one order whatever order the runner saw them in (the main document first, the rest by URL,
 * then content), so sums of bytes round the same way and evidence with equal sizes lists the same files.
 */
const inCanonicalOrder = (obs: ScanObservation): ScanObservation => ({
  ...obs,
  responses: obs.responses.length ? [obs.responses[0]!, ...obs.responses.slice(1).sort(byContent)] : [],
});

/**
 * Each category: 100 minus its checks' deductions, each check's `1 - score` weighted by its share of the
 * category's weights; a check that does not apply on the page deducts nothing (so a fault that disappears
 * never lowers a score). A category none of whose checks applies is not applicable. `overall`: the applicable
 * categories' weighted mean (`core/scoring/categories.ts`), renormalised; WordPress-only categories apply to
 * WordPress sites only. `scannedAt` is when the page was loaded.
 */
export function scoreScan(observed: ScanObservation, scannedAt: Date): Scored {
  const obs = inCanonicalOrder(observed);
  const isWordPress = detectWordPress(obs);
  const totals = Object.fromEntries(
    CATEGORY_KEYS.map((c) => [c, { deduction: 0, weight: 0, applies: false }]),
  ) as Record<ScoreCategory, { deduction: number; weight: number; applies: boolean }>;
  const findings: Finding[] = [];
  for (const check of CHECKS) {
    const result = check.run(obs, { isWordPress, scannedAt });
    findings.push(...result.findings);
    if (check.weight === 0) continue;
    const total = totals[check.category];
    total.weight += check.weight;
    if (!result.applicable) continue;
    total.applies = true;
    total.deduction += (1 - Math.max(0, Math.min(1, result.score))) * check.weight;
  }
  const applies = (c: (typeof SCORE_CATEGORIES)[number]) => (!c.wordpressOnly || isWordPress) && totals[c.key].applies;
  const category = (c: (typeof SCORE_CATEGORIES)[number]) =>
    applies(c) ? Math.round(100 * (1 - totals[c.key].deduction / totals[c.key].weight)) : 100;
  const byCategory = Object.fromEntries(SCORE_CATEGORIES.map((c) => [c.key, category(c)])) as Record<
    ScoreCategory,
    number
  >;
  const counted = SCORE_CATEGORIES.filter(applies);
  const weightSum = counted.reduce((s, c) => s + c.weight, 0);
  const overall = weightSum
    ? Math.round(counted.reduce((s, c) => s + byCategory[c.key] * c.weight, 0) / weightSum)
    : 100;
  return {
    version: SCORING_VERSION,
    scores: { overall, ...byCategory },
    findings: orderFindings(findings),
    isWordPress,
    notApplicable: SCORE_CATEGORIES.filter((c) => !applies(c)).map((c) => c.key),
  };
}
