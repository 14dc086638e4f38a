import type { Locale } from '../../core/i18n/locale.ts';
import type { InitiatorKind, RequestPhase, RequestPriority } from '../../core/scan/details.ts';

/** The groups of requests the waterfall can be narrowed to, besides all of them: kinds of resource, then two marks. */
export const WATERFALL_FILTERS = [
  'document',
  'stylesheet',
  'script',
  'image',
  'font',
  'fetch',
  'media',
  'other',
  'blocking',
  'third-party',
] as const;
export type WaterfallFilter = (typeof WATERFALL_FILTERS)[number];

/** The request waterfall's own words (report-network.ts); the section's heading and table columns are in labels.ts. */
const waterfallEn = {
  show: 'Show',
  all: (count: string) => `All (${count})`,
  filters: {
    document: 'Documents',
    stylesheet: 'Stylesheets',
    script: 'Scripts',
    image: 'Images',
    font: 'Fonts',
    fetch: 'Fetch and XHR',
    media: 'Media',
    other: 'Other',
    blocking: 'Render-blocking',
    'third-party': 'Third parties',
  } as Record<WaterfallFilter, string>,
  filterCount: (label: string, count: string) => `${label} (${count})`,
  phases: {
    stalled: 'Stalled',
    dns: 'DNS',
    connect: 'Connect',
    tls: 'TLS',
    wait: 'Waiting (TTFB)',
    download: 'Download',
  } as Record<RequestPhase, string>,
  phasesNote:
    'Each bar is split into its phases: stalled (waiting in the browser’s network stack, for a connection for instance), DNS lookup, connecting, TLS, waiting for the first byte of the response (TTFB, sending the request included) and downloading the rest, coloured by the type of resource. A thin line before a bar: the browser held the request before starting it. The scan’s own lookups and connections to the site are shown (its network proxy makes them for the browser); DNS, connect and TLS show “none” where there were none: a name looked up before, a connection reused, plain HTTP.',
  /** Null when the load has neither moment. */
  moments: (fcp: string | null, lcp: string | null): string | null => {
    const parts = [
      fcp ? `first contentful paint came at ${fcp} (line FCP)` : null,
      lcp ? `largest contentful paint came at ${lcp} (line LCP)` : null,
    ].filter(Boolean);
    return parts.length
      ? `In this load (unthrottled), ${parts.join(' and ')}: the moments of this load, not the metric values above.`
      : null;
  },
  legend: 'Legend',
  queuedLegend: 'Held by the browser',
  blockingMark: 'Render-blocking',
  thirdPartyMark: 'Third party',
  fcpLine: 'FCP',
  lcpLine: 'LCP',
  priority: 'Priority',
  initiator: 'Initiator',
  queued: 'Held',
  none: 'none',
  priorities: { VeryHigh: 'Highest', High: 'High', Medium: 'Medium', Low: 'Low', VeryLow: 'Lowest' } as Record<
    RequestPriority,
    string
  >,
  initiators: {
    parser: 'Parser',
    script: 'Script',
    preload: 'Preload',
    redirect: 'Redirect',
    other: 'Other',
  } as Record<InitiatorKind, string>,
  renderBlocking: 'render-blocking',
  thirdParty: (entity: string) => `third party: ${entity}`,
};

const waterfallDe: typeof waterfallEn = {
  show: 'Anzeigen',
  all: (count) => `Alle (${count})`,
  filters: {
    document: 'Dokumente',
    stylesheet: 'Stylesheets',
    script: 'Skripte',
    image: 'Bilder',
    font: 'Schriften',
    fetch: 'Fetch und XHR',
    media: 'Medien',
    other: 'Sonstige',
    blocking: 'Renderblockierend',
    'third-party': 'Drittanbieter',
  },
  filterCount: (label, count) => `${label} (${count})`,
  phases: {
    stalled: 'Angehalten',
    dns: 'DNS',
    connect: 'Verbindung',
    tls: 'TLS',
    wait: 'Warten (TTFB)',
    download: 'Download',
  },
  phasesNote:
    'Jeder Balken ist in seine Phasen geteilt: angehalten (im Netzwerk-Stack des Browsers wartend, etwa auf eine Verbindung), DNS-Abfrage, Verbindungsaufbau, TLS, Warten auf das erste Byte der Antwort (TTFB, einschließlich des Sendens der Anfrage) und Laden des Rests, gefärbt nach Art der Ressource. Eine dünne Linie vor einem Balken: Der Browser hielt die Anfrage zurück, bevor er sie begann. Gezeigt werden die eigenen Abfragen und Verbindungen des Scans zur Website (sein Netzwerk-Proxy stellt sie für den Browser her); DNS, Verbindung und TLS zeigen „keine“, wo es keine gab: ein schon abgefragter Name, eine wiederverwendete Verbindung, einfaches HTTP.',
  moments: (fcp, lcp) => {
    const parts = [
      fcp ? `kam der First Contentful Paint bei ${fcp} (Linie FCP)` : null,
      lcp ? `kam der Largest Contentful Paint bei ${lcp} (Linie LCP)` : null,
    ].filter(Boolean);
    return parts.length
      ? `Bei diesem (ungedrosselten) Laden ${parts.join(' und ')}: die Zeitpunkte dieses Ladens, nicht die Messwerte oben.`
      : null;
  },
  legend: 'Legende',
  queuedLegend: 'Vom Browser zurückgehalten',
  blockingMark: 'Renderblockierend',
  thirdPartyMark: 'Drittanbieter',
  fcpLine: 'FCP',
  lcpLine: 'LCP',
  priority: 'Priorität',
  initiator: 'Auslöser',
  queued: 'Zurückgehalten',
  none: 'keine',
  priorities: { VeryHigh: 'Höchste', High: 'Hoch', Medium: 'Mittel', Low: 'Niedrig', VeryLow: 'Niedrigste' },
  initiators: {
    parser: 'Parser',
    script: 'Skript',
    preload: 'Preload',
    redirect: 'Weiterleitung',
    other: 'Sonstiges',
  },
  renderBlocking: 'renderblockierend',
  thirdParty: (entity) => `Drittanbieter: ${entity}`,
};

export type WaterfallText = typeof waterfallEn;

export const waterfallText = (locale: Locale): WaterfallText => (locale === 'de' ? waterfallDe : waterfallEn);
