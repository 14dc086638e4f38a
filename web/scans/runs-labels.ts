import type { Locale } from '../../core/i18n/locale.ts';

/**
 * The words of the scan form's runs choice (web/scans/url-box.ts) and of a report's spread of the runs
 * (web/scans/report-spread.ts), in English and German.
 */
const en = {
  runsLabel: 'Runs',
  runsOption: (runs: number) => (runs === 1 ? '1 page load' : `${runs} page loads, median`),
  runsHint: (max: number) =>
    `Page loads per form factor (up to ${max} on your plan). With several, the report is the median run and shows the spread of all of them.`,
  runsUpgrade: (plan: string, max: number) =>
    `Your plan scans each page once per form factor. The ${plan} plan loads it up to ${max} times and reports the median run with the spread, so noise is told from change.`,
  runsRange: (max: number) => `The runs must be a whole number from 1 to ${max}.`,
  spreadTitle: 'Spread of the runs',
  spreadIntro: (runs: string) =>
    `Each metric of every page load (${runs}): the lowest to the highest, each run a dot; the large dot is the median run, whose values the report shows.`,
  runsPerFactor: (desktop: number, mobile: number) =>
    desktop === mobile ? `${desktop} per form factor` : `desktop ${desktop}, mobile ${mobile}`,
  spreadNote:
    'A run the machine was too busy to trust is drawn hollow. TTFB is measured once per scan (the page’s own response), so it has no spread.',
  metric: 'Metric',
  desktop: 'Desktop',
  mobile: 'Mobile',
  range: (min: string, max: string) => `${min} – ${max}`,
  runsList: 'Runs',
  medianMark: 'median',
  busyMark: 'machine busy',
  oneRun: 'one run',
};

type RunsText = { [K in keyof typeof en]: (typeof en)[K] extends string ? string : (typeof en)[K] };

const de: RunsText = {
  runsLabel: 'Läufe',
  runsOption: (runs: number) => (runs === 1 ? '1 Seitenaufruf' : `${runs} Seitenaufrufe, Median`),
  runsHint: (max: number) =>
    `Seitenaufrufe je Gerätetyp (bis zu ${max} in Ihrem Tarif). Bei mehreren zeigt der Bericht den mittleren Lauf (Median) und die Streuung aller Läufe.`,
  runsUpgrade: (plan: string, max: number) =>
    `Ihr Tarif lädt jede Seite einmal je Gerätetyp. Der Tarif ${plan} lädt sie bis zu ${max}-mal und zeigt den mittleren Lauf mit der Streuung, damit Messrauschen von echten Änderungen zu unterscheiden ist.`,
  runsRange: (max: number) => `Die Läufe müssen eine ganze Zahl von 1 bis ${max} sein.`,
  spreadTitle: 'Streuung der Läufe',
  spreadIntro: (runs: string) =>
    `Jeder Messwert aller Seitenaufrufe (${runs}): vom niedrigsten bis zum höchsten, jeder Lauf ein Punkt; der große Punkt ist der mittlere Lauf (Median), dessen Werte der Bericht zeigt.`,
  runsPerFactor: (desktop: number, mobile: number) =>
    desktop === mobile ? `${desktop} je Gerätetyp` : `Desktop ${desktop}, mobil ${mobile}`,
  spreadNote:
    'Ein Lauf, bei dem der Rechner zu ausgelastet war, um ihm zu trauen, ist hohl gezeichnet. TTFB wird je Scan einmal gemessen (die Antwort der Seite selbst) und hat daher keine Streuung.',
  metric: 'Messwert',
  desktop: 'Desktop',
  mobile: 'Mobil',
  range: (min: string, max: string) => `${min} – ${max}`,
  runsList: 'Läufe',
  medianMark: 'Median',
  busyMark: 'Rechner ausgelastet',
  oneRun: 'ein Lauf',
};

export const runsText = (locale: Locale): RunsText => (locale === 'de' ? de : en);
