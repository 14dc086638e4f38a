import type { Locale } from '../core/i18n/locale.ts';

/** The frame's words (navigation, language switch, error pages) and those several features share; each feature keeps its own words beside its pages. */
const EN = {
  tagline: 'Web performance scans with Lighthouse: scores, metrics, filmstrips and what to fix.',
  navLabel: 'Main',
  navDashboard: 'Dashboard',
  navScans: 'Scans',
  navTargets: 'Targets',
  navAlerts: 'Alerts',
  navLive: 'Live data',
  navFlows: 'Flows',
  navSettings: 'Settings',
  signIn: 'Sign in',
  signUp: 'Sign up',
  signOut: 'Sign out',
  skip: 'Skip to content',
  switchTo: 'Deutsch',
  unread: (n: number) => `${n} unread`,
  unknownRegion: (region: string) => `Unknown region ${region}.`,
  unknownStatus: (status: string) => `Unknown status ${status}.`,
  errorTitles: {
    400: 'Bad request',
    403: 'Not allowed',
    404: 'Page not found',
    405: 'Method not allowed',
    413: 'Too large',
    415: 'Unsupported form',
    429: 'Too many requests',
    503: 'Unavailable',
  } as Record<number, string>,
  serverError: 'Server error',
  error: 'Error',
  requestId: 'Request id',
  backHome: 'Back to the start page',
  /** The web area's own error messages in this language (the English text is the key); others are shown as they are. */
  errorMessages: {} as Record<string, string>,
};

type Text = typeof EN;
export type WebText = Text;

const DE: Text = {
  tagline: 'Web-Performance-Scans mit Lighthouse: Bewertungen, Messwerte, Filmstreifen und was zu verbessern ist.',
  navLabel: 'Haupt',
  navDashboard: 'Übersicht',
  navScans: 'Scans',
  navTargets: 'Ziele',
  navAlerts: 'Alarme',
  navLive: 'Live-Daten',
  navFlows: 'Abläufe',
  navSettings: 'Einstellungen',
  signIn: 'Anmelden',
  signUp: 'Registrieren',
  signOut: 'Abmelden',
  skip: 'Zum Inhalt',
  switchTo: 'English',
  unread: (n: number) => `${n} ungelesen`,
  unknownRegion: (region: string) => `Unbekannte Region ${region}.`,
  unknownStatus: (status: string) => `Unbekannter Status ${status}.`,
  errorTitles: {
    400: 'Ungültige Anfrage',
    403: 'Nicht erlaubt',
    404: 'Seite nicht gefunden',
    405: 'Methode nicht erlaubt',
    413: 'Zu groß',
    415: 'Formular nicht unterstützt',
    429: 'Zu viele Anfragen',
    503: 'Nicht verfügbar',
  } as Record<number, string>,
  serverError: 'Serverfehler',
  error: 'Fehler',
  requestId: 'Anfrage-ID',
  backHome: 'Zur Startseite',
  errorMessages: {
    'Not found.': 'Diese Seite gibt es nicht, oder Sie dürfen sie nicht sehen.',
    'Method not allowed.': 'Diese Seite erlaubt diese Methode nicht.',
    'Server error.': 'Auf unserer Seite ist ein Fehler aufgetreten.',
    'Cross-site form submission refused.': 'Formulare von anderen Websites werden abgelehnt.',
    'The form has expired or did not come from this site. Reload the page and try again.':
      'Das Formular ist abgelaufen oder kam nicht von dieser Website. Laden Sie die Seite neu und versuchen Sie es erneut.',
    'The form is too large.': 'Das Formular ist zu groß.',
    'Forms must be sent as application/x-www-form-urlencoded.':
      'Formulare müssen als application/x-www-form-urlencoded gesendet werden.',
    'Something went wrong.': 'Etwas ist schiefgegangen.',
  } as Record<string, string>,
};

const TEXT: Record<Locale, Text> = { en: EN, de: DE };

export const t = (locale: Locale): Text => TEXT[locale];
