import type { LighthouseStepMode } from '../../core/flows/flow.ts';
import type { Locale } from '../../core/i18n/locale.ts';

/**
 * The flow history's words in English and German. Metric names (LCP, INP, …) stay English in both, as on the
 * report; step modes as Lighthouse's German report names them.
 */
const en = {
  title: 'History per step',
  intro: (days: number) =>
    `Each measured step over the finished runs of the last ${days} days, oldest left. A step renamed or moved starts a new series.`,
  none: (days: number) => `No finished runs in the last ${days} days.`,
  step: (position: number, name: string) => `Step ${position}: ${name}`,
  modes: { navigation: 'Navigation', timespan: 'Timespan', snapshot: 'Snapshot' } as Record<LighthouseStepMode, string>,
  runs: (n: number) => (n === 1 ? '1 run' : `${n} runs`),
  chartTitle: (metric: string, step: string) => `${metric} of “${step}”: each run`,
  noValues: 'No runs with this metric yet.',
  oneValue: (value: string, date: string) => `One run: ${value} on ${date}.`,
  trend: (first: string, last: string, n: number, from: string, to: string, low: string, high: string) =>
    `From ${first} to ${last} over ${n} runs (${from} – ${to}); lowest ${low}, highest ${high}.`,
  scoresTitle: 'Lighthouse scores',
  scores: {
    performance: 'Performance',
    accessibility: 'Accessibility',
    best_practices: 'Best practices',
    seo: 'SEO',
  },
  scoreLatest: (latest: number, low: number, high: number, n: number) =>
    n === 1 ? `${latest}` : `${latest} (lowest ${low}, highest ${high} over ${n} runs)`,
  triggers: { api: 'API', web: 'web area', schedule: 'schedule' } as Record<string, string>,
};

const de: typeof en = {
  title: 'Verlauf je Schritt',
  intro: (days: number) =>
    `Jeder gemessene Schritt über die abgeschlossenen Läufe der letzten ${days} Tage, die ältesten links. Ein umbenannter oder verschobener Schritt beginnt eine neue Reihe.`,
  none: (days: number) => `Keine abgeschlossenen Läufe in den letzten ${days} Tagen.`,
  step: (position: number, name: string) => `Schritt ${position}: ${name}`,
  modes: { navigation: 'Navigation', timespan: 'Zeitspanne', snapshot: 'Snapshot' },
  runs: (n: number) => (n === 1 ? '1 Lauf' : `${n} Läufe`),
  chartTitle: (metric: string, step: string) => `${metric} von „${step}“: jeder Lauf`,
  noValues: 'Noch keine Läufe mit diesem Messwert.',
  oneValue: (value: string, date: string) => `Ein Lauf: ${value} am ${date}.`,
  trend: (first: string, last: string, n: number, from: string, to: string, low: string, high: string) =>
    `Von ${first} auf ${last} in ${n} Läufen (${from} – ${to}); niedrigster ${low}, höchster ${high}.`,
  scoresTitle: 'Lighthouse-Bewertungen',
  scores: {
    performance: 'Leistung',
    accessibility: 'Barrierefreiheit',
    best_practices: 'Best Practices',
    seo: 'SEO',
  },
  scoreLatest: (latest: number, low: number, high: number, n: number) =>
    n === 1 ? `${latest}` : `${latest} (niedrigster ${low}, höchster ${high} in ${n} Läufen)`,
  triggers: { api: 'API', web: 'Web-Oberfläche', schedule: 'Zeitplan' },
};

export type FlowHistoryLabels = typeof en;
export const flowHistoryLabels = (locale: Locale): FlowHistoryLabels => (locale === 'de' ? de : en);
