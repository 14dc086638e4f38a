import { DETAIL_LIMITS, type FindingItem, type Savings } from '../scan/details.ts';
import {
  FORM_FACTORS,
  type FormFactor,
  type KeptAudit,
  type ResponseObservation,
  type ScanObservation,
} from '../scan/observation.ts';
import type { FindingEvidence } from './types.ts';

const NUMERIC = ['transfer_bytes', 'wasted_bytes', 'wasted_ms', 'main_thread_ms'] as const;

/**
 * A finding's evidence from one Lighthouse audit on each form factor where it applies: its items merged over
 * form factors (one item per URL or selector, the larger value of each number, the box of each form
 * factor), at most DETAIL_LIMITS.items of them, and Lighthouse's savings per form factor.
 */
export function auditEvidence(
  obs: ScanObservation,
  audit: KeptAudit,
  options: { factors?: readonly FormFactor[]; savings?: boolean } = {},
): FindingEvidence {
  const factors = (options.factors ?? FORM_FACTORS).filter((f) => obs[f].audits[audit]?.evidence);
  const merged = new Map<string, FindingItem>();
  const savings: Partial<Record<FormFactor, Savings>> = {};
  for (const factor of factors) {
    const evidence = obs[factor].audits[audit]!.evidence!;
    if (options.savings !== false) savings[factor] = evidence.savings;
    for (const { box, ...item } of evidence.items) {
      const key = item.url ?? item.selector ?? '';
      let entry = merged.get(key);
      if (!entry) {
        if (merged.size >= DETAIL_LIMITS.items) continue;
        merged.set(key, (entry = { ...item, form_factors: [] }));
      }
      entry.form_factors!.push(factor);
      for (const field of NUMERIC)
        if (item[field] !== undefined) entry[field] = Math.max(entry[field] ?? 0, item[field]);
      if (box) entry.box = { ...entry.box, [factor]: box };
    }
  }
  const items = [...merged.values()];
  return {
    ...(factors.length ? { form_factors: [...factors] } : {}),
    ...(items.length ? { items } : {}),
    ...(Object.keys(savings).length ? { savings } : {}),
  };
}

/** Evidence from the page's own responses (the first form factor's load): the largest first. */
export function responseEvidence(
  responses: readonly ResponseObservation[],
  bytes: (r: ResponseObservation) => number = (r) => r.transferBytes,
): FindingEvidence {
  const largest = [...responses].sort((a, b) => bytes(b) - bytes(a)).slice(0, DETAIL_LIMITS.items);
  if (largest.length === 0) return {};
  return {
    items: largest.map((r) => ({ url: r.url.slice(0, DETAIL_LIMITS.text), transfer_bytes: Math.round(bytes(r)) })),
  };
}
