import { LCP_PHASES } from '../../core/rum/diagnostics.ts';
import { NAVIGATION_TYPES, RATINGS, RUM_METRICS } from '../../core/rum/metrics.ts';
import type { JsonSchema } from '../validation.ts';

/** JSON Schemas of the live-data responses (rum.ts views return exactly these; objects are closed). */
const closed = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const timestamp = { type: 'string', format: 'date-time' };
const nullable = (schema: JsonSchema): JsonSchema => ({ oneOf: [schema, { type: 'null' }] });
const metricValue = {
  type: 'number',
  description: 'Milliseconds for LCP, INP, FCP and TTFB (whole numbers); unitless for CLS (four decimals).',
};

const siteFields: Record<string, JsonSchema> = {
  id: { type: 'integer' },
  domain: {
    type: 'string',
    description: 'Host name (lower-case, IDN as punycode); beacons are accepted from it and its subdomains.',
  },
  active: { type: 'boolean', description: "False: the ingest service refuses this site's beacons." },
  embed_snippet: {
    type: 'string',
    description:
      "The script tag to paste into every page: `src` is the versioned collector script, `data-site-id` the site's public id, `async`.",
  },
  pageviews_this_month: {
    ...nullable({ type: 'integer', minimum: 0 }),
    description:
      'Page views measured this UTC month, each counted 100 / sample_rate times. Null while the live-data store is unreachable (the rest of the site is still returned).',
  },
  monthly_limit: {
    type: 'integer',
    description:
      'Page views per site and UTC month the plan includes; past it the ingest keeps 1 page view in 10, each counted 10 times (the others: `rejected_this_month.over_limit`).',
  },
  created_at: timestamp,
};

export const rumSiteSchema = closed(siteFields);

export const rumSiteDetailSchema = closed({
  ...siteFields,
  public_id: { type: 'string', description: 'Extension: the `data-site-id` of the snippet.' },
  sample_rate: {
    type: 'integer',
    minimum: 1,
    maximum: 100,
    description: 'Extension: percentage of page views the script reports.',
  },
  alert_count: {
    type: 'integer',
    description: 'Extension: live-data alert configurations of the site (GET /rum/sites/{id}/alerts).',
  },
  rejected_this_month: {
    ...nullable({ type: 'object', additionalProperties: { type: 'integer' } }),
    description:
      'Extension: beacons the ingest service refused this UTC month, by reason (`monthly_limit`, `origin`, `bot`, ...); null while the live-data store is unreachable.',
  },
  updated_at: { ...timestamp, description: 'Extension.' },
});

const metricSummary = closed({
  p75: {
    ...nullable(metricValue),
    description:
      '75th percentile (exact: the value at 0-based rank floor(0.75 × n) of the sorted samples); null without samples.',
  },
  rating: { ...nullable({ enum: [...RATINGS] }), description: "Google's rating of the p75; null without samples." },
  samples: { type: 'integer', description: 'Measurements (page views reporting the metric, resends counted once).' },
});

export const rumSummarySchema = closed({
  domain: { type: 'string' },
  period: { type: 'string' },
  device: { type: 'string' },
  cwv_pass: {
    ...nullable({ type: 'boolean' }),
    description:
      'True when LCP, CLS and INP are all good with at least 20 samples each; false when all have 20 and one is not good; null otherwise.',
  },
  cwv_insufficient_data: { type: 'boolean' },
  metrics: closed(Object.fromEntries(RUM_METRICS.map((metric) => [metric, metricSummary]))),
  navigation: {
    type: 'array',
    description:
      "Extension: page views measured in the period by navigation type, most first (not scaled by the sample rate). A single-page app's route change that the browser reports as a soft navigation is a page view of its own, `soft-navigation`.",
    items: closed({
      type: { enum: [...NAVIGATION_TYPES] },
      page_views: { type: 'integer' },
    }),
  },
});

export const rumHistoryItemSchema = closed({
  date: { type: 'string', format: 'date', description: 'UTC calendar day.' },
  p75: metricValue,
  p50: metricValue,
  samples: { type: 'integer' },
});

export const rumHistoryMetaSchema = closed({
  metric: { enum: [...RUM_METRICS] },
  days: { type: 'integer' },
  device: { type: 'string' },
});

export const rumPageItemSchema = closed(
  {
    path: { type: 'string' },
    p75: metricValue,
    samples: { type: 'integer' },
    attribution: {
      ...closed({ target: nullable({ type: 'string' }), url: nullable({ type: 'string' }) }),
      description:
        "Extension, present when the page's values carry one: the most frequent LCP element (CSS selector) and resource URL (origin and path).",
    },
  },
  ['path', 'p75', 'samples'],
);

export const rumPagesMetaSchema = closed({
  metric: { type: 'string' },
  period: { type: 'string' },
  device: { type: 'string', description: 'Extension.' },
});

const wholeMs = { type: 'integer', minimum: 0, description: 'Milliseconds.' };
const diagnosticsMeta = (extra: Record<string, JsonSchema>) =>
  closed({ period: { type: 'string' }, device: { type: 'string' }, ...extra });

export const rumInpCulpritSchema = closed({
  culprit: {
    type: 'string',
    description:
      "First party: the script's URL (origin and path); third party: the entity's name (third-party-web), or the host when it names none; inline: ''.",
  },
  kind: {
    enum: ['first-party', 'third-party', 'inline'],
    description:
      "`first-party`: a script on the site's domain or a subdomain; `third-party`: grouped by entity or host; `inline`: scripts without a URL (inline handlers, or not attributed by the browser).",
  },
  entity: { ...nullable({ type: 'string' }), description: "third-party-web's entity name, or null." },
  anchor: {
    type: 'string',
    description: "The culprit's fragment id on the web dashboard (`culprit-<slug>`), stable across periods.",
  },
  scripts: { type: 'array', items: { type: 'string' }, description: 'Script URLs seen (sorted, at most 10).' },
  function: { type: 'string', description: "The most frequent function name of its longest script ('' when none)." },
  invoker: { type: 'string', description: 'The invoker type going with `function` (`event-listener`, ...).' },
  slow_interactions: { type: 'integer', minimum: 0, description: 'Slow interactions whose scripts include it.' },
  share: { type: 'number', minimum: 0, maximum: 1, description: 'slow_interactions / all slow interactions.' },
  inp_p75: { ...wholeMs, description: "p75 of those interactions' INP (ms)." },
  script_time_p75: { ...wholeMs, description: "p75 of its scripts' time inside those interactions (ms)." },
});

export const rumInpCulpritsSchema = closed({
  slow_threshold_ms: { type: 'integer', description: 'An interaction is slow above this INP value.' },
  interactions: { type: 'integer', minimum: 0, description: 'INP measurements (resends counted once).' },
  slow_interactions: { type: 'integer', minimum: 0 },
  slow_with_scripts: {
    type: 'integer',
    minimum: 0,
    description: 'Slow interactions that carry long-animation-frame scripts (Chromium, current collectors).',
  },
  culprits: {
    type: 'array',
    items: rumInpCulpritSchema,
    description: 'Most slow interactions first (then INP p75), at most 20.',
  },
});

export const rumInpCulpritsMetaSchema = diagnosticsMeta({ path: nullable({ type: 'string' }) });

const lcpPhaseFields = {
  p75: { ...wholeMs, description: 'LCP p75 (ms).' },
  samples: { type: 'integer', minimum: 0 },
  attribution: {
    ...nullable(closed({ target: nullable({ type: 'string' }), url: nullable({ type: 'string' }) })),
    description: 'The most frequent LCP element (CSS selector) and resource URL; null when no value carries one.',
  },
  phase_samples: { type: 'integer', minimum: 0, description: 'LCP measurements that carry phases.' },
  phases: {
    ...closed(Object.fromEntries(LCP_PHASES.map((phase) => [phase, nullable(wholeMs)]))),
    description:
      'p75 of each phase (ms) over the measurements that carry phases, each on its own (they need not add up to `p75`): `ttfb` time to first byte, `delay` resource load delay, `load` resource load duration, `render` element render delay. Null without such measurements.',
  },
} satisfies Record<string, JsonSchema>;

export const rumLcpPhasesSchema = closed({
  site: { ...nullable(closed(lcpPhaseFields)), description: 'The whole site; null without LCP measurements.' },
  pages: {
    type: 'array',
    items: closed({ path: { type: 'string' }, anchor: { type: 'string' }, ...lcpPhaseFields }),
    description:
      "The slowest pages by LCP p75 (ties: more samples, then path); `anchor` is the row's fragment id on the web dashboard.",
  },
});

export const rumLcpPhasesMetaSchema = diagnosticsMeta({ limit: { type: 'integer' } });
