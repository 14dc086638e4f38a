import type { Locale } from '../../core/i18n/locale.ts';

/** The words of "Your data" (/settings/data): the download and the deletion of the account, in English and German. */
const en = {
  title: 'Your data',
  exportTitle: 'Download my data',
  exportIntro:
    'One JSON file with your account, every scan with its result, your targets, alerts, live-data sites with their daily figures, notification settings, API tokens and authorised apps. It holds no password, token or signing secret.',
  exportButton: 'Download my data',
  exportUnavailable:
    'Your live data cannot be read right now, so no download was made (it would have been incomplete). Please try again in a few minutes.',
  deleteTitle: 'Delete my account',
  deleteIntro:
    'This deletes your account and everything in it for good: scans and their reports and images, targets and their schedules, alerts, live-data sites and their measurements, notification settings and deliveries, API tokens and authorised apps. You are signed out at once and cannot sign in again; the rest is removed within minutes.',
  deleteHint: 'Download your data first if you want to keep it.',
  password: 'Your current password',
  confirmation: (email: string) => `To confirm, type your e-mail address (${email})`,
  deleteButton: 'Delete my account permanently',
  wrongPassword: 'That is not your current password.',
  confirmationMismatch: 'Type the e-mail address of this account exactly as shown.',
  throttled: 'Too many wrong passwords.',
  tryAgainIn: (minutes: number) => `Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  deletedTitle: 'Your account is deleted',
  deletedText:
    'You are signed out and your account can no longer be used. Everything it held is being removed and will be gone within minutes.',
  home: 'Back to the home page',
};

export type DataText = typeof en;

const de: DataText = {
  title: 'Ihre Daten',
  exportTitle: 'Meine Daten herunterladen',
  exportIntro:
    'Eine JSON-Datei mit Ihrem Konto, jedem Scan mit seinem Ergebnis, Ihren Zielen, Warnungen, Live-Daten-Websites mit ihren Tageswerten, Benachrichtigungseinstellungen, API-Tokens und autorisierten Apps. Sie enthält kein Passwort, keinen Token und kein Signaturgeheimnis.',
  exportButton: 'Meine Daten herunterladen',
  exportUnavailable:
    'Ihre Live-Daten können gerade nicht gelesen werden, daher wurde kein Download erstellt (er wäre unvollständig gewesen). Bitte versuchen Sie es in ein paar Minuten erneut.',
  deleteTitle: 'Mein Konto löschen',
  deleteIntro:
    'Damit löschen Sie Ihr Konto und alles darin endgültig: Scans mit ihren Berichten und Bildern, Ziele und ihre Zeitpläne, Warnungen, Live-Daten-Websites und ihre Messungen, Benachrichtigungseinstellungen und Zustellungen, API-Tokens und autorisierte Apps. Sie werden sofort abgemeldet und können sich nicht wieder anmelden; der Rest wird innerhalb weniger Minuten entfernt.',
  deleteHint: 'Laden Sie Ihre Daten vorher herunter, wenn Sie sie behalten möchten.',
  password: 'Ihr aktuelles Passwort',
  confirmation: (email: string) => `Geben Sie zur Bestätigung Ihre E-Mail-Adresse ein (${email})`,
  deleteButton: 'Mein Konto endgültig löschen',
  wrongPassword: 'Das ist nicht Ihr aktuelles Passwort.',
  confirmationMismatch: 'Geben Sie die E-Mail-Adresse dieses Kontos genau wie angezeigt ein.',
  throttled: 'Zu viele falsche Passwörter.',
  tryAgainIn: (minutes: number) => `Versuchen Sie es in ${minutes} ${minutes === 1 ? 'Minute' : 'Minuten'} erneut.`,
  deletedTitle: 'Ihr Konto ist gelöscht',
  deletedText:
    'Sie sind abgemeldet und Ihr Konto kann nicht mehr verwendet werden. Alles, was es enthielt, wird entfernt und ist in wenigen Minuten verschwunden.',
  home: 'Zur Startseite',
};

export const dataText = (locale: Locale): DataText => (locale === 'de' ? de : en);
