import type { Savings } from '../scan/details.ts';
import type { FormFactor } from '../scan/observation.ts';
import { categoryRank } from './categories.ts';
import type { Finding, Impact, Severity } from './types.ts';

/**
 * The order of a scan's findings: by what fixing them saves, estimated milliseconds on a metric first, then
 * bytes (a finding's `impact`); the findings that state no saving (measurements such as a slow LCP or a layout
 * shift, and faults without an estimate) follow, by severity, category and code. The first three that save
 * something are the ones to fix first (`priority` 1, 2, 3).
 */
export const FIX_FIRST = 3;

const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/**
 * An impact from Lighthouse's savings per form factor (the largest milliseconds and the largest bytes of any
 * form factor), with `bytes` standing in where Lighthouse states none; undefined when nothing is saved.
 */
export function impactOf(
  savings: Partial<Record<FormFactor, Savings>> | undefined,
  bytes?: number,
): Impact | undefined {
  const stated = Object.values(savings ?? {});
  const ms = Math.max(0, ...stated.map((s) => s.ms ?? 0));
  const statedBytes = stated.map((s) => s.bytes).filter((b): b is number => typeof b === 'number');
  const saved = Math.round(statedBytes.length ? Math.max(...statedBytes) : (bytes ?? 0));
  return ms > 0 || saved > 0 ? { ms: Math.round(ms), bytes: Math.max(0, saved) } : undefined;
}

/**
 * The impact of a finding read from the page's own responses: its `bytes`, and the milliseconds Lighthouse
 * states for the same fault (`savings`, where one of its insights judges it too).
 */
export function responseImpact(bytes: number, savings?: Partial<Record<FormFactor, Savings>>): Impact | undefined {
  const ms = impactOf(savings)?.ms ?? 0;
  return ms > 0 || bytes > 0 ? { ms, bytes: Math.max(0, Math.round(bytes)) } : undefined;
}

const saves = (f: Finding): boolean => !!f.impact && (f.impact.ms > 0 || f.impact.bytes > 0);

export function compareFindings(a: Finding, b: Finding): number {
  return (
    Number(saves(b)) - Number(saves(a)) ||
    (b.impact?.ms ?? 0) - (a.impact?.ms ?? 0) ||
    (b.impact?.bytes ?? 0) - (a.impact?.bytes ?? 0) ||
    SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
    categoryRank(a.category) - categoryRank(b.category) ||
    a.code.localeCompare(b.code)
  );
}

/** The findings in order, the first FIX_FIRST of those that save something numbered 1, 2, 3 (`priority`). */
export function orderFindings(findings: readonly Finding[]): Finding[] {
  let rank = 0;
  return [...findings].sort(compareFindings).map((finding) => {
    const { priority: _old, ...rest } = finding;
    return saves(finding) && rank < FIX_FIRST ? { ...rest, priority: ++rank } : rest;
  });
}
