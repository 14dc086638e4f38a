import type { Locale } from '../../core/i18n/locale.ts';
import type { Rating } from '../../core/metric-thresholds.ts';
import type { ScoreCategory } from '../../core/scoring/categories.ts';
import type { ShareRefusal } from '../../core/scan/scan.ts';

/** The scan pages' words (home, dashboard, scan list, progress, compare) in English and German. */
const en = {
  homeTitle: 'How fast is your site?',
  homeIntro:
    'Type an address: we load it in a real Chromium with Lighthouse, on desktop and on a throttled phone, and tell you the scores, the metrics that matter, a filmstrip of how the page appears and what to fix first.',
  homePoints: [
    'Scores for speed, images, caching and technical health',
    'Monitored targets scanned every day, with alerts by e-mail',
    'A REST API and webhooks for your own tools',
  ],
  urlLabel: 'Address to scan',
  urlPlaceholder: 'https://example.com/',
  scanButton: 'Scan',
  regionLabel: 'Region',
  publicLabel: 'Public report (anyone with the link can see it)',
  signInToScan: 'Sign in or create a free account to scan this address.',
  dashboardTitle: 'Dashboard',
  latestScans: 'Latest scans',
  noScans: 'No scans yet: scan an address above.',
  allScans: 'All scans',
  apiUsage: 'API usage today',
  apiUsed: (used: number, limit: string) => `${used} of ${limit} requests`,
  unlimited: 'unlimited',
  noApi: 'Your plan has no API access.',
  hourlyLimit: (limit: number, minutes: number) =>
    `You have used your ${limit} scans for this hour. Try again in ${minutes} minute(s).`,
  notStarted: 'The scan could not be started just now. Please try again in a minute.',
  scansTitle: 'Scans',
  filterUrl: 'URL contains',
  filterStatus: 'Status',
  anyStatus: 'Any',
  filter: 'Filter',
  compare: 'Compare selected',
  compareHint: 'Tick two finished scans to compare them.',
  colUrl: 'URL',
  colStatus: 'Status',
  colScore: 'Score',
  colRequested: 'Requested',
  colRegion: 'Region',
  colSelect: 'Select',
  status: { queued: 'queued', running: 'running', finished: 'finished', failed: 'failed' } as Record<string, string>,
  previous: 'Previous',
  next: 'Next',
  pageOf: (page: number, last: number) => `Page ${page} of ${last}`,
  progressTitle: 'Scanning',
  progressQueued: 'Waiting for a free scanner…',
  progressRunning: 'Loading the page in Chromium…',
  progressStep: { desktop: 'Desktop run', mobile: 'Mobile run' } as Record<string, string>,
  progressFinished: 'Finished: opening the report…',
  openReport: 'Open the report',
  progressFailed: 'The scan failed.',
  failedTitle: 'Scan failed',
  retry: 'Scan again',
  progressNoScript: 'This page refreshes every few seconds.',
  compareTitle: 'Compare scans',
  before: 'Before',
  after: 'After',
  difference: 'Difference',
  better: 'better',
  worse: 'worse',
  appeared: 'Findings that appeared',
  disappeared: 'Findings that disappeared',
  none: 'None.',
  notFinished: 'Both scans must be finished to compare them.',
  pickTwo: 'Choose exactly two scans to compare.',
  metricsTitle: 'Metrics',
  compareWholePage: 'The page’s response (measured once per scan)',
  filmstripTitle: 'Filmstrip',
  regionColumn: 'Region',
  requests: 'Requests',
  bytes: 'Transfer size',
  compareScans: 'The two scans',
  otherScoringVersion: (before: number, after: number) =>
    `These scans were scored under different scoring versions (${before} and ${after}): part of a score difference is the change of the measure, not of the page. The metrics compare as they are.`,
  scoresTitle: 'Scores',
  openReportOf: (label: string) => `${label}: open the report`,
  stripLabel: (factor: string) => `${factor}: both filmstrips on one time axis`,
  runsOverPlan: (runs: number, allowed: number, plan: string) =>
    `${runs} page loads per scan need the ${plan} plan or higher; your plan allows ${allowed}.`,
  triggers: {
    request: 'On demand',
    run_now: 'On demand',
    schedule: 'Scheduled',
    confirmation: 'Confirmation',
  } as Record<string, string>,
  triggerHint: {
    request: 'Started by hand',
    run_now: 'Started by hand with Run now of its monitored target',
    schedule: 'Started by its monitored target’s daily schedule',
    confirmation: 'Started at once by its monitored target to confirm a possible regression',
  } as Record<string, string>,
  scanAgain: 'Scan again',
  scanNow: 'Scan now',
  scanAgainHint: 'A fresh scan of this address now, with the same region and settings.',
  scanAgainTargetHint: 'Runs its monitored target now: the new scan joins the target’s history.',
  scanAgainAuth:
    'This scan signed in to the page with credentials, which are not kept after a scan: start it again through the API with them.',
  cachedNotice: (ago: string) =>
    `This is the result of a scan ${ago}. The address was scanned less than 24 hours ago, so that result was shown instead of a new scan.`,
  shareTitle: 'Share',
  reportPublic: 'This report is public: anyone with its address can open it.',
  reportPrivate: 'This report is private: at its own address only you can open it.',
  shareOn: 'Sharing is on: anyone with this link can see the report, without signing in.',
  shareOff: 'Sharing is off: no share link of this report works.',
  shareLink: 'Share link',
  copyLink: 'Copy link',
  copied: 'Copied',
  shareCreate: 'Create a share link',
  shareTurnOn: 'Turn sharing on again',
  shareTurnOff: 'Turn sharing off',
  shareSameLink: 'Turning it on again brings back the same link.',
  shareNeedsPlan: (needed: string, plan: string) =>
    `Share links come with the ${needed} plan and higher; your plan is ${plan}.`,
  shareSignedIn:
    'This scan signed in to the page: its report shows the page’s content as a signed-in visitor saw it, and its screenshots may show what only signed-in visitors see. Its credentials are redacted from the text, not from the images.',
  shareRefused: {
    credentials_found:
      'This scan cannot be shared: what was stored of it still contains its credentials in some encoding.',
    credentials_unchecked:
      'This scan cannot be shared: it signed in to the page, and what was stored of it was not checked for its credentials.',
  } as Record<ShareRefusal, string>,
  shareNotices: {
    shared: 'Sharing is on. Copy the link below.',
    unshared: 'Sharing is off: the link no longer opens the report.',
  } as Record<string, string>,
};

const de: typeof en = {
  homeTitle: 'Wie schnell ist Ihre Website?',
  homeIntro:
    'Geben Sie eine Adresse ein: Wir laden sie in einem echten Chromium mit Lighthouse, am Desktop und auf einem gedrosselten Smartphone, und zeigen Bewertungen, die wichtigen Messwerte, einen Filmstreifen des Seitenaufbaus und was zuerst zu verbessern ist.',
  homePoints: [
    'Bewertungen für Geschwindigkeit, Bilder, Caching und Technik',
    'Überwachte Ziele, täglich gescannt, mit Warnungen per E-Mail',
    'Eine REST-API und Webhooks für Ihre eigenen Werkzeuge',
  ],
  urlLabel: 'Zu scannende Adresse',
  urlPlaceholder: 'https://example.com/',
  scanButton: 'Scannen',
  regionLabel: 'Region',
  publicLabel: 'Öffentlicher Bericht (jeder mit dem Link kann ihn sehen)',
  signInToScan: 'Melden Sie sich an oder legen Sie ein kostenloses Konto an, um diese Adresse zu scannen.',
  dashboardTitle: 'Übersicht',
  latestScans: 'Letzte Scans',
  noScans: 'Noch keine Scans: Scannen Sie oben eine Adresse.',
  allScans: 'Alle Scans',
  apiUsage: 'API-Nutzung heute',
  apiUsed: (used: number, limit: string) => `${used} von ${limit} Anfragen`,
  unlimited: 'unbegrenzt',
  noApi: 'Ihr Tarif enthält keinen API-Zugang.',
  hourlyLimit: (limit: number, minutes: number) =>
    `Sie haben Ihre ${limit} Scans für diese Stunde verbraucht. Versuchen Sie es in ${minutes} Minute(n) erneut.`,
  notStarted: 'Der Scan konnte gerade nicht gestartet werden. Bitte versuchen Sie es in einer Minute erneut.',
  scansTitle: 'Scans',
  filterUrl: 'URL enthält',
  filterStatus: 'Status',
  anyStatus: 'Alle',
  filter: 'Filtern',
  compare: 'Auswahl vergleichen',
  compareHint: 'Wählen Sie zwei abgeschlossene Scans zum Vergleich.',
  colUrl: 'URL',
  colStatus: 'Status',
  colScore: 'Bewertung',
  colRequested: 'Angefordert',
  colRegion: 'Region',
  colSelect: 'Auswahl',
  status: { queued: 'wartend', running: 'läuft', finished: 'fertig', failed: 'fehlgeschlagen' } as Record<
    string,
    string
  >,
  previous: 'Zurück',
  next: 'Weiter',
  pageOf: (page: number, last: number) => `Seite ${page} von ${last}`,
  progressTitle: 'Scan läuft',
  progressQueued: 'Warten auf einen freien Scanner…',
  progressRunning: 'Die Seite wird in Chromium geladen…',
  progressStep: { desktop: 'Desktop-Durchlauf', mobile: 'Mobil-Durchlauf' } as Record<string, string>,
  progressFinished: 'Fertig: Der Bericht wird geöffnet…',
  openReport: 'Bericht öffnen',
  progressFailed: 'Der Scan ist fehlgeschlagen.',
  failedTitle: 'Scan fehlgeschlagen',
  retry: 'Erneut scannen',
  progressNoScript: 'Diese Seite aktualisiert sich alle paar Sekunden.',
  compareTitle: 'Scans vergleichen',
  before: 'Vorher',
  after: 'Nachher',
  difference: 'Differenz',
  better: 'besser',
  worse: 'schlechter',
  appeared: 'Neue Befunde',
  disappeared: 'Behobene Befunde',
  none: 'Keine.',
  notFinished: 'Beide Scans müssen abgeschlossen sein, um sie zu vergleichen.',
  pickTwo: 'Wählen Sie genau zwei Scans zum Vergleich.',
  metricsTitle: 'Messwerte',
  compareWholePage: 'Die Antwort der Seite (einmal je Scan gemessen)',
  filmstripTitle: 'Filmstreifen',
  regionColumn: 'Region',
  requests: 'Anfragen',
  bytes: 'Übertragene Daten',
  compareScans: 'Die beiden Scans',
  otherScoringVersion: (before: number, after: number) =>
    `Diese Scans wurden mit verschiedenen Bewertungsversionen bewertet (${before} und ${after}): Ein Teil des Unterschieds der Werte ist die geänderte Messung, nicht die Seite. Die Messwerte sind direkt vergleichbar.`,
  scoresTitle: 'Bewertungen',
  openReportOf: (label: string) => `${label}: Bericht öffnen`,
  stripLabel: (factor: string) => `${factor}: beide Filmstreifen auf einer Zeitachse`,
  runsOverPlan: (runs: number, allowed: number, plan: string) =>
    `${runs} Seitenaufrufe pro Scan erfordern den Tarif ${plan} oder höher; Ihr Tarif erlaubt ${allowed}.`,
  triggers: { request: 'Auf Abruf', run_now: 'Auf Abruf', schedule: 'Geplant', confirmation: 'Bestätigung' },
  triggerHint: {
    request: 'Von Hand gestartet',
    run_now: 'Von Hand mit „Jetzt scannen“ seines überwachten Ziels gestartet',
    schedule: 'Vom täglichen Zeitplan seines überwachten Ziels gestartet',
    confirmation: 'Von seinem überwachten Ziel sofort gestartet, um eine mögliche Verschlechterung zu bestätigen',
  },
  scanAgain: 'Erneut scannen',
  scanNow: 'Jetzt neu scannen',
  scanAgainHint: 'Ein neuer Scan dieser Adresse, jetzt, mit derselben Region und denselben Einstellungen.',
  scanAgainTargetHint: 'Scannt das überwachte Ziel jetzt: Der neue Scan kommt in den Verlauf des Ziels.',
  scanAgainAuth:
    'Dieser Scan hat sich mit Zugangsdaten angemeldet, die nach dem Scan nicht aufbewahrt werden: Starten Sie ihn über die API mit ihnen erneut.',
  cachedNotice: (ago: string) =>
    `Dieses Ergebnis stammt von einem Scan ${ago}. Die Adresse wurde vor weniger als 24 Stunden gescannt, daher wurde dieses Ergebnis statt eines neuen Scans gezeigt.`,
  shareTitle: 'Teilen',
  reportPublic: 'Dieser Bericht ist öffentlich: Jeder mit seiner Adresse kann ihn öffnen.',
  reportPrivate: 'Dieser Bericht ist privat: Unter seiner eigenen Adresse können nur Sie ihn öffnen.',
  shareOn: 'Teilen ist an: Jeder mit diesem Link kann den Bericht sehen, ohne Anmeldung.',
  shareOff: 'Teilen ist aus: Kein Teilen-Link dieses Berichts funktioniert.',
  shareLink: 'Teilen-Link',
  copyLink: 'Link kopieren',
  copied: 'Kopiert',
  shareCreate: 'Teilen-Link erstellen',
  shareTurnOn: 'Teilen wieder einschalten',
  shareTurnOff: 'Teilen ausschalten',
  shareSameLink: 'Beim erneuten Einschalten gilt wieder derselbe Link.',
  shareNeedsPlan: (needed: string, plan: string) =>
    `Teilen-Links gibt es ab dem Tarif ${needed}; Ihr Tarif ist ${plan}.`,
  shareSignedIn:
    'Dieser Scan hat sich auf der Seite angemeldet: Sein Bericht zeigt den Inhalt der Seite, wie ein angemeldeter Besucher ihn sah, und seine Screenshots können zeigen, was nur angemeldete Besucher sehen. Seine Zugangsdaten sind aus dem Text entfernt, nicht aus den Bildern.',
  shareRefused: {
    credentials_found:
      'Dieser Scan kann nicht geteilt werden: Was von ihm gespeichert ist, enthält seine Zugangsdaten noch in einer Kodierung.',
    credentials_unchecked:
      'Dieser Scan kann nicht geteilt werden: Er hat sich auf der Seite angemeldet, und was von ihm gespeichert ist, wurde nicht auf seine Zugangsdaten geprüft.',
  },
  shareNotices: {
    shared: 'Teilen ist an. Kopieren Sie den Link unten.',
    unshared: 'Teilen ist aus: Der Link öffnet den Bericht nicht mehr.',
  },
};

export type ScanText = typeof en;

export const scanText = (locale: Locale): ScanText => (locale === 'de' ? de : en);

/** The report's field-data part (web/scans/report-field.ts): the owner's live data beside the lab values. */
const fieldEn = {
  title: 'Lab and field',
  intro: (days: string) =>
    `Lab: this scan (Lighthouse). Field: your visitors’ browsers over the last ${days} days, all devices, the 75th percentile (as Core Web Vitals are judged).`,
  ofPage: (path: string, views: string) => `Field data of this page (${path}): ${views} measured.`,
  ofSite: (path: string, domain: string, views: string, min: string) =>
    `This page (${path}) had fewer than ${min} page views measured, so the field data is of the whole site ${domain}: ${views} measured.`,
  pageViews: (n: string) => `${n} ${n === '1' ? 'page view' : 'page views'}`,
  metric: 'Metric',
  labDesktop: 'Lab, desktop',
  labMobile: 'Lab, mobile',
  field: 'Field, p75',
  scopePage: 'this page',
  scopeSite: 'whole site',
  samples: (n: string) => `${n} ${n === '1' ? 'measurement' : 'measurements'}`,
  noValue: 'no data',
  noLab: 'not measured',
  agreementTitle: 'Where the lab and your visitors agree',
  agreementCulprit: (name: string) => `${name} is behind slow interactions of your visitors`,
  agreementFindings: (titles: string) => `— in this report: ${titles}.`,
  agreementEntity: '— this report lists it among the third parties.',
  agreementLcp: "Your visitors' LCP element on this page is the lab's:",
  inlineScripts: 'Inline scripts',
  noLabInp:
    'INP needs real interactions, which a lab run has none of; its lab stand-in is the Total Blocking Time above.',
  thresholds: (good: string, poor: string) => `good ≤ ${good}, poor > ${poor}`,
  noData: (domain: string, days: string) =>
    `Your live-data site ${domain} measured no page views in the last ${days} days. Is its snippet on the page?`,
  unavailable: 'The live data cannot be read just now; the lab values above are complete.',
  open: (domain: string) => `Open the live data of ${domain}`,
  metricNames: {
    LCP: 'Largest Contentful Paint',
    INP: 'Interaction to Next Paint',
    CLS: 'Cumulative Layout Shift',
  } as Record<'LCP' | 'INP' | 'CLS', string>,
};

const fieldDe: typeof fieldEn = {
  title: 'Labor und Feld',
  intro: (days) =>
    `Labor: dieser Scan (Lighthouse). Feld: die Browser Ihrer Besucher in den letzten ${days} Tagen, alle Geräte, das 75. Perzentil (danach werden die Core Web Vitals beurteilt).`,
  ofPage: (path, views) => `Felddaten dieser Seite (${path}): ${views} gemessen.`,
  ofSite: (path, domain, views, min) =>
    `Für diese Seite (${path}) wurden weniger als ${min} Seitenaufrufe gemessen, daher sind die Felddaten die der ganzen Website ${domain}: ${views} gemessen.`,
  pageViews: (n) => `${n} ${n === '1' ? 'Seitenaufruf' : 'Seitenaufrufe'}`,
  metric: 'Messwert',
  labDesktop: 'Labor, Desktop',
  labMobile: 'Labor, mobil',
  field: 'Feld, p75',
  scopePage: 'diese Seite',
  scopeSite: 'ganze Website',
  samples: (n) => `${n} ${n === '1' ? 'Messung' : 'Messungen'}`,
  noValue: 'keine Daten',
  noLab: 'nicht gemessen',
  agreementTitle: 'Wo Labor und Besucher übereinstimmen',
  agreementCulprit: (name: string) => `${name} steckt hinter langsamen Interaktionen Ihrer Besucher`,
  agreementFindings: (titles: string) => `– in diesem Bericht: ${titles}.`,
  agreementEntity: '– dieser Bericht führt es unter den Drittanbietern.',
  agreementLcp: 'Das LCP-Element Ihrer Besucher auf dieser Seite ist das des Labors:',
  inlineScripts: 'Inline-Skripte',
  noLabInp:
    'INP braucht echte Interaktionen, die ein Labor-Durchlauf nicht hat; sein Ersatz im Labor ist die Total Blocking Time oben.',
  thresholds: (good, poor) => `gut ≤ ${good}, schlecht > ${poor}`,
  noData: (domain, days) =>
    `Ihre Live-Daten-Website ${domain} hat in den letzten ${days} Tagen keine Seitenaufrufe gemessen. Ist ihr Snippet auf der Seite?`,
  unavailable: 'Die Live-Daten können gerade nicht gelesen werden; die Laborwerte oben sind vollständig.',
  open: (domain) => `Live-Daten von ${domain} öffnen`,
  metricNames: fieldEn.metricNames,
};

export type ReportFieldText = typeof fieldEn;

export const reportFieldText = (locale: Locale): ReportFieldText => (locale === 'de' ? fieldDe : fieldEn);

/** The report's at-a-glance parts: rated metric values, the request waterfall, the script and image bytes. */
const glanceEn = {
  ratings: { good: 'good', 'needs-improvement': 'needs improvement', poor: 'poor' } as Record<Rating, string>,
  thresholds: (good: string, poor: string) => `good ≤ ${good}, poor > ${poor}`,
  ratingNote:
    'Each value is rated good, needs improvement or poor by the thresholds under its name: Core Web Vitals for LCP, CLS and FCP, Lighthouse for TBT.',
  wordpressNotDetected: 'not detected',
  notApplicable: 'not applicable',
  factors: { desktop: 'Desktop', mobile: 'Mobile' },
  network: 'Requests',
  networkNote: (limit: number) =>
    `The requests Lighthouse recorded while loading the page (unthrottled), in the order they started; at most the first ${limit} are shown.`,
  networkSummary: (count: number, shown: string, bytes: string, end: string) =>
    `${shown} ${count === 1 ? 'request' : 'requests'}, ${bytes}; the last one ended at ${end}.`,
  networkCapped: (shown: number, count: number) => `Showing the first ${shown} of ${count} requests.`,
  waterfall: (factor: string) => `${factor}: request waterfall`,
  number: 'No.',
  url: 'URL',
  type: 'Type',
  size: 'Transferred',
  start: 'Start',
  duration: 'Duration',
  noResponse: 'no response',
  types: {
    Document: 'Document',
    Stylesheet: 'Stylesheet',
    Script: 'Script',
    Image: 'Image',
    Font: 'Font',
    Fetch: 'Fetch',
    XHR: 'XHR',
    Media: 'Media',
    Other: 'Other',
  } as Record<string, string>,
  scripts: (count: number, shown: string, bytes: string) =>
    `JavaScript: ${shown} ${count === 1 ? 'script' : 'scripts'}, ${bytes}`,
  images: (count: number, shown: string, bytes: string) =>
    `Images: ${shown} ${count === 1 ? 'image' : 'images'}, ${bytes}`,
  largest: (shown: number) => `the ${shown} largest`,
  decoded: 'Uncompressed',
  unused: 'Unused during load',
  share: 'Share',
  noScripts: 'No scripts.',
  noImages: 'No images.',
  bytesList: (what: string) => `${what}, largest first`,
};

const glanceDe: typeof glanceEn = {
  ratings: { good: 'gut', 'needs-improvement': 'verbes\u00adserungs\u00adwürdig', poor: 'schlecht' },
  thresholds: (good, poor) => `gut ≤ ${good}, schlecht > ${poor}`,
  ratingNote:
    'Jeder Wert ist nach den Schwellen unter seinem Namen als gut, verbesserungswürdig oder schlecht bewertet: Core Web Vitals für LCP, CLS und FCP, Lighthouse für TBT.',
  wordpressNotDetected: 'nicht erkannt',
  notApplicable: 'nicht anwendbar',
  factors: { desktop: 'Desktop', mobile: 'Mobil' },
  network: 'Anfragen',
  networkNote: (limit) =>
    `Die Anfragen, die Lighthouse beim (ungedrosselten) Laden der Seite aufgezeichnet hat, in der Reihenfolge ihres Beginns; höchstens die ersten ${limit} werden gezeigt.`,
  networkSummary: (count, shown, bytes, end) =>
    `${shown} ${count === 1 ? 'Anfrage' : 'Anfragen'}, ${bytes}; die letzte endete bei ${end}.`,
  networkCapped: (shown, count) => `Gezeigt werden die ersten ${shown} von ${count} Anfragen.`,
  waterfall: (factor) => `${factor}: Wasserfall der Anfragen`,
  number: 'Nr.',
  url: 'URL',
  type: 'Typ',
  size: 'Übertragen',
  start: 'Beginn',
  duration: 'Dauer',
  noResponse: 'keine Antwort',
  types: {
    Document: 'Dokument',
    Stylesheet: 'Stylesheet',
    Script: 'Skript',
    Image: 'Bild',
    Font: 'Schrift',
    Fetch: 'Fetch',
    XHR: 'XHR',
    Media: 'Medien',
    Other: 'Sonstiges',
  },
  scripts: (count, shown, bytes) => `JavaScript: ${shown} ${count === 1 ? 'Skript' : 'Skripte'}, ${bytes}`,
  images: (count, shown, bytes) => `Bilder: ${shown} ${count === 1 ? 'Bild' : 'Bilder'}, ${bytes}`,
  largest: (shown) => `die ${shown} größten`,
  decoded: 'Unkomprimiert',
  unused: 'Beim Laden ungenutzt',
  share: 'Anteil',
  noScripts: 'Keine Skripte.',
  noImages: 'Keine Bilder.',
  bytesList: (what) => `${what}, die größten zuerst`,
};

export type GlanceText = typeof glanceEn;

export const glanceText = (locale: Locale): GlanceText => (locale === 'de' ? glanceDe : glanceEn);

/** How a category with nothing to judge reads: WordPress on another site is "not detected", others "not applicable". */
export const notApplicableText = (category: ScoreCategory, locale: Locale): string =>
  category === 'wordpress' ? glanceText(locale).wordpressNotDetected : glanceText(locale).notApplicable;

/** The report page's part on Lighthouse's own report (web/scans/report-lighthouse.ts), in English and German. */
const lighthouseEn = {
  title: 'Lighthouse’s own report',
  formFactor: { desktop: 'Desktop', mobile: 'Mobile' } as Record<'desktop' | 'mobile', string>,
  intro:
    'The full Lighthouse report of the run the values above come from, as Lighthouse shows it, and its JSON result to download (for Lighthouse’s viewer or your own tools).',
  view: (factor: string) => `${factor}: view the Lighthouse report`,
  download: (factor: string) => `${factor}: download the JSON`,
  size: (size: string) => `(${size})`,
  keptUntil: (date: string) => `Kept until ${date}.`,
  notKept:
    'Lighthouse’s own report is not available for this scan: it is kept for a limited time after the scan, depending on the plan.',
};

const lighthouseDe: typeof lighthouseEn = {
  title: 'Der vollständige Lighthouse-Bericht',
  formFactor: { desktop: 'Desktop', mobile: 'Mobil' },
  intro:
    'Der vollständige Lighthouse-Bericht des Durchlaufs, aus dem die Werte oben stammen, so wie Lighthouse ihn zeigt, und sein JSON-Ergebnis zum Herunterladen (für den Lighthouse Viewer oder eigene Werkzeuge).',
  view: (factor: string) => `${factor}: Lighthouse-Bericht ansehen`,
  download: (factor: string) => `${factor}: JSON herunterladen`,
  size: (size: string) => `(${size})`,
  keptUntil: (date: string) => `Aufbewahrt bis ${date}.`,
  notKept:
    'Der Lighthouse-Bericht ist für diesen Scan nicht mehr verfügbar: Er wird je nach Tarif eine begrenzte Zeit nach dem Scan aufbewahrt.',
};

export type LighthouseReportText = typeof lighthouseEn;

export const lighthouseReportText = (locale: Locale): LighthouseReportText =>
  locale === 'de' ? lighthouseDe : lighthouseEn;

/** The compare page's verdicts: each difference as better, worse or no significant change, and the rule that said so. */
const verdictEn = {
  verdict: { better: 'better', worse: 'worse', no_significant_change: 'no significant change' },
  rankTest: (p: string, shift: string, runs: string) => `rank test over ${runs}: ${p}, shift ${shift}`,
  underFloor: (floor: string) => `, under the ${floor} that counts as a change`,
  runs: (before: number, after: number) => `${before} vs ${after} runs`,
  bandDefault: (band: string) => `within ±${band} is noise (the default band)`,
  bandLearned: (band: string, scans: number) => `within ±${band} is noise (learned from this address’s ${scans} scans)`,
  rulesNote:
    'Several runs on each side: a rank test (Mann-Whitney, one-sided p ≤ 0.05) and a shift at least as large as the metric’s smallest meaningful change. Otherwise a difference inside the metric’s noise band is no significant change.',
};

const verdictDe: typeof verdictEn = {
  verdict: { better: 'besser', worse: 'schlechter', no_significant_change: 'keine deutliche Änderung' },
  rankTest: (p: string, shift: string, runs: string) => `Rangtest über ${runs}: ${p}, Verschiebung ${shift}`,
  underFloor: (floor: string) => `, unter den ${floor}, die als Änderung zählen`,
  runs: (before: number, after: number) => `${before} gegen ${after} Durchläufe`,
  bandDefault: (band: string) => `innerhalb ±${band} ist Rauschen (Standardband)`,
  bandLearned: (band: string, scans: number) =>
    `innerhalb ±${band} ist Rauschen (gelernt aus ${scans} Scans dieser Adresse)`,
  rulesNote:
    'Mehrere Durchläufe auf beiden Seiten: ein Rangtest (Mann-Whitney, einseitig p ≤ 0,05) und eine Verschiebung mindestens so groß wie die kleinste bedeutsame Änderung des Messwerts. Sonst ist ein Unterschied innerhalb des Rauschbands des Messwerts keine deutliche Änderung.',
};

export type VerdictText = typeof verdictEn;

export const verdictText = (locale: Locale): VerdictText => (locale === 'de' ? verdictDe : verdictEn);
