import { formatNumber, type Locale } from '../i18n/locale.ts';
import { liveDashboardUrl } from '../links.ts';
import { OVER_LIMIT_KEEP_ONE_IN } from './over-limit.ts';
import { liveDataEmailBody } from './email-body.ts';

export interface LimitEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface LimitEmailFacts {
  siteId: number;
  domain: string;
  limit: number;
  /** YYYY-MM. */
  month: string;
}

const WORDS = {
  en: {
    subject: (f: LimitEmailFacts) => `[Live data] Monthly page-view limit reached – ${f.domain}`,
    hello: (name: string) => `Hello ${name},`,
    body: (f: LimitEmailFacts) =>
      `${f.domain} has reached its plan's limit of ${formatNumber(f.limit, 'en')} page views for ${f.month}. Until the month ends, 1 page view in ${OVER_LIMIT_KEEP_ONE_IN} is still measured (each counted ${OVER_LIMIT_KEEP_ONE_IN} times), so the dashboard and alerts keep working on a smaller sample. A larger plan or a lower sample rate keeps every page view measured.`,
    dashboard: 'Live data',
    why: (domain: string) =>
      `You receive this e-mail once a month at most, because ${domain} is one of your live-data sites.`,
  },
  de: {
    subject: (f: LimitEmailFacts) => `[Live-Daten] Monatslimit an Seitenaufrufen erreicht – ${f.domain}`,
    hello: (name: string) => `Hallo ${name},`,
    body: (f: LimitEmailFacts) =>
      `${f.domain} hat das Limit Ihres Tarifs von ${formatNumber(f.limit, 'de')} Seitenaufrufen für ${f.month} erreicht. Bis zum Monatsende wird noch 1 von ${OVER_LIMIT_KEEP_ONE_IN} Seitenaufrufen gemessen (jeder zählt ${OVER_LIMIT_KEEP_ONE_IN}-fach), so dass Dashboard und Alerts mit einer kleineren Stichprobe weiterarbeiten. Ein größerer Tarif oder eine niedrigere Abtastrate misst wieder jeden Seitenaufruf.`,
    dashboard: 'Live-Daten',
    why: (domain: string) =>
      `Sie erhalten diese E-Mail höchstens einmal im Monat, weil ${domain} eine Ihrer Live-Daten-Sites ist.`,
  },
} as const;

/** The owner's e-mail when a site reaches its monthly page-view limit, in the owner's language. */
export function composeLimitEmail(
  facts: LimitEmailFacts,
  recipient: { email: string; name: string; locale: Locale },
  baseUrl: string,
): LimitEmail {
  const words = WORDS[recipient.locale];
  const dashboard = liveDashboardUrl(baseUrl, facts.siteId);
  const message = words.body(facts);
  return {
    to: recipient.email,
    subject: words.subject(facts),
    ...liveDataEmailBody({
      locale: recipient.locale,
      hello: words.hello(recipient.name),
      message,
      dashboardLabel: words.dashboard,
      dashboardUrl: dashboard,
      why: words.why(facts.domain),
    }),
  };
}
