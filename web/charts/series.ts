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
  const sorted = chronological(points);
  const scored = sorted.filter((p): p is ScorePoint & { score: number } => p.score !== null);
  const parts: string[] = [];
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
