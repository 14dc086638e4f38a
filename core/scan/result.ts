import { SCORE_CATEGORIES, type ScanScores, type ScoreCategory } from '../scoring/categories.ts';
import type { Scored } from '../scoring/index.ts';
import type { Finding } from '../scoring/types.ts';

export type { ScanScores };
import type { Diagnostics, NetworkBreakdown } from './details.ts';
import { scanLighthouse, type ScanLighthouse } from './lighthouse-categories.ts';
import {
  FORM_FACTORS,
  type FormFactor,
  type FormFactorObservation,
  type PageObservation,
  type ScanObservation,
} from './observation.ts';

/**
 * What is stored for a finished scan: language-neutral (findings as codes and parameters, images as asset
 * names). The API and the report pages localise and turn asset names into URLs when they read it.
 */

export interface FormFactorMetrics {
  fcp_ms: number;
  lcp_ms: number;
  cls: number;
  tbt_ms: number;
  request_count: number;
  total_bytes: number;
}

export type FrameEvent = 'fcp' | 'lcp' | null;
export interface FilmstripFrame {
  asset: string;
  ms: number;
  event: FrameEvent;
}

/**
 * One page load of a form factor (a run), kept beside the result so the spread shows; the scan's own
 * metrics, findings and images are those of the run marked `median`.
 */
export interface RunRecord {
  /** Lighthouse's performance score, 0-100; null when it could not compute one. */
  performance_score: number | null;
  fcp_ms: number;
  lcp_ms: number;
  tbt_ms: number;
  cls: number;
  si_ms: number;
  interactive_ms: number;
  /** Lighthouse's CPU benchmark of the machine during the run (lower: busier). */
  benchmark_index: number | null;
  lighthouse_version: string;
  chromium_version: string;
  /** The benchmark index stayed below SCAN_MIN_BENCHMARK_INDEX: the machine was too busy to trust this run. */
  overloaded: boolean;
  /** This run is the repeat of one whose benchmark index was below the minimum. */
  repeated: boolean;
  median: boolean;
}

/** Every run of a scan, in the order loaded: each form factor's records, and each run's own overall score. */
export interface ScanRuns extends Record<FormFactor, RunRecord[]> {
  /** Run i scored as a whole scan (its desktop and mobile loads together), for the spread of the overall score. */
  overall: number[];
}

export interface ScanResultRecord {
  scoringVersion: number;
  finalUrl: string;
  finalHost: string;
  httpStatus: number;
  ttfbMs: number;
  scores: ScanScores;
  isWordPress: boolean;
  /** Categories with nothing to judge on the page (core/scoring: Scored); absent from results stored before scoring version 4. */
  notApplicable?: ScoreCategory[];
  findings: Finding[];
  metrics: Record<FormFactor, FormFactorMetrics>;
  screenshots: Record<FormFactor, string | null>;
  filmstrip: Record<FormFactor, FilmstripFrame[]>;
  lighthouseVersion: string;
  benchmarkIndex: Record<FormFactor, number | null>;
  /** Every run, in the order loaded; absent from results stored before scans had runs. */
  runs?: ScanRuns;
  /** Each form factor's LCP, layout-shift, render-blocking, third-party and main-thread breakdowns; absent from older results. */
  diagnostics?: Record<FormFactor, Diagnostics>;
  /** Each form factor's requests: the waterfall and the script and image bytes; absent from older results. Not in the API's result. */
  network?: Record<FormFactor, NetworkBreakdown>;
  /** Lighthouse's own category scores per form factor and its failed audits outside performance; absent from older results. */
  lighthouse?: ScanLighthouse;
}

/** The stored record of one run. */
export function runRecord(
  observation: FormFactorObservation,
  page: Pick<PageObservation, 'lighthouseVersion' | 'chromiumVersion'>,
  flags: Pick<RunRecord, 'overloaded' | 'repeated' | 'median'>,
): RunRecord {
  const { metrics } = observation;
  return {
    performance_score: observation.performanceScore === null ? null : Math.round(observation.performanceScore * 100),
    fcp_ms: Math.round(metrics.fcpMs),
    lcp_ms: Math.round(metrics.lcpMs),
    tbt_ms: Math.round(metrics.tbtMs),
    cls: Math.round(metrics.cls * 1000) / 1000,
    si_ms: Math.round(metrics.speedIndexMs),
    interactive_ms: Math.round(metrics.interactiveMs),
    benchmark_index: observation.benchmarkIndex === null ? null : Math.round(observation.benchmarkIndex),
    lighthouse_version: page.lighthouseVersion,
    chromium_version: page.chromiumVersion,
    ...flags,
  };
}

/**
 * Marks the filmstrip frame where first contentful paint happened (`fcp`) and the one where the largest
 * contentful paint happened (`lcp`): the first frame at or after each observed time. When both land on
 * the same frame, it is marked `lcp` (the page's main content is there; the FCP time is still reported).
 */
export function markFrames(
  frames: Array<{ asset: string; ms: number }>,
  fcpMs: number | null,
  lcpMs: number | null,
): FilmstripFrame[] {
  const firstAtOrAfter = (t: number | null) => (t === null ? -1 : frames.findIndex((f) => f.ms >= t));
  const fcpIndex = firstAtOrAfter(fcpMs);
  const lcpIndex = firstAtOrAfter(lcpMs);
  return frames.map((frame, i) => ({
    asset: frame.asset,
    ms: Math.round(frame.ms),
    event: i === lcpIndex ? 'lcp' : i === fcpIndex ? 'fcp' : null,
  }));
}

export function buildResultRecord(
  obs: ScanObservation,
  scored: Pick<Scored, 'version' | 'scores' | 'findings' | 'isWordPress' | 'notApplicable'>,
  runs?: ScanRuns,
): ScanResultRecord {
  const perFactor = <T>(fn: (factor: FormFactor) => T) =>
    Object.fromEntries(FORM_FACTORS.map((f) => [f, fn(f)])) as Record<FormFactor, T>;
  // A single run is its own median.
  runs ??= {
    ...perFactor((f) => [runRecord(obs[f], obs, { overloaded: false, repeated: false, median: true })]),
    overall: [scored.scores.overall],
  };
  return {
    scoringVersion: scored.version,
    finalUrl: obs.finalUrl,
    finalHost: new URL(obs.finalUrl).hostname,
    httpStatus: obs.httpStatus,
    ttfbMs: Math.round(obs.ttfbMs),
    scores: scored.scores,
    isWordPress: scored.isWordPress,
    notApplicable: scored.notApplicable,
    findings: scored.findings,
    metrics: perFactor((f) => ({
      fcp_ms: Math.round(obs[f].metrics.fcpMs),
      lcp_ms: Math.round(obs[f].metrics.lcpMs),
      cls: Math.round(obs[f].metrics.cls * 1000) / 1000,
      tbt_ms: Math.round(obs[f].metrics.tbtMs),
      request_count: obs[f].requestCount,
      total_bytes: Math.round(obs[f].totalBytes),
    })),
    screenshots: perFactor((f) => obs[f].screenshot),
    filmstrip: perFactor((f) => markFrames(obs[f].filmstrip, obs[f].observed.fcpMs, obs[f].observed.lcpMs)),
    lighthouseVersion: obs.lighthouseVersion,
    benchmarkIndex: perFactor((f) => obs[f].benchmarkIndex),
    runs,
    ...(FORM_FACTORS.every((f) => obs[f].diagnostics) ? { diagnostics: perFactor((f) => obs[f].diagnostics!) } : {}),
    ...(FORM_FACTORS.every((f) => obs[f].network) ? { network: perFactor((f) => obs[f].network!) } : {}),
    ...(FORM_FACTORS.every((f) => obs[f].lighthouse)
      ? { lighthouse: scanLighthouse(perFactor((f) => obs[f].lighthouse!)) }
      : {}),
  };
}

/**
 * The categories a result has nothing to judge in: those scoring stored as such (results before scoring
 * version 4 stored none), WordPress-only ones as the result's WordPress detection says.
 */
export function notApplicableCategories(r: Pick<ScanResultRecord, 'notApplicable' | 'isWordPress'>): ScoreCategory[] {
  return SCORE_CATEGORIES.filter((c) =>
    c.wordpressOnly ? !r.isWordPress : (r.notApplicable ?? []).includes(c.key),
  ).map((c) => c.key);
}
