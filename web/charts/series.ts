import { formatDate, formatDateTime } from '../../core/i18n/dates.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { ScoreThreshold } from '../../core/monitoring/thresholds.ts';

/** One scan in a score history, as the charts draw it. */
export interface ScorePoint {
  /** When the scan finished. */
  at: Date;
  /** The plotted score, 0–100; null for a scan without one (the line breaks there). */
  score: number | null;
  /**
   * The same score for each page load of the scan (median of runs); the chart draws their lowest to highest
   * as a band. Absent or a single value: no band.
   */
  runs?: readonly number[];
  /** Where the point links to (the scan's report). */
  href?: string;
  /**
   * The scoring version the score was computed with (core/scoring): scores of different versions are different
   * measures, so the line is not drawn across a change and the trend is told since the newest one.
   */
  scoringVersion?: number;
}

/** Where the scoring version changes between consecutive scored points, oldest first. */
export function versionChanges<T extends ScorePoint>(sorted: readonly T[]): Array<{ before: T; after: T }> {
  const scored = sorted.filter((p) => p.score !== null);
  const changes: Array<{ before: T; after: T }> = [];
  for (let i = 1; i < scored.length; i++) {
    const [before, after] = [scored[i - 1]!, scored[i]!];
    if (before.scoringVersion !== undefined && after.scoringVersion !== undefined)
      if (before.scoringVersion !== after.scoringVersion) changes.push({ before, after });
  }
  return changes;
}

export type ScoreStatus = 'ok' | 'warning' | 'critical';

/** Colours of the charts, each at least 3:1 against white (text colours at least 4.5:1). */
export const CHART_COLOURS = {
  line: '#0b3d91',
  ok: '#0b3d91',
  warning: '#a35a00',
  critical: '#b3261e',
  spread: '#6d8ccc',
  grid: '#d0d7de',
  axis: '#57606a',
} as const;

export const scoreStatus = (score: number, thresholds: ScoreThreshold | undefined): ScoreStatus =>
  !thresholds ? 'ok' : score < thresholds.critical ? 'critical' : score < thresholds.warning ? 'warning' : 'ok';

export const clampScore = (score: number): number => Math.max(0, Math.min(100, score));

/** Points with a valid date, oldest first (stores may hand them newest first, like the API's history). */
export function chronological<T extends ScorePoint>(points: readonly T[]): T[] {
  return points.filter((p) => !Number.isNaN(p.at.getTime())).sort((a, b) => a.at.getTime() - b.at.getTime());
}

export function runSpread(point: ScorePoint): { min: number; max: number; count: number } | null {
  const runs = (point.runs ?? []).filter((r) => Number.isFinite(r));
  if (runs.length < 2) return null;
  return { min: Math.min(...runs), max: Math.max(...runs), count: runs.length };
}

const TEXTS = {
  en: {
    title: 'Overall score history',
    none: 'No finished scans yet',
    one: (score: number, date: string) => `Overall score ${score} from one scan on ${date}`,
    steady: (score: number, n: number, range: string) => `Overall score steady at ${score} over ${n} scans (${range})`,
    trend: (first: number, last: number, n: number, range: string) =>
      `Overall score from ${first} to ${last} over ${n} scans (${range})`,
    extremes: (low: number, high: number) => `lowest ${low}, highest ${high}`,
    below: (count: number, threshold: number) =>
      `${count === 0 ? 'none' : count} below the warning threshold of ${threshold}`,
    unscored: (count: number) => `${count} ${count === 1 ? 'scan' : 'scans'} without a score`,
    versionChanged: (version: number, date: string, earlier: number) =>
      `Scoring changed to version ${version} on ${date}: the ${earlier} earlier ${earlier === 1 ? 'score is' : 'scores are'} another measure and ${earlier === 1 ? 'is' : 'are'} not counted in this trend`,
    versionMark: (version: number) => `Scoring v${version}`,
    point: (date: string, score: number) => `${date}: overall score ${score}`,
    runs: (count: number, min: number, max: number) => `${count} runs: ${min}–${max}`,
    sparkNone: 'No scans yet',
    sparkOne: (score: number) => `One scan: overall score ${score}`,
    sparkSteady: (n: number, score: number) => `Last ${n} scans: overall score steady at ${score}`,
    sparkTrend: (n: number, first: number, last: number) => `Last ${n} scans: overall score from ${first} to ${last}`,
  },
  de: {
    title: 'Verlauf des Gesamtwerts',
    none: 'Noch keine abgeschlossenen Scans',
    one: (score: number, date: string) => `Gesamtwert ${score} aus einem Scan am ${date}`,
    steady: (score: number, n: number, range: string) => `Gesamtwert konstant bei ${score} in ${n} Scans (${range})`,
    trend: (first: number, last: number, n: number, range: string) =>
      `Gesamtwert von ${first} auf ${last} in ${n} Scans (${range})`,
    extremes: (low: number, high: number) => `niedrigster ${low}, höchster ${high}`,
    below: (count: number, threshold: number) =>
      `${count === 0 ? 'keiner' : count} unter der Warnschwelle von ${threshold}`,
    unscored: (count: number) => `${count} ${count === 1 ? 'Scan' : 'Scans'} ohne Wert`,
    versionChanged: (version: number, date: string, earlier: number) =>
      `Bewertung am ${date} auf Version ${version} umgestellt: ${earlier === 1 ? 'der frühere Wert ist' : `die ${earlier} früheren Werte sind`} ein anderes Maß und ${earlier === 1 ? 'zählt' : 'zählen'} in diesem Verlauf nicht mit`,
    versionMark: (version: number) => `Bewertung v${version}`,
    point: (date: string, score: number) => `${date}: Gesamtwert ${score}`,
    runs: (count: number, min: number, max: number) => `${count} Läufe: ${min}–${max}`,
    sparkNone: 'Noch keine Scans',
    sparkOne: (score: number) => `Ein Scan: Gesamtwert ${score}`,
    sparkSteady: (n: number, score: number) => `Letzte ${n} Scans: Gesamtwert konstant bei ${score}`,
    sparkTrend: (n: number, first: number, last: number) => `Letzte ${n} Scans: Gesamtwert von ${first} auf ${last}`,
  },
} as const;

export const chartTexts = (locale: Locale) => TEXTS[locale];

/** What a point's link says: its date and score, and the runs' spread when there is one. */
export function pointLabel(point: ScorePoint & { score: number }, locale: Locale): string {
  const t = TEXTS[locale];
  const spread = runSpread(point);
  const label = t.point(formatDateTime(point.at, locale), point.score);
  return spread ? `${label} (${t.runs(spread.count, spread.min, spread.max)})` : label;
}

/**
 * The trend in one sentence, for the chart's description and caption: first and last score, how many scans
 * over which dates, the lowest and highest, and how many fell below the warning threshold.
 */
export function describeHistory(points: readonly ScorePoint[], locale: Locale, thresholds?: ScoreThreshold): string {
  const t = TEXTS[locale];
  const all = chronological(points);
  const lastChange = versionChanges(all).at(-1);
  // Only the newest scoring version's scores make the trend; earlier ones are said to be another measure.
  const sorted = lastChange ? all.filter((p) => p.at.getTime() >= lastChange.after.at.getTime()) : all;
  const scored = sorted.filter((p): p is ScorePoint & { score: number } => p.score !== null);
  const parts: string[] = [];
  if (lastChange) {
    const earlier = all.filter((p) => p.score !== null).length - scored.length;
    parts.push(t.versionChanged(lastChange.after.scoringVersion!, formatDate(lastChange.after.at, locale), earlier));
  }
  if (scored.length === 0) parts.push(t.none);
  else if (scored.length === 1) parts.push(t.one(scored[0]!.score, formatDate(scored[0]!.at, locale)));
  else {
    const scores = scored.map((p) => p.score);
    const range = `${formatDate(scored[0]!.at, locale)} – ${formatDate(scored.at(-1)!.at, locale)}`;
    const low = Math.min(...scores);
    const high = Math.max(...scores);
    if (low === high) parts.push(t.steady(low, scores.length, range));
    else parts.push(t.trend(scores[0]!, scores.at(-1)!, scores.length, range), t.extremes(low, high));
    if (thresholds) parts.push(t.below(scores.filter((s) => s < thresholds.warning).length, thresholds.warning));
  }
  const unscored = sorted.length - scored.length;
  if (unscored > 0) parts.push(t.unscored(unscored));
  return `${parts.join('; ')}.`;
}
