import type { Locale } from '../core/i18n/locale.ts';

/** The web area's own words (findings, summaries and failures have theirs in core/i18n). */
const EN = {
  tagline: 'Web performance scans with Lighthouse: scores, metrics, filmstrips and what to fix.',
  navLabel: 'Main', navDashboard: 'Dashboard', navScans: 'Scans', navTargets: 'Targets', navAlerts: 'Alerts', navLive: 'Live data', navSettings: 'Settings',
  signIn: 'Sign in', signUp: 'Sign up', signOut: 'Sign out', skip: 'Skip to content', switchTo: 'Deutsch',
  unread: (n: number) => `${n} unread`,
  signInTitle: 'Sign in', email: 'E-mail', password: 'Password', noAccount: 'No account yet?', haveAccount: 'Already have an account?',
  signUpTitle: 'Create an account', name: 'Name', passwordRule: 'Password (at least 10 characters)', createAccount: 'Create account',
  homeTitle: 'How fast is your site?',
  homeIntro: 'Type an address: we load it in a real Chromium with Lighthouse, on desktop and on a throttled phone, and tell you the scores, the metrics that matter, a filmstrip of how the page appears and what to fix first.',
  homePoints: ['Scores for speed, images, caching and technical health', 'Monitored targets scanned every day, with alerts by e-mail', 'A REST API and webhooks for your own tools'],
  urlLabel: 'Address to scan', urlPlaceholder: 'https://example.com/', scanButton: 'Scan', regionLabel: 'Region', publicLabel: 'Public report (anyone with the link can see it)',
  signInToScan: 'Sign in or create a free account to scan this address.',
  dashboardTitle: 'Dashboard', latestScans: 'Latest scans', noScans: 'No scans yet: scan an address above.', allScans: 'All scans',
  apiUsage: 'API usage today', apiUsed: (used: number, limit: string) => `${used} of ${limit} requests`, unlimited: 'unlimited', noApi: 'Your plan has no API access.',
  hourlyLimit: (limit: number, minutes: number) => `You have used your ${limit} scans for this hour. Try again in ${minutes} minute(s).`,
  notStarted: 'The scan could not be started just now. Please try again in a minute.',
  scansTitle: 'Scans', filterUrl: 'URL contains', filterStatus: 'Status', anyStatus: 'Any', filter: 'Filter', compare: 'Compare selected',
  compareHint: 'Tick two finished scans to compare them.',
  colUrl: 'URL', colStatus: 'Status', colScore: 'Score', colRequested: 'Requested', colRegion: 'Region', colSelect: 'Select',
  status: { queued: 'queued', running: 'running', finished: 'finished', failed: 'failed' } as Record<string, string>,
  previous: 'Previous', next: 'Next', pageOf: (page: number, last: number) => `Page ${page} of ${last}`,
  progressTitle: 'Scanning', progressQueued: 'Waiting for a free scanner…', progressRunning: 'Loading the page in Chromium…',
  progressStep: { desktop: 'Desktop run', mobile: 'Mobile run' } as Record<string, string>,
  progressFinished: 'Finished: opening the report…', openReport: 'Open the report', progressFailed: 'The scan failed.', retry: 'Scan again',
  progressNoScript: 'This page refreshes every few seconds.',
  compareTitle: 'Compare scans', before: 'Before', after: 'After', difference: 'Difference', better: 'better', worse: 'worse',
  appeared: 'Findings that appeared', disappeared: 'Findings that disappeared', none: 'None.', notFinished: 'Both scans must be finished to compare them.',
  pickTwo: 'Choose exactly two scans to compare.',
  liveTitle: 'Live data', liveSoon: 'Real-user data (Core Web Vitals from your visitors) is not available yet. It will appear here once live-data sites can be created.',
};

type Text = typeof EN;
export type WebText = Text;

const DE: Text = {
  tagline: 'Web-Performance-Scans mit Lighthouse: Bewertungen, Messwerte, Filmstreifen und was zu verbessern ist.',
  navLabel: 'Haupt', navDashboard: 'Übersicht', navScans: 'Scans', navTargets: 'Ziele', navAlerts: 'Alarme', navLive: 'Live-Daten', navSettings: 'Einstellungen',
  signIn: 'Anmelden', signUp: 'Registrieren', signOut: 'Abmelden', skip: 'Zum Inhalt', switchTo: 'English',
  unread: (n: number) => `${n} ungelesen`,
  signInTitle: 'Anmelden', email: 'E-Mail', password: 'Passwort', noAccount: 'Noch kein Konto?', haveAccount: 'Schon ein Konto?',
  signUpTitle: 'Konto anlegen', name: 'Name', passwordRule: 'Passwort (mindestens 10 Zeichen)', createAccount: 'Konto anlegen',
  homeTitle: 'Wie schnell ist Ihre Website?',
  homeIntro: 'Geben Sie eine Adresse ein: Wir laden sie in einem echten Chromium mit Lighthouse, am Desktop und auf einem gedrosselten Smartphone, und zeigen Bewertungen, die wichtigen Messwerte, einen Filmstreifen des Seitenaufbaus und was zuerst zu verbessern ist.',
  homePoints: ['Bewertungen für Geschwindigkeit, Bilder, Caching und Technik', 'Überwachte Ziele, täglich gescannt, mit Warnungen per E-Mail', 'Eine REST-API und Webhooks für Ihre eigenen Werkzeuge'],
  urlLabel: 'Zu scannende Adresse', urlPlaceholder: 'https://example.com/', scanButton: 'Scannen', regionLabel: 'Region', publicLabel: 'Öffentlicher Bericht (jeder mit dem Link kann ihn sehen)',
  signInToScan: 'Melden Sie sich an oder legen Sie ein kostenloses Konto an, um diese Adresse zu scannen.',
  dashboardTitle: 'Übersicht', latestScans: 'Letzte Scans', noScans: 'Noch keine Scans: Scannen Sie oben eine Adresse.', allScans: 'Alle Scans',
  apiUsage: 'API-Nutzung heute', apiUsed: (used: number, limit: string) => `${used} von ${limit} Anfragen`, unlimited: 'unbegrenzt', noApi: 'Ihr Tarif enthält keinen API-Zugang.',
  hourlyLimit: (limit: number, minutes: number) => `Sie haben Ihre ${limit} Scans für diese Stunde verbraucht. Versuchen Sie es in ${minutes} Minute(n) erneut.`,
  notStarted: 'Der Scan konnte gerade nicht gestartet werden. Bitte versuchen Sie es in einer Minute erneut.',
  scansTitle: 'Scans', filterUrl: 'URL enthält', filterStatus: 'Status', anyStatus: 'Alle', filter: 'Filtern', compare: 'Auswahl vergleichen',
  compareHint: 'Wählen Sie zwei abgeschlossene Scans zum Vergleich.',
  colUrl: 'URL', colStatus: 'Status', colScore: 'Bewertung', colRequested: 'Angefordert', colRegion: 'Region', colSelect: 'Auswahl',
  status: { queued: 'wartend', running: 'läuft', finished: 'fertig', failed: 'fehlgeschlagen' } as Record<string, string>,
  previous: 'Zurück', next: 'Weiter', pageOf: (page: number, last: number) => `Seite ${page} von ${last}`,
  progressTitle: 'Scan läuft', progressQueued: 'Warten auf einen freien Scanner…', progressRunning: 'Die Seite wird in Chromium geladen…',
  progressStep: { desktop: 'Desktop-Durchlauf', mobile: 'Mobil-Durchlauf' } as Record<string, string>,
  progressFinished: 'Fertig: Der Bericht wird geöffnet…', openReport: 'Bericht öffnen', progressFailed: 'Der Scan ist fehlgeschlagen.', retry: 'Erneut scannen',
  progressNoScript: 'Diese Seite aktualisiert sich alle paar Sekunden.',
  compareTitle: 'Scans vergleichen', before: 'Vorher', after: 'Nachher', difference: 'Differenz', better: 'besser', worse: 'schlechter',
  appeared: 'Neue Befunde', disappeared: 'Behobene Befunde', none: 'Keine.', notFinished: 'Beide Scans müssen abgeschlossen sein, um sie zu vergleichen.',
  pickTwo: 'Wählen Sie genau zwei Scans zum Vergleich.',
  liveTitle: 'Live-Daten', liveSoon: 'Daten echter Besucher (Core Web Vitals) sind noch nicht verfügbar. Sie erscheinen hier, sobald Live-Daten-Sites angelegt werden können.',
};

const TEXT: Record<Locale, Text> = { en: EN, de: DE };

export const t = (locale: Locale): Text => TEXT[locale];
