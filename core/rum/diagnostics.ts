import { METRIC_RULES } from './metrics.ts';

/**
 * The live-data diagnostics' rules: the phases the collector measures for LCP and INP (in the order they are
 * stored, rum_metrics.phases), the Long Animation Frames script invoker types it may send, and what counts as
 * a slow interaction. The collector, the ingest's validation, the queries and the pages all ask this module.
 */

/** LCP's four phases (web.dev's "optimize LCP"): they add up to the LCP time. */
export const LCP_PHASES = ['ttfb', 'delay', 'load', 'render'] as const;
export type LcpPhase = (typeof LCP_PHASES)[number];

/** INP's three phases: input delay, processing duration, presentation delay; they add up to the interaction's time. */
export const INP_PHASES = ['input', 'processing', 'presentation'] as const;
export type InpPhase = (typeof INP_PHASES)[number];

/** The metrics that carry phases, and their names in storage order. */
export const METRIC_PHASES = { LCP: LCP_PHASES, INP: INP_PHASES } as const;
export type PhasedMetric = keyof typeof METRIC_PHASES;

export function isPhasedMetric(metric: string): metric is PhasedMetric {
  return metric in METRIC_PHASES;
}

/** PerformanceScriptTiming.invokerType values. */
export const SCRIPT_INVOKER_TYPES = [
  'classic-script',
  'module-script',
  'event-listener',
  'user-callback',
  'resolve-promise',
  'reject-promise',
] as const;

/** An interaction is slow when its INP value is above Google's "good" threshold (200 ms). */
export const SLOW_INTERACTION_MS = METRIC_RULES.INP.good;

/** A phase value above the metric's own plausible maximum is refused like the metric itself. */
export function phaseMax(metric: PhasedMetric): number {
  return METRIC_RULES[metric].max;
}
