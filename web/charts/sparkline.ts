import type { Locale } from '../../core/i18n/locale.ts';
import type { ScoreThreshold } from '../../core/monitoring/thresholds.ts';
import { html, type SafeHtml } from '../html.ts';
import { CHART_COLOURS as C, chartTexts, chronological, clampScore, scoreStatus, type ScorePoint } from './series.ts';

/**
 * A small score-history line for lists: the last `limit` scored scans, evenly spaced (oldest left), with the
 * warning threshold dashed and the latest point in its status colour. No axes, no links: an image named by a
 * sentence ("Last 14 scans: overall score from 92 to 81").
 *
 * The scale runs from a floor up to 100. A fixed 0–100 would flatten every line into a few pixels at the top;
 * the floor is 10 below the lowest score or the warning threshold, whichever is lower, rounded down to a
 * multiple of 10, so the line uses the height and always shows where it stands against the threshold.
 */
export const SPARKLINE_SIZE = { width: 140, height: 40 } as const;
const PAD = 4;

export function sparklineFloor(scores: readonly number[], thresholds?: ScoreThreshold): number {
  const lowest = Math.min(...scores.map(clampScore), thresholds ? clampScore(thresholds.warning) : 100);
  return Math.max(0, Math.min(90, Math.floor((lowest - 10) / 10) * 10));
}

export interface SparklineOptions {
  locale: Locale;
  thresholds?: ScoreThreshold;
  limit?: number;
  /** What the line is named by, instead of the overall score's sentence (another score's line). */
  label?: string;
}

export function sparklineLabel(scores: readonly number[], locale: Locale): string {
  const t = chartTexts(locale);
  if (scores.length === 0) return t.sparkNone;
  if (scores.length === 1) return t.sparkOne(scores[0]!);
  const first = scores[0]!;
  const last = scores.at(-1)!;
  return scores.every((s) => s === first)
    ? t.sparkSteady(scores.length, first)
    : t.sparkTrend(scores.length, first, last);
}

/** Coordinates of the sparkline's points (CSS pixels of the SVG), oldest first, and of the warning line. */
export function sparklineGeometry(points: readonly ScorePoint[], thresholds?: ScoreThreshold, limit = 30) {
  const scores = chronological(points)
    .map((p) => p.score)
    .filter((s): s is number => s !== null)
    .slice(-limit);
  const { width, height } = SPARKLINE_SIZE;
  const floor = sparklineFloor(scores, thresholds);
  const step = scores.length > 1 ? (width - 2 * PAD) / (scores.length - 1) : 0;
  const round = (n: number) => Math.round(n * 100) / 100;
  const yOf = (score: number) =>
    round(PAD + ((100 - Math.max(floor, clampScore(score))) / (100 - floor)) * (height - 2 * PAD));
  return {
    floor,
    points: scores.map((score, i) => ({
      x: round(scores.length > 1 ? PAD + i * step : width / 2),
      y: yOf(score),
      score,
    })),
    warningY: thresholds ? yOf(thresholds.warning) : null,
  };
}

export function sparkline(
  points: readonly ScorePoint[],
  { locale, thresholds, limit = 30, label: named }: SparklineOptions,
): SafeHtml {
  const { points: plotted, warningY } = sparklineGeometry(points, thresholds, limit);
  const label =
    named ??
    sparklineLabel(
      plotted.map((p) => p.score),
      locale,
    );
  const { width, height } = SPARKLINE_SIZE;
  if (plotted.length === 0) return html`<span class="sparkline sparkline-empty">${label}</span>`;
  const last = plotted.at(-1)!;
  return html`<svg class="sparkline" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">
    <rect x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" rx="3" fill="#fff" stroke="${C.grid}"/>
    ${warningY === null ? html`` : html`<line class="sparkline-threshold" x1="1" x2="${width - 1}" y1="${warningY}" y2="${warningY}" stroke="${C.warning}" stroke-width="1" stroke-dasharray="3 3"/>`}
    ${plotted.length > 1 ? html`<polyline points="${plotted.map((p) => `${p.x},${p.y}`).join(' ')}" fill="none" stroke="${C.line}" stroke-width="1.75" stroke-linejoin="round"/>` : html``}
    <circle class="sparkline-last" cx="${last.x}" cy="${last.y}" r="3" fill="${C[scoreStatus(last.score, thresholds)]}" stroke="#fff" stroke-width="1"/>
  </svg>`;
}
