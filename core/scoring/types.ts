import type { FindingItem, Savings } from '../scan/details.ts';
import type { FormFactor, ScanObservation } from '../scan/observation.ts';
import type { ScoreCategory } from './categories.ts';

export type { ScoreCategory };

/**
 * critical: users feel it now (errors, very slow, very heavy); fix first.
 * warning:  a measurable cost worth fixing.
 * info:     a hint; small or uncertain gain.
 */
export type Severity = 'critical' | 'warning' | 'info';

/**
 * What points at the cause of a finding (absent from results stored before findings had it): the form
 * factors it was seen on (absent for findings about the page as a whole, read from its responses), the
 * resources or elements behind it, Lighthouse's estimated savings per form factor, and for metric findings
 * the value measured on each form factor.
 */
export interface FindingEvidence {
  form_factors?: FormFactor[];
  items?: FindingItem[];
  savings?: Partial<Record<FormFactor, Savings>>;
  values?: Partial<Record<FormFactor, number>>;
  /** Lighthouse's specific diagnosis, each a sentence of its own (core/i18n/clues.ts). */
  clues?: Clue[];
  /** What fixing it saves, as the findings are ordered by (core/scoring/priority.ts); absent: nothing stated. */
  impact?: Impact;
}

/**
 * One piece of Lighthouse's specific diagnosis behind a finding ("the LCP image is lazy-loaded"): a code with
 * language-neutral params, worded in core/i18n/clues.ts. Its sentence follows the finding's message; its
 * recommendation, where it has one, stands in for the finding's general one.
 */
export interface Clue {
  code: string;
  params?: Record<string, string | number>;
}

/** Milliseconds on a metric (the largest of the form factors), and bytes, that fixing a finding saves; 0 for none. */
export interface Impact {
  ms: number;
  bytes: number;
}

/** Language-neutral: `params` fill the message templates (keys ending _bytes and _ms are formatted as such). */
export interface Finding extends FindingEvidence {
  category: ScoreCategory;
  code: string;
  severity: Severity;
  params: Record<string, string | number>;
  /** 1, 2, 3: the three findings that save most, to fix first (core/scoring/priority.ts); absent on the others. */
  priority?: number;
}

export interface CheckResult {
  /** 0..1 */
  score: number;
  applicable: boolean;
  findings: Finding[];
}

export interface CheckContext {
  isWordPress: boolean;
  /** When the page was scanned: checks read time from here, never from the system clock, so they stay pure. */
  scannedAt: Date;
}

/** One check: what it measures, the finding codes it can emit, and a pure function of the observation. */
export interface Check {
  id: string;
  category: ScoreCategory;
  measures: string;
  /** Weight inside its category (0: reports findings, does not move the score). */
  weight: number;
  codes: readonly string[];
  run(obs: ScanObservation, ctx: CheckContext): CheckResult;
}

/** Builds a finding of the check that emits it: its category, and only one of its own codes. */
export type FindingOf<Code extends string> = (
  code: Code,
  severity: Severity,
  params?: Record<string, string | number>,
  evidence?: FindingEvidence,
) => Finding;

export interface CheckDefinition<Code extends string> {
  id: string;
  category: ScoreCategory;
  measures: string;
  weight: number;
  codes: readonly Code[];
  run(obs: ScanObservation, ctx: CheckContext & { finding: FindingOf<Code> }): CheckResult;
}

export function defineCheck<const Code extends string>(definition: CheckDefinition<Code>): Check {
  const finding: FindingOf<Code> = (code, severity, params = {}, evidence = {}) => ({
    category: definition.category,
    code,
    severity,
    params,
    ...evidence,
  });
  return { ...definition, run: (obs, ctx) => definition.run(obs, { ...ctx, finding }) };
}

export const pass = (score = 1): CheckResult => ({ score, applicable: true, findings: [] });
export const notApplicable = (): CheckResult => ({ score: 1, applicable: false, findings: [] });
export function fail(score: number, finding: Finding): CheckResult {
  return { score, applicable: true, findings: [finding] };
}
