import { FAILURE_CODES } from '../../core/scan/failures.ts';
import { SCAN_TRIGGERS } from '../../core/scan/scan.ts';
import { CATEGORY_KEYS, SCORE_KEYS } from '../../core/scoring/categories.ts';
import { BFCACHE_BLOCKER_TYPES, DETAIL_LIMITS, IMAGE_FIXES, SHIFT_CAUSES } from '../../core/scan/details.ts';
import { FIX_FIRST } from '../../core/scoring/priority.ts';
import { FORM_FACTORS } from '../../core/scan/observation.ts';
import { METRIC_FIELDS } from '../../core/scan/compare.ts';
import type { Verdict } from '../../core/verdicts/verdict.ts';
import type { JsonSchema } from '../validation.ts';
import { scanLighthouseSchema } from './scan-lighthouse.ts';

/**
 * JSON Schemas of what the scan views (scans.ts) return, published in the OpenAPI document. Closed objects
 * (no other fields), so the contract tests that check real responses against them catch any drift.
 */
const closed = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const timestamp = { type: 'string', format: 'date-time' };
const url = { type: 'string', format: 'uri' };
const nullable = (schema: JsonSchema) => ({ oneOf: [schema, { type: 'null' }] });
const score = { type: 'integer', minimum: 0, maximum: 100 };
const authType = {
  enum: ['basic', 'header', null],
  description: 'How an authenticated scan signed in; the credentials never come back.',
};

export const scoresSchema = closed(Object.fromEntries(SCORE_KEYS.map((k) => [k, score])));

const formFactorMetrics = closed({
  fcp_ms: { type: 'number', minimum: 0 },
  lcp_ms: { type: 'number', minimum: 0 },
  cls: { type: 'number', minimum: 0 },
  tbt_ms: { type: 'number', minimum: 0 },
  request_count: { type: 'integer', minimum: 0 },
  total_bytes: { type: 'number', minimum: 0 },
});
const perFormFactor = (schema: JsonSchema) => closed({ desktop: schema, mobile: schema });
const frame = closed({ url, ms: { type: 'number', minimum: 0 }, event: { enum: ['fcp', 'lcp', null] } });
const bytes = { type: 'integer', minimum: 0 };
const intMs = { type: 'integer', minimum: 0 };
const formFactor = { enum: [...FORM_FACTORS] };
const box = {
  ...closed({
    top: { type: 'integer' },
    left: { type: 'integer' },
    width: { type: 'integer', minimum: 0 },
    height: { type: 'integer', minimum: 0 },
  }),
  description:
    "The element's box in CSS pixels of the page as Lighthouse laid it out for that form factor; the screenshot shows the top of the page at the form factor's viewport.",
};
const perFormFactorOptional = (schema: JsonSchema) => closed({ desktop: schema, mobile: schema }, []);
const element = closed({
  selector: { type: 'string', maxLength: DETAIL_LIMITS.text },
  snippet: {
    type: 'string',
    maxLength: DETAIL_LIMITS.snippet,
    description:
      "The element's opening HTML tag as Lighthouse gives it, cut to " + DETAIL_LIMITS.snippet + ' characters.',
  },
  label: { type: 'string' },
  box: nullable(box),
});
const findingItem = {
  ...closed(
    {
      url: { type: 'string', maxLength: DETAIL_LIMITS.text },
      selector: { type: 'string', maxLength: DETAIL_LIMITS.text },
      snippet: { type: 'string', maxLength: DETAIL_LIMITS.snippet },
      label: { type: 'string' },
      box: perFormFactorOptional(box),
      transfer_bytes: bytes,
      wasted_bytes: bytes,
      wasted_ms: intMs,
      main_thread_ms: intMs,
      form_factors: {
        type: 'array',
        items: formFactor,
        description:
          'The form factors whose Lighthouse run listed it; absent for items read from the page’s own responses.',
      },
      cause: {
        enum: [...SHIFT_CAUSES],
        description:
          'Layout shifts: what made the content move, the item naming the culprit (the image without dimensions, the web font or iframe URL); `unexplained` when Lighthouse named no cause (the item is then the element that moved).',
      },
      moved: { type: 'string', description: 'Layout shifts: the element the culprit moved (its selector).' },
      shift: { type: 'number', minimum: 0, description: 'Layout shifts: the shift score the culprit caused.' },
      fixes: {
        type: 'array',
        items: { enum: [...IMAGE_FIXES] },
        description: "Images: what would make the image smaller (Lighthouse's image delivery insight).",
      },
      file_px: {
        type: 'string',
        pattern: '^\\d+x\\d+$',
        description: 'Images shown smaller: the file’s size in pixels.',
      },
      shown_px: {
        type: 'string',
        pattern: '^\\d+x\\d+$',
        description: 'Images shown smaller: the shown size in pixels.',
      },
      signals: {
        type: 'array',
        items: { type: 'string' },
        description: 'Legacy JavaScript: the polyfills and transforms found in the script.',
      },
      copies: {
        type: 'array',
        items: { type: 'string' },
        description: 'Duplicated JavaScript: the scripts that each carry the module named in `label`.',
      },
      facades: {
        type: 'array',
        items: { type: 'string' },
        description: 'Third-party facades: facades known for the product named in `label`.',
      },
      reason: {
        type: 'string',
        description: "Back/forward cache: Chromium's reason the page was not restored (its NotRestoredReason).",
      },
      blocker: {
        enum: [...BFCACHE_BLOCKER_TYPES],
        description:
          'Back/forward cache: `actionable` (the page can fix it), `pending-support` (Chromium does not support it yet), `circumstantial`.',
      },
      end_ms: {
        ...intMs,
        description: 'Critical request chains: when the request ended, from the start of the navigation.',
      },
      line: {
        type: 'integer',
        minimum: 1,
        description:
          'document.write() calls: the line of the call in the script named in `url` (the page itself for an inline script), counted from 1.',
      },
      column: {
        type: 'integer',
        minimum: 1,
        description: 'document.write() calls: the column of the call on its line, counted from 1.',
      },
    },
    [],
  ),
  description:
    'A resource (url) or an element (selector, snippet, box) behind the finding. Numbers are the larger of the form factors.',
};
const savings = {
  ...closed({ ms: nullable(intMs), bytes: nullable(bytes) }),
  description:
    "Lighthouse's estimate: `ms`, the largest saving on FCP, LCP, TBT or INP (its metricSavings, else the opportunity's overallSavingsMs); `bytes`, the bytes that could be saved. Null where Lighthouse gives none.",
};
const finding = closed(
  {
    category: { enum: [...CATEGORY_KEYS] },
    code: { type: 'string', description: 'Stable, machine-readable; see core/scoring/README.md.' },
    severity: { enum: ['critical', 'warning', 'info'] },
    title: { type: 'string' },
    message: { type: 'string' },
    recommendation: { type: 'string' },
    form_factors: {
      type: 'array',
      items: formFactor,
      minItems: 1,
      description:
        'Extension: the form factors the finding was seen on (one finding for both). Absent for findings about the page as a whole.',
    },
    items: {
      type: 'array',
      maxItems: DETAIL_LIMITS.items,
      items: findingItem,
      description: `Extension: the resources or elements behind the finding, from Lighthouse's audit and insight details or the page's responses; at most ${DETAIL_LIMITS.items}, largest first.`,
    },
    savings: {
      ...perFormFactorOptional(savings),
      description: 'Extension: Lighthouse’s estimated savings per form factor.',
    },
    values: {
      ...perFormFactorOptional({ type: 'number', minimum: 0 }),
      description:
        'Extension, metric findings only: the metric measured on each form factor (ms, or unitless for CLS).',
    },
    clues: {
      type: 'array',
      items: { type: 'string' },
      description:
        "Extension: the codes of Lighthouse's specific diagnosis behind the finding (lcp.lazy-loaded, cls.unsized-image, ...; core/scoring/README.md), each a sentence of `message` and, where it has one, of `recommendation`.",
    },
    impact: {
      ...closed({ ms: intMs, bytes }),
      description:
        'Extension: what fixing it saves, as findings are ordered: milliseconds on a metric (the largest of the form factors), then bytes. Absent where nothing is stated; findings without it follow those with it.',
    },
    priority: {
      type: 'integer',
      minimum: 1,
      maximum: FIX_FIRST,
      description: `Extension: 1 to ${FIX_FIRST} for the ${FIX_FIRST} findings that save most (fix first), in order; absent on the others.`,
    },
  },
  ['category', 'code', 'severity', 'title', 'message', 'recommendation'],
);

const chainRequest = closed({ url: { type: 'string' }, end_ms: intMs, transfer_bytes: bytes });
const diagnosticsOfFormFactor = closed(
  {
    lcp: closed(
      {
        element: { ...nullable(element), description: "The LCP element (Lighthouse's lcp-breakdown-insight)." },
        phases: nullable({
          ...closed({
            ttfb_ms: intMs,
            load_delay_ms: nullable(intMs),
            load_time_ms: nullable(intMs),
            render_delay_ms: intMs,
          }),
          description:
            'LCP subparts from the observed trace: time to first byte, resource load delay and duration (null for a text element), element render delay.',
        }),
        discovery: nullable({
          ...closed({
            lazy_loaded: { type: 'boolean' },
            fetchpriority_high: { type: 'boolean' },
            in_initial_html: { type: 'boolean' },
          }),
          description:
            'How the browser found and fetched the LCP image (lcp-discovery-insight): lazy-loaded, with fetchpriority=high, requested from the HTML itself or a preload. Null for a text LCP; absent from older results.',
        }),
      },
      ['element', 'phases'],
    ),
    layout_shifts: {
      type: 'array',
      maxItems: DETAIL_LIMITS.rows,
      items: closed(
        {
          element,
          score: { type: 'number', minimum: 0 },
          share: { type: 'number', minimum: 0, maximum: 1 },
          causes: { type: 'array', items: { type: 'string' } },
          culprits: {
            type: 'array',
            items: closed(
              { cause: { enum: SHIFT_CAUSES.filter((c) => c !== 'unexplained') }, element, url: { type: 'string' } },
              ['cause'],
            ),
            description:
              'What caused the shift: the image without dimensions (element), the web font or iframe (url); empty when Lighthouse named none. Absent from older results.',
          },
        },
        ['element', 'score', 'share', 'causes'],
      ),
      description:
        "Elements that shifted (cls-culprits-insight), with their layout-shift score, their share of the shifts listed, and Lighthouse's likely causes.",
    },
    render_blocking: {
      type: 'array',
      maxItems: DETAIL_LIMITS.rows,
      items: closed({ url: { type: 'string' }, transfer_bytes: bytes, wasted_ms: intMs }),
    },
    third_parties: {
      type: 'array',
      maxItems: DETAIL_LIMITS.rows,
      items: closed(
        {
          entity: { type: 'string' },
          recognized: {
            type: 'boolean',
            description: 'false: not a known third party; Lighthouse names it by its domain.',
          },
          transfer_bytes: bytes,
          main_thread_ms: intMs,
          urls: {
            type: 'array',
            maxItems: DETAIL_LIMITS.rows,
            items: { type: 'string' },
            description: "The entity's requests, the largest first; absent from older results.",
          },
        },
        ['entity', 'recognized', 'transfer_bytes', 'main_thread_ms'],
      ),
    },
    main_thread: {
      type: 'array',
      maxItems: DETAIL_LIMITS.rows,
      items: closed({ category: { type: 'string' }, label: { type: 'string' }, ms: intMs }),
    },
    critical_chain: {
      ...nullable(
        closed({
          length: { type: 'integer', minimum: 2 },
          duration_ms: intMs,
          requests: { type: 'array', maxItems: DETAIL_LIMITS.rows, items: chainRequest },
        }),
      ),
      description:
        'The longest chain of critical requests (network-dependency-tree-insight), the document first: each request found only once the one before it arrived. Null without one; absent from older results.',
    },
  },
  ['lcp', 'layout_shifts', 'render_blocking', 'third_parties', 'main_thread'],
);
const diagnostics = {
  ...perFormFactor(diagnosticsOfFormFactor),
  description: `Extension: what explains each form factor's load, from Lighthouse's insights (lists of at most ${DETAIL_LIMITS.rows}). Absent from results stored before it existed.`,
};

const ms = { type: 'number', minimum: 0 };
const run = closed({
  performance_score: { ...nullable(score), description: "Lighthouse's performance score of this run, 0-100." },
  fcp_ms: ms,
  lcp_ms: ms,
  tbt_ms: ms,
  cls: { type: 'number', minimum: 0 },
  si_ms: ms,
  interactive_ms: ms,
  benchmark_index: {
    ...nullable({ type: 'number' }),
    description: "Lighthouse's CPU benchmark of the machine during the run; lower is busier.",
  },
  lighthouse_version: { type: 'string' },
  chromium_version: { type: 'string' },
  overloaded: {
    type: 'boolean',
    description:
      'The benchmark index stayed below the minimum after one repeat: the machine was too busy to trust this run.',
  },
  repeated: { type: 'boolean', description: 'This run replaced one whose benchmark index was below the minimum.' },
  median: { type: 'boolean', description: 'The run the result (metrics, findings, screenshots) comes from.' },
});
const runs = {
  ...closed({
    desktop: { type: 'array', minItems: 1, items: run },
    mobile: { type: 'array', minItems: 1, items: run },
    overall: {
      type: 'array',
      minItems: 1,
      items: score,
      description:
        'The overall score of each run on its own (its desktop and mobile loads scored together), in order: the spread around `scores.overall`.',
    },
  }),
  description:
    'Extension: every run (page load) of each form factor, in the order loaded, one of them marked `median` (the scan’s metrics, findings and images are its). A scan has as many runs as asked for in POST /scans; absent from results stored before runs existed.',
};

const scoring = {
  ...closed({
    version: { type: 'integer', minimum: 1, description: 'The scoring version the scores were computed under.' },
    not_applicable: {
      type: 'array',
      items: { enum: [...CATEGORY_KEYS] },
      description:
        'Categories with nothing to judge on this page (no check applies: caching without static resources or text, WordPress on other sites). Their score reads 100 and does not count in `overall`.',
    },
  }),
  description:
    'Extension: how the scores were computed. Scores of different versions measure differently; compare and history charts mark a change of version.',
};

const resultFields = {
  final_url: url,
  final_host: { type: 'string' },
  http_status: { type: 'integer' },
  scores: scoresSchema,
  summary_short: { type: 'string' },
  summary_long: { type: 'string' },
  metrics: closed({ ttfb_ms: { type: 'number', minimum: 0 }, desktop: formFactorMetrics, mobile: formFactorMetrics }),
  screenshots: closed({
    desktop_url: nullable(url),
    mobile_url: nullable(url),
    filmstrip: perFormFactor({ type: 'array', items: url }),
    filmstrip_frames: perFormFactor({ type: 'array', items: frame }),
  }),
  findings: { type: 'array', items: finding },
  runs,
  diagnostics,
  scoring,
};
const { runs: _runs, diagnostics: _diagnostics, scoring: _scoring, ...requiredResultFields } = resultFields;
// The extension `lighthouse` (scan-lighthouse.ts) is optional like runs and diagnostics.
export const resultSchema = closed(
  { ...resultFields, lighthouse: scanLighthouseSchema },
  Object.keys(requiredResultFields),
);

const publicId = { type: 'string', pattern: '^[0-9a-z]{26}$' };
const runningFields = {
  public_id: publicId,
  report_url: url,
  status: { enum: ['queued', 'running'] },
  submitted_url: url,
  region: { type: 'string' },
  auth_type: authType,
};
const endedFields = {
  ...runningFields,
  is_public: { type: 'boolean' },
  share_enabled: { type: 'boolean' },
  share_url: nullable(url),
  requested_at: timestamp,
  finished_at: timestamp,
  target_id: {
    oneOf: [{ type: 'integer' }, { type: 'null' }],
    description:
      'Extension: the monitored target (GET /domains) this scan is of, started by its schedule or by its run now (POST /domains/{id}/scans); null for scans started through POST /scans.',
  },
  trigger: {
    enum: [...SCAN_TRIGGERS],
    description:
      "Extension: what started the scan: `request` (POST /scans, or the web area's scan form), `schedule` (the target's daily schedule), `run_now` (the target's run now) or `confirmation` (the scan a regression candidate starts at once to confirm it). Scheduled and confirmation scans are the only ones outside the hourly scan limit.",
  },
};
const failure = closed({ code: { enum: [...FAILURE_CODES] }, message: { type: 'string' } });

const VERDICTS: readonly Verdict[] = ['better', 'worse', 'no_significant_change'];
const changeFields = {
  before: { type: 'number', description: 'The previous scan’s value, as its result reports it.' },
  after: { type: 'number', description: 'This scan’s value.' },
  change: {
    type: 'number',
    description:
      'The change the verdict judged, in the metric’s unit: the Hodges-Lehmann shift of the runs (rank test) or the difference of the medians (noise band). Its sign is the verdict’s direction; it can differ from `after − before`, which are each scan’s median run.',
  },
  verdict: { enum: [...VERDICTS] },
  values: {
    ...closed({ before: { type: 'integer', minimum: 1 }, after: { type: 'integer', minimum: 1 } }),
    description: 'How many values each side contributed: its runs, or 1.',
  },
};
/** One row of `previous`: a metric's change and verdict (a component of the OpenAPI document: api/openapi.ts). */
export const metricChangeSchema: JsonSchema = {
  oneOf: [
    {
      title: 'Judged by the rank test',
      ...closed({
        ...changeFields,
        rule: { const: 'rank_test' },
        p: { type: 'number', minimum: 0, maximum: 1, description: 'One-sided, in the direction of the shift.' },
        floor: { type: 'number', minimum: 0, description: 'The smallest shift that counts as a change.' },
      }),
    },
    {
      title: 'Judged by the noise band',
      ...closed({
        ...changeFields,
        rule: { const: 'noise_band' },
        band: { type: 'number', minimum: 0, description: 'A difference up to this is noise.' },
        band_scans: {
          ...nullable({ type: 'integer', minimum: 1 }),
          description: 'The scans of this URL the band was learned from; null for the metric’s default band.',
        },
      }),
    },
  ],
};
const changesPerFormFactor = closed(Object.fromEntries(METRIC_FIELDS.map((k) => [k, metricChangeSchema])), []);
const previousSchema = closed({
  scan_id: { ...publicId, description: 'The previous scan’s public_id.' },
  finished_at: timestamp,
  report_url: url,
  compare_url: { ...url, description: 'The two scans on the web area’s compare page.' },
  scoring_version: {
    type: 'integer',
    minimum: 1,
    description: 'The previous scan’s scoring version: scores of different versions measure differently.',
  },
  summary: {
    type: 'string',
    description:
      'The comparison in one sentence (LCP, TBT and CLS: each real change with its size, the rest unchanged), in the language of Accept-Language.',
  },
  scores: {
    ...closed(Object.fromEntries(SCORE_KEYS.map((k) => [k, metricChangeSchema])), []),
    description: 'The scores both scans judged (a category not applicable on either side is left out).',
  },
  metrics: closed({ ttfb_ms: metricChangeSchema, desktop: changesPerFormFactor, mobile: changesPerFormFactor }, [
    'desktop',
    'mobile',
  ]),
});
const previousDescription =
  'Extension: this scan compared with the previous finished scan of the same URL (the one its report’s “Scan again” was pressed on, else the latest that finished before it), each metric with the compare page’s verdict (rank test with enough runs on both sides, else the noise band; docs/verdicts.md). Speed Index only where both scans have runs stored. Null when the account has no earlier finished scan of the URL.';

const runningShape = { title: 'Running scan', ...closed(runningFields) };
const finishedShape = {
  title: 'Finished scan',
  ...closed({
    ...endedFields,
    status: { const: 'finished' },
    result: resultSchema,
    previous: { ...nullable(previousSchema), description: previousDescription },
  }),
};
const failedShape = {
  title: 'Failed scan',
  ...closed({ ...endedFields, status: { const: 'failed' }, error: failure }),
};

/** GET /scans/{id}: the running, finished or failed shape. */
export const scanDetailSchema: JsonSchema = { oneOf: [runningShape, finishedShape, failedShape] };

const { finished_at: finishedAt, ...listFields } = endedFields;
/** GET /scans items. */
export const scanListItemSchema: JsonSchema = {
  oneOf: [
    { title: 'Queued or running scan', ...closed(listFields) },
    {
      title: 'Finished scan',
      ...closed({
        ...listFields,
        finished_at: finishedAt,
        status: { const: 'finished' },
        result: closed({ scores: scoresSchema }),
      }),
    },
    {
      title: 'Failed scan',
      ...closed({ ...listFields, finished_at: finishedAt, status: { const: 'failed' }, error: failure }),
    },
  ],
};

/** POST /scans (and POST /domains/{id}/scans). */
export const scanCreationSchema = closed({
  id: runningFields.public_id,
  status: { enum: ['queued', 'running', 'finished', 'failed'] },
  url,
  cached: { type: 'boolean' },
  auth_type: authType,
  finished_at: {
    ...nullable(timestamp),
    description:
      "Extension: when the scan finished; with `cached: true` this is the reused result's age. Null for a scan queued or running.",
  },
});

/** POST /scans/{id}/share/enable and /disable. */
export const shareStateSchema: JsonSchema = {
  oneOf: [
    closed(
      {
        share_enabled: { const: true },
        share_url: url,
        signed_in: {
          type: 'string',
          description:
            'Only for a scan made with credentials: says that the shared report shows the page as a signed-in visitor saw it, screenshots included (they are not redacted).',
        },
      },
      ['share_enabled', 'share_url'],
    ),
    closed({ share_enabled: { const: false } }),
  ],
};
