import type { Feature, ShownLimit } from '../../core/plans.ts';
import type { Locale } from '../../core/i18n/locale.ts';

/** The plan page's words in English and German, and the link every "over your plan" message carries. */
const en = {
  title: 'Plan and usage',
  backToSettings: 'Back to the settings',
  current: (plan: string) => `Your plan is ${plan}.`,
  usageTitle: 'Limits and what you use',
  colLimit: 'Limit',
  colUsed: 'Used',
  colAllowed: 'Your plan',
  rows: {
    apiDailyLimit: 'API calls today (UTC)',
    hourlyScanLimit: 'Scans in the last hour',
    maxTargets: 'Monitored targets',
    maxRumSites: 'Live-data sites',
    rumMonthlyPageviews: 'Live-data page views this month (UTC), per site',
  },
  unlimited: 'unlimited',
  notIncluded: 'not included',
  noSites: 'no sites',
  pageviewsAway: 'Page views cannot be read just now (the live-data store is not answering).',
  nextTitle: (plan: string) => `What ${plan} adds`,
  largest: 'You are on the largest plan.',
  limitNames: {
    apiDailyLimit: 'API calls per day',
    hourlyScanLimit: 'Scans per hour',
    maxTargets: 'Monitored targets',
    maxRunsPerScan: 'Page loads per on-demand scan',
    maxRumSites: 'Live-data sites',
    rumMonthlyPageviews: 'Live-data page views per site and month',
    lighthouseReportDays: 'Days Lighthouse’s own report is kept',
    maxFlows: 'User flows',
    maxFlowSteps: 'Steps per user flow',
  } as Record<ShownLimit, string>,
  change: (from: string, to: string) => `${from} → ${to}`,
  features: {
    api: 'The API and API tokens',
    share_links: 'Share links for reports',
    live_data: 'Live data from your visitors',
    scan_auth: 'Scans of pages behind a login',
    webhooks: 'Webhooks',
    oauth_authorize: 'Apps and AI assistants through OAuth',
    flows: 'User flows: journeys through a site measured step by step',
  } as Record<Feature, string>,
  requestTitle: 'Ask for an upgrade',
  requestIntro: 'We change plans by hand. Tell us which plan you want; we answer by e-mail.',
  wanted: 'Plan you want',
  message: 'Message (optional)',
  send: 'Send the request',
  requestOff: 'Plan changes cannot be requested here on this server; ask its operators.',
  sent: (plan: string) => `Your request for ${plan} was sent. We will answer by e-mail.`,
  throttled: (until: string) =>
    `You asked for a plan change less than a day ago; one request a day is enough for us to see it. You can send another after ${until}.`,
  notSent: 'The request could not be sent just now; nothing was recorded. Please try again in a few minutes.',
  invalidPlan: 'Choose one of the plans listed.',
  messageTooLong: (max: number) => `At most ${max} characters.`,
  /** Beside every "over your plan" message of the web area. */
  planLink: 'See your plan and ask for an upgrade',
};

type Labels = typeof en;

const de: Labels = {
  title: 'Tarif und Nutzung',
  backToSettings: 'Zurück zu den Einstellungen',
  current: (plan) => `Ihr Tarif ist ${plan}.`,
  usageTitle: 'Grenzen und Ihre Nutzung',
  colLimit: 'Grenze',
  colUsed: 'Genutzt',
  colAllowed: 'Ihr Tarif',
  rows: {
    apiDailyLimit: 'API-Aufrufe heute (UTC)',
    hourlyScanLimit: 'Scans in der letzten Stunde',
    maxTargets: 'Überwachte Ziele',
    maxRumSites: 'Live-Daten-Sites',
    rumMonthlyPageviews: 'Live-Daten-Seitenaufrufe in diesem Monat (UTC), je Site',
  },
  unlimited: 'unbegrenzt',
  notIncluded: 'nicht enthalten',
  noSites: 'keine Sites',
  pageviewsAway: 'Die Seitenaufrufe können gerade nicht gelesen werden (der Live-Daten-Speicher antwortet nicht).',
  nextTitle: (plan) => `Was ${plan} hinzufügt`,
  largest: 'Sie haben den größten Tarif.',
  limitNames: {
    apiDailyLimit: 'API-Aufrufe pro Tag',
    hourlyScanLimit: 'Scans pro Stunde',
    maxTargets: 'Überwachte Ziele',
    maxRunsPerScan: 'Seitenaufrufe pro Scan auf Abruf',
    maxRumSites: 'Live-Daten-Sites',
    rumMonthlyPageviews: 'Live-Daten-Seitenaufrufe je Site und Monat',
    lighthouseReportDays: 'Tage, die der eigene Lighthouse-Bericht aufbewahrt wird',
    maxFlows: 'User-Flows',
    maxFlowSteps: 'Schritte je User-Flow',
  },
  change: (from, to) => `${from} → ${to}`,
  features: {
    api: 'Die API und API-Tokens',
    share_links: 'Teilen-Links für Berichte',
    live_data: 'Live-Daten Ihrer Besucher',
    scan_auth: 'Scans von Seiten hinter einer Anmeldung',
    webhooks: 'Webhooks',
    oauth_authorize: 'Apps und KI-Assistenten über OAuth',
    flows: 'User-Flows: Wege durch eine Website, Schritt für Schritt gemessen',
  },
  requestTitle: 'Upgrade anfragen',
  requestIntro: 'Wir ändern Tarife von Hand. Sagen Sie uns, welchen Tarif Sie möchten; wir antworten per E-Mail.',
  wanted: 'Gewünschter Tarif',
  message: 'Nachricht (optional)',
  send: 'Anfrage senden',
  requestOff: 'Tarifänderungen können auf diesem Server hier nicht angefragt werden; fragen Sie seine Betreiber.',
  sent: (plan) => `Ihre Anfrage für ${plan} wurde gesendet. Wir antworten per E-Mail.`,
  throttled: (until) =>
    `Sie haben vor weniger als einem Tag eine Tarifänderung angefragt; eine Anfrage pro Tag genügt, damit wir sie sehen. Eine weitere können Sie nach ${until} senden.`,
  notSent:
    'Die Anfrage konnte gerade nicht gesendet werden; es wurde nichts gespeichert. Bitte versuchen Sie es in ein paar Minuten erneut.',
  invalidPlan: 'Wählen Sie einen der aufgeführten Tarife.',
  messageTooLong: (max) => `Höchstens ${max} Zeichen.`,
  planLink: 'Ihren Tarif ansehen und ein Upgrade anfragen',
};

export const PLAN_LABELS: Record<Locale, Labels> = { en, de };
export type PlanLabels = Labels;
