import type { Locale } from '../../core/i18n/locale.ts';
import type { RumAlertMode, RumAlertStatus } from '../../core/rum/alert-check.ts';

/** The live-data alerts page's words in English and German. */
const en = {
  title: (domain: string) => `Live-data alerts: ${domain}`,
  intro:
    'Every 5 minutes the service computes each metric’s 75th percentile over the alert’s window. After the set number of checks in a row above the threshold the alert triggers (e-mail and the rum.alert.triggered webhook); after as many checks in a row below it, it resolves.',
  backToDashboard: 'Back to the dashboard',
  alertsLink: (n: number) => (n === 0 ? 'Alerts' : `Alerts (${n})`),
  yours: 'Alert configurations',
  none: 'No alerts for this site yet. Add one below.',
  modes: { auto: 'Automatic (Core Web Vitals)', manual: 'Own threshold' } as Record<RumAlertMode, string>,
  autoRule: 'LCP, INP or CLS rated poor (p75 above 4 s, 500 ms or 0.25)',
  manualRule: (metric: string, threshold: string) => `${metric} p75 above ${threshold}`,
  statuses: { active: 'Watching', triggered: 'Triggered', resolved: 'Resolved' } as Record<RumAlertStatus, string>,
  window: (minutes: number) => `over the last ${minutes} minutes`,
  conditions: (samples: number, checks: number) =>
    `at least ${samples} measurements, ${checks} ${checks === 1 ? 'check' : 'checks'} in a row`,
  lastCheck: (p75: string, metric: string, samples: number, when: string) =>
    `Last check: ${metric} p75 ${p75} from ${samples} measurements, ${when}.`,
  notChecked: 'Not checked yet.',
  triggeredAt: (when: string, metric: string) => `Triggered ${when} on ${metric}.`,
  emailedAt: (when: string) => `E-mail sent ${when}.`,
  resolvedAt: (when: string) => `Resolved ${when}.`,
  remove: 'Delete',
  removeQuestion: (title: string) => `Delete the alert “${title}”?`,
  removeConfirm: 'Yes, delete this alert',
  add: 'Add an alert',
  fieldTitle: 'Title',
  fieldMode: 'What to watch',
  fieldMetric: 'Metric (own threshold only)',
  fieldThreshold: 'Threshold (ms; a score for CLS)',
  fieldWindow: 'Window (minutes, 5 to 1440)',
  fieldSamples: 'Fewest measurements in the window (1 to 100,000)',
  fieldChecks: 'Checks in a row (1 to 12)',
  addButton: 'Add alert',
  errors: {
    title: 'Enter a title of at most 200 characters.',
    metric: 'Choose the metric for your own threshold.',
    threshold: 'Enter a positive number within the metric’s range.',
    window_minutes: 'Enter a whole number of minutes from 5 to 1440.',
    min_samples: 'Enter a whole number from 1 to 100,000.',
    consecutive_threshold: 'Enter a whole number from 1 to 12.',
  } as Record<string, string>,
  notices: { added: 'Alert added.', removed: 'Alert deleted.' },
};

export type AlertLabels = typeof en;

const de: AlertLabels = {
  title: (domain) => `Live-Daten-Alarme: ${domain}`,
  intro:
    'Alle 5 Minuten berechnet der Dienst das 75. Perzentil jeder Metrik über das Zeitfenster des Alarms. Nach der eingestellten Zahl von Prüfungen in Folge über der Schwelle wird der Alarm ausgelöst (E-Mail und Webhook rum.alert.triggered); nach ebenso vielen Prüfungen in Folge darunter ist er behoben.',
  backToDashboard: 'Zurück zum Dashboard',
  alertsLink: (n) => (n === 0 ? 'Alarme' : `Alarme (${n})`),
  yours: 'Alarmeinstellungen',
  none: 'Noch keine Alarme für diese Site. Legen Sie unten einen an.',
  modes: { auto: 'Automatisch (Core Web Vitals)', manual: 'Eigene Schwelle' },
  autoRule: 'LCP, INP oder CLS schlecht (p75 über 4 s, 500 ms oder 0,25)',
  manualRule: (metric, threshold) => `${metric} p75 über ${threshold}`,
  statuses: { active: 'Beobachtet', triggered: 'Ausgelöst', resolved: 'Behoben' },
  window: (minutes) => `in den letzten ${minutes} Minuten`,
  conditions: (samples, checks) =>
    `mindestens ${samples} Messungen, ${checks} ${checks === 1 ? 'Prüfung' : 'Prüfungen'} in Folge`,
  lastCheck: (p75, metric, samples, when) => `Letzte Prüfung: ${metric} p75 ${p75} aus ${samples} Messungen, ${when}.`,
  notChecked: 'Noch nicht geprüft.',
  triggeredAt: (when, metric) => `Ausgelöst ${when} durch ${metric}.`,
  emailedAt: (when) => `E-Mail gesendet ${when}.`,
  resolvedAt: (when) => `Behoben ${when}.`,
  remove: 'Löschen',
  removeQuestion: (title) => `Den Alarm „${title}“ löschen?`,
  removeConfirm: 'Ja, diesen Alarm löschen',
  add: 'Alarm anlegen',
  fieldTitle: 'Titel',
  fieldMode: 'Was beobachtet wird',
  fieldMetric: 'Metrik (nur bei eigener Schwelle)',
  fieldThreshold: 'Schwelle (ms; bei CLS ein Wert)',
  fieldWindow: 'Zeitfenster (Minuten, 5 bis 1440)',
  fieldSamples: 'Mindestzahl an Messungen im Zeitfenster (1 bis 100.000)',
  fieldChecks: 'Prüfungen in Folge (1 bis 12)',
  addButton: 'Alarm anlegen',
  errors: {
    title: 'Geben Sie einen Titel mit höchstens 200 Zeichen ein.',
    metric: 'Wählen Sie die Metrik für Ihre eigene Schwelle.',
    threshold: 'Geben Sie eine positive Zahl im Bereich der Metrik ein.',
    window_minutes: 'Geben Sie eine ganze Zahl von Minuten von 5 bis 1440 ein.',
    min_samples: 'Geben Sie eine ganze Zahl von 1 bis 100.000 ein.',
    consecutive_threshold: 'Geben Sie eine ganze Zahl von 1 bis 12 ein.',
  },
  notices: { added: 'Alarm angelegt.', removed: 'Alarm gelöscht.' },
};

export const ALERT_LABELS: Record<Locale, AlertLabels> = { en, de };
export type AlertNotice = keyof AlertLabels['notices'];
