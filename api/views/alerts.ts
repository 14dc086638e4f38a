import { isoTimestamp } from '../../core/clock.ts';
import { alertText } from '../../core/i18n/alerts.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import { ALERT_SEVERITIES, ALERT_TYPES, type Alert, type RegressionFacts } from '../../core/monitoring/alert.ts';
import { FLOW_FAILURE_CODES, RUN_FAILURE_CODES, type FailedStep } from '../../core/flows/flow.ts';
import { SCORE_KEYS } from '../../core/scoring/categories.ts';
import type { JsonSchema } from '../validation.ts';
import { budgetDetailsSchema, budgetDetailsView } from './budget-schemas.ts';

const timestamp = (value: Date | null) => (value ? isoTimestamp(value) : null);

/**
 * An alert as the API shows it: the spec's fields, title and message in the caller's language, and the
 * extensions `region`, `target_id` (null once the target is deleted), `details` (the score, its value and the
 * threshold or baseline it was compared with, every score below its threshold, how it was resolved),
 * `escalated_at` and `resolved_scan_id`.
 */
export function alertView(alert: Alert, locale: Locale) {
  const { title, message } = alertText(alert, locale);
  const { details } = alert;
  return {
    id: alert.id,
    type: alert.type,
    severity: alert.severity,
    title,
    message,
    is_read: alert.isRead,
    is_dismissed: alert.isDismissed,
    url: alert.url,
    host: alert.host,
    scan_id: alert.scanPublicId,
    created_at: isoTimestamp(alert.createdAt),
    resolved_at: timestamp(alert.resolvedAt),
    region: alert.region,
    target_id: alert.targetId,
    flow: alert.details.flow ? { id: alert.details.flow.id, name: alert.details.flow.name } : null,
    details: {
      score: details.score,
      value: details.value,
      reference: details.reference,
      crossings: (details.crossings ?? []).map((c) => ({
        score: c.score,
        value: c.value,
        threshold: c.threshold,
        severity: c.severity,
      })),
      ...budgetDetailsView(details),
      failed_step: details.failedStep ? failedStepView(details.failedStep) : null,
      resolution:
        alert.resolvedAt && details.resolution
          ? { kind: details.resolution.kind, value: details.resolution.value }
          : null,
      regression: details.regression ? regressionView(details.regression) : null,
    },
    escalated_at: timestamp(alert.escalatedAt),
    resolved_scan_id: alert.resolvedScanPublicId,
  };
}

const failedStepView = (failed: FailedStep) => ({
  index: failed.index,
  step_type: failed.step_type,
  step: failed.step,
  code: failed.code,
  message: failed.message,
});

const regressionView = (facts: RegressionFacts) => ({
  metric: facts.metric,
  form_factor: facts.form_factor,
  baseline: facts.baseline,
  current: facts.current,
  shift: facts.shift,
  p_value: facts.p_value,
  baseline_scans: facts.baseline_scans,
  path: facts.path,
  confirmation_scan_id: facts.confirmation_scan_id,
  also: facts.also ?? [],
});

const closed = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
const nullable = (schema: JsonSchema): JsonSchema => ({ oneOf: [schema, { type: 'null' }] });
const scoreKey = { enum: [...SCORE_KEYS] };
const severity = { enum: [...ALERT_SEVERITIES] };
const publicId = { type: 'string', pattern: '^[0-9a-z]{26}$' };

/** GET /alerts items and GET /alerts/{id}. */
export const alertSchema: JsonSchema = closed({
  id: { type: 'integer' },
  type: {
    enum: [...ALERT_TYPES],
    description:
      "The spec shows `score_below_threshold` and leaves the set open. Extensions: `score_regression` and `metric_regression` (docs/verdicts.md), `metric_over_budget` (budgets of a target or a flow's steps), `flow_failed` (a run of a monitored flow failed; see `flow` and `details.failed_step`).",
  },
  severity: { ...severity, description: 'Only rises while the alert is unresolved (warning → critical).' },
  title: { type: 'string', description: 'In the language of Accept-Language (English or German).' },
  message: {
    type: 'string',
    description: 'In the language of Accept-Language; a resolved alert adds how it resolved.',
  },
  is_read: { type: 'boolean' },
  is_dismissed: { type: 'boolean' },
  url: { type: 'string', format: 'uri' },
  host: { type: 'string' },
  scan_id: {
    ...publicId,
    description:
      'The scan the title and message describe: the one that raised the alert, or the one that escalated it.',
  },
  created_at: { type: 'string', format: 'date-time' },
  resolved_at: nullable({ type: 'string', format: 'date-time' }),
  region: { type: 'string', description: "Extension: the target's scan region." },
  target_id: {
    oneOf: [{ type: 'integer' }, { type: 'null' }],
    description:
      "Extension: the monitored target (GET /domains); null once it is deleted, and null for a flow's alert (see `flow`).",
  },
  flow: {
    ...nullable(closed({ id: { type: 'string' }, name: { type: 'string', description: 'The name when raised.' } })),
    description:
      "Extension: the monitored flow (GET /flows/{id}) a flow's alert (metric_over_budget, flow_failed) is about, else null. Then `url` and `host` are the flow's first navigation's, and `scan_id` and `resolved_scan_id` are flow run ids (GET /flows/{id}/runs/{run_id}).",
  },
  details: {
    ...closed({
      score: { ...scoreKey, description: '`overall` or a category (flow_failed: `overall`, the flow as a whole).' },
      value: {
        type: 'number',
        description: 'The score of the scan named by scan_id; flow_failed: how many runs in a row failed.',
      },
      reference: {
        type: 'number',
        description:
          'score_below_threshold: the threshold crossed; score_regression: the baseline (median of the previous scheduled scans); flow_failed: the failed runs in a row from which it is critical (2).',
      },
      crossings: {
        type: 'array',
        description: 'score_below_threshold: every score below its warning threshold, worst first.',
        items: closed({ score: scoreKey, value: { type: 'number' }, threshold: { type: 'number' }, severity }),
      },
      ...budgetDetailsSchema,
      failed_step: {
        ...nullable(
          closed({
            index: {
              ...nullable({ type: 'integer' }),
              description: "The step's index in the flow's steps; null: the run failed outside any step (`run_error`).",
            },
            step_type: nullable({ type: 'string' }),
            step: {
              type: 'string',
              description: 'The step in words: a measured step by its name, an action by what it does.',
            },
            code: { enum: [...FLOW_FAILURE_CODES, ...RUN_FAILURE_CODES] },
            message: { type: 'string', description: "The runner's reason, in English." },
          }),
        ),
        description: 'Extension, flow_failed: where the run named by scan_id stopped; null for other types.',
      },
      resolution: nullable(
        closed({
          kind: { enum: ['recovered', 'settled'] },
          value: { type: 'number', description: 'The score at resolution (flow_failed: 0, no failed run in a row).' },
        }),
      ),
      regression: {
        ...nullable(
          closed({
            metric: { enum: ['lcp', 'fcp', 'si', 'tbt', 'cls', 'ttfb', 'score', 'requests', 'bytes'] },
            form_factor: nullable({ enum: ['desktop', 'mobile'] }),
            baseline: { type: 'number', description: 'Median of the baseline window, in the metric’s unit.' },
            current: { type: 'number', description: 'Median of the scan that found it and its confirmation scan.' },
            shift: { type: 'number', description: 'Hodges–Lehmann estimate of current − baseline.' },
            p_value: { type: 'number', description: 'One-sided Mann–Whitney p-value.' },
            baseline_scans: { type: 'integer' },
            path: { type: 'string', description: 'The page’s path (and query).' },
            confirmation_scan_id: publicId,
            also: { type: 'array', items: { type: 'string' }, description: 'Other metrics confirmed with it.' },
          }),
        ),
        description:
          'score_regression and metric_regression: what the confirmed regression was judged on (docs/verdicts.md); null otherwise.',
      },
    }),
    description: 'Extension: what the title and message are rendered from.',
  },
  escalated_at: {
    ...nullable({ type: 'string', format: 'date-time' }),
    description: 'Extension: when it went from warning to critical.',
  },
  resolved_scan_id: { ...nullable(publicId), description: 'Extension: the scan that resolved it.' },
});
