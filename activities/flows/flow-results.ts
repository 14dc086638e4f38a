/**
 * A flow's measured steps as the outcome keeps them, read from the step results of Lighthouse's flow result
 * (`flow.createFlowResult()`). Pure: the runner calls it, unit tests may feed it stored results.
 */
import type { FlowFinding, FlowStepResult, LighthouseStepMode } from '../../core/flows/flow.ts';
import { auditEvidence, type DetailedAudit } from '../lighthouse/details.ts';

interface StepAudit extends DetailedAudit {
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  numericValue?: number;
  displayValue?: string;
}
export interface StepResult {
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; group?: string }> } | undefined>;
  audits: Record<string, StepAudit | undefined>;
}

/** What a step measured, as the runner knew it when the step ended. */
export interface MeasuredStep {
  index: number;
  mode: LighthouseStepMode;
  name: string;
  url: string;
  screenshot: string | null;
}

/** Findings kept per step: the failed and improvable audits, lowest score first. */
export const MAX_FINDINGS = 30;
/** Below this score an audit is improvable (Lighthouse's own "passed" threshold). */
const PASSED_SCORE = 0.9;
const SCORED_MODES = new Set(['binary', 'numeric', 'metricSavings']);

const METRIC_AUDITS: Record<LighthouseStepMode, Partial<Record<keyof FlowStepResult['metrics'], string[]>>> = {
  navigation: {
    lcp_ms: ['largest-contentful-paint'],
    fcp_ms: ['first-contentful-paint'],
    tbt_ms: ['total-blocking-time'],
    cls: ['cumulative-layout-shift'],
    speed_index_ms: ['speed-index'],
    ttfb_ms: ['server-response-time'],
  },
  // Lighthouse 13 calls it interaction-to-next-paint; earlier versions had the experimental- name.
  timespan: {
    inp_ms: ['interaction-to-next-paint', 'experimental-interaction-to-next-paint'],
    cls: ['cumulative-layout-shift'],
    tbt_ms: ['total-blocking-time'],
  },
  snapshot: {},
};

const percent = (score: number | null | undefined) => (typeof score === 'number' ? Math.round(score * 100) : null);

function scores(lhr: StepResult, mode: LighthouseStepMode): FlowStepResult['scores'] {
  return {
    // Outside a navigation Lighthouse's performance is a count of passed audits, not a score.
    performance: mode === 'navigation' ? percent(lhr.categories.performance?.score) : null,
    accessibility: percent(lhr.categories.accessibility?.score),
    best_practices: percent(lhr.categories['best-practices']?.score),
    seo: percent(lhr.categories.seo?.score),
  };
}

function metrics(lhr: StepResult, mode: LighthouseStepMode): FlowStepResult['metrics'] {
  const out: FlowStepResult['metrics'] = {};
  for (const [key, ids] of Object.entries(METRIC_AUDITS[mode])) {
    const audit = ids.map((id) => lhr.audits[id]).find((a) => a !== undefined);
    const value = audit?.numericValue;
    out[key as keyof FlowStepResult['metrics']] =
      typeof value === 'number' ? (key === 'cls' ? Math.round(value * 1000) / 1000 : Math.round(value)) : null;
  }
  return out;
}

function findings(lhr: StepResult): FlowFinding[] {
  // Metrics are the step's numbers already; the findings are what to do about them.
  const metricIds = new Set(
    Object.values(lhr.categories).flatMap(
      (c) => c?.auditRefs.filter((r) => r.group === 'metrics').map((r) => r.id) ?? [],
    ),
  );
  const inCategory = new Set(Object.values(lhr.categories).flatMap((c) => c?.auditRefs.map((r) => r.id) ?? []));
  return Object.entries(lhr.audits)
    .filter(
      (entry): entry is [string, StepAudit] =>
        entry[1] !== undefined &&
        inCategory.has(entry[0]) &&
        !metricIds.has(entry[0]) &&
        SCORED_MODES.has(entry[1].scoreDisplayMode) &&
        typeof entry[1].score === 'number' &&
        entry[1].score < PASSED_SCORE,
    )
    .sort(([, a], [, b]) => (a.score ?? 0) - (b.score ?? 0))
    .slice(0, MAX_FINDINGS)
    .map(([id, audit]) => ({
      id,
      title: audit.title,
      score: audit.score,
      display_value: audit.displayValue ?? null,
      // The report's items (url, element, bytes, ms; DETAIL_LIMITS.items of them), flat: read without an audit id,
      // they have none of the lists a scan's clues add.
      items: (auditEvidence(audit)?.items ?? []).map(
        ({ box: _box, fixes: _fixes, signals: _signals, copies: _copies, facades: _facades, ...item }) => item,
      ),
    }));
}

/** One measured step's result from its Lighthouse result. */
export function stepResult(step: MeasuredStep, lhr: StepResult): FlowStepResult {
  return {
    index: step.index,
    mode: step.mode,
    name: step.name,
    url: step.url,
    scores: scores(lhr, step.mode),
    metrics: metrics(lhr, step.mode),
    findings: findings(lhr),
    screenshot: step.screenshot,
  };
}
