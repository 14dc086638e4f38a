import { DETAIL_LIMITS, type DetailItem, type FindingItem, type Savings } from '../scan/details.ts';
import {
  FORM_FACTORS,
  type FormFactor,
  type KeptAudit,
  type ResponseObservation,
  type ScanObservation,
} from '../scan/observation.ts';
import { impactOf } from './priority.ts';
import type { FindingEvidence } from './types.ts';

const NUMERIC = ['transfer_bytes', 'wasted_bytes', 'wasted_ms', 'main_thread_ms', 'shift', 'end_ms'] as const;

/**
 * Items of several form factors as one list: one item per URL or selector (or, for items naming neither, per
 * label), the larger value of each number, the box of each form factor, the form factors that listed it; at
 * most DETAIL_LIMITS.items, in the order first seen.
 */
export function mergeItems(perFactor: ReadonlyArray<readonly [FormFactor, readonly DetailItem[]]>): FindingItem[] {
  const merged = new Map<string, FindingItem>();
  for (const [factor, items] of perFactor) {
    for (const { box, ...item } of items) {
      const key = item.url ?? item.selector ?? item.label ?? '';
      let entry = merged.get(key);
      if (!entry) {
        if (merged.size >= DETAIL_LIMITS.items) continue;
        merged.set(key, (entry = { ...item, form_factors: [] }));
      }
      if (!entry.form_factors!.includes(factor)) entry.form_factors!.push(factor);
      for (const field of NUMERIC)
        if (item[field] !== undefined) entry[field] = Math.max(entry[field] ?? 0, item[field]);
      if (box) entry.box = { ...entry.box, [factor]: box };
    }
  }
  return [...merged.values()];
}

/**
 * A finding's evidence from one Lighthouse audit on each form factor where it applies: its items merged over
 * form factors (mergeItems), Lighthouse's savings per form factor, and the impact they make
 * (core/scoring/priority.ts) unless `savings` is false.
 */
export function auditEvidence(
  obs: ScanObservation,
  audit: KeptAudit,
  options: { factors?: readonly FormFactor[]; savings?: boolean } = {},
): FindingEvidence {
  const factors = (options.factors ?? FORM_FACTORS).filter((f) => obs[f].audits[audit]?.evidence);
  const savings: Partial<Record<FormFactor, Savings>> = {};
  if (options.savings !== false) for (const f of factors) savings[f] = obs[f].audits[audit]!.evidence!.savings;
  const items = mergeItems(factors.map((f) => [f, obs[f].audits[audit]!.evidence!.items] as const));
  const impact = impactOf(savings);
  return {
    ...(factors.length ? { form_factors: [...factors] } : {}),
    ...(items.length ? { items } : {}),
    ...(Object.keys(savings).length ? { savings } : {}),
    ...(impact ? { impact } : {}),
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
