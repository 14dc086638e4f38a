import type { ScanObservation } from '../scan/observation.ts';
import type { ScanScores } from '../scan/result.ts';
import { CACHING_CHECKS } from './checks/caching.ts';
import { IMAGE_CHECKS } from './checks/images.ts';
import { SPEED_CHECKS } from './checks/speed.ts';
import { TECHNICAL_CHECKS } from './checks/technical.ts';
import { detectWordPress, WORDPRESS_CHECKS } from './checks/wordpress.ts';
import type { Check, Finding, ScoreCategory, Severity } from './types.ts';

/** Bumped whenever a check or weight changes, and stored with each result. */
export const SCORING_VERSION = 2;

export const CHECKS: readonly Check[] = [...SPEED_CHECKS, ...IMAGE_CHECKS, ...CACHING_CHECKS, ...TECHNICAL_CHECKS, ...WORDPRESS_CHECKS];

/** Every finding code any check can emit. */
export const FINDING_CODES: readonly string[] = CHECKS.flatMap((c) => c.codes);

export const OVERALL_WEIGHTS: Record<ScoreCategory, number> = { speed: 0.5, images: 0.15, caching: 0.15, technical: 0.2, wordpress: 0.1 };
const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };
const CATEGORY_ORDER: Record<ScoreCategory, number> = { speed: 0, images: 1, caching: 2, technical: 3, wordpress: 4 };

export interface Scored {
  version: number;
  scores: ScanScores;
  findings: Finding[];
  isWordPress: boolean;
}

/**
 * Each category: the weighted mean of its applicable checks (100 with none). `overall`: speed 50 %, images
 * 15 %, caching 15 %, technical 20 %, and WordPress 10 % only for WordPress sites, renormalised.
 */
export function scoreScan(obs: ScanObservation): Scored {
  const isWordPress = detectWordPress(obs);
  const totals: Record<ScoreCategory, { sum: number; weight: number }> = {
    speed: { sum: 0, weight: 0 }, images: { sum: 0, weight: 0 }, caching: { sum: 0, weight: 0 }, technical: { sum: 0, weight: 0 }, wordpress: { sum: 0, weight: 0 },
  };
  const findings: Finding[] = [];
  for (const check of CHECKS) {
    const result = check.run(obs, { isWordPress });
    findings.push(...result.findings);
    if (!result.applicable || check.weight === 0) continue;
    totals[check.category].sum += Math.max(0, Math.min(1, result.score)) * check.weight;
    totals[check.category].weight += check.weight;
  }
  const category = (c: ScoreCategory) => (totals[c].weight === 0 ? 100 : Math.round((100 * totals[c].sum) / totals[c].weight));
  const scores = { speed: category('speed'), images: category('images'), caching: category('caching'), technical: category('technical'), wordpress: isWordPress ? category('wordpress') : 100 };
  const counted = (Object.keys(OVERALL_WEIGHTS) as ScoreCategory[]).filter((c) => c !== 'wordpress' || isWordPress);
  const weightSum = counted.reduce((s, c) => s + OVERALL_WEIGHTS[c], 0);
  const overall = Math.round(counted.reduce((s, c) => s + scores[c] * OVERALL_WEIGHTS[c], 0) / weightSum);
  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || CATEGORY_ORDER[a.category] - CATEGORY_ORDER[b.category] || a.code.localeCompare(b.code));
  return { version: SCORING_VERSION, scores: { overall, ...scores }, findings, isWordPress };
}
