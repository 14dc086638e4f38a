import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { BUDGET_PAYLOAD_PROPERTIES } from './budget-payload.ts';
import type { DeliveryEvent, WebhookPayload } from './events.ts';

/**
 * One JSON Schema per event's payload (spec: Payloads). Every body is validated against its schema before
 * it is sent, and the same objects are published in the OpenAPI document's `webhooks` section.
 */
type Schema = Record<string, unknown>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: true }));

const string = { type: 'string' };
const url = { type: 'string', format: 'uri' };
const timestamp = { type: 'string', format: 'date-time' };
const integer = { type: 'integer' };
const score = { type: 'integer', minimum: 0, maximum: 100 };
const closed = (event: string, properties: Record<string, Schema>, required: string[]): Schema => ({
  type: 'object',
  additionalProperties: false,
  required: ['event', ...required],
  properties: { event: { type: 'string', const: event }, ...properties },
});

const alertProperties = {
  alert_id: integer,
  type: string,
  severity: { type: 'string', enum: ['critical', 'warning'] },
  title: string,
  message: string,
  target_url: url,
  host: string,
  region: string,
  scan_public_id: string,
  created_at: timestamp,
};
const alertRequired = Object.keys(alertProperties);
const nullableInteger = { type: ['integer', 'null'] };
/** Where a flow run stopped (flow.failed's `failed_step`, a flow_failed alert's). */
const failedStep = {
  type: 'object',
  additionalProperties: false,
  required: ['index', 'step_type', 'step', 'code', 'message'],
  properties: {
    index: nullableInteger,
    step_type: { type: ['string', 'null'] },
    step: string,
    code: string,
    message: string,
  },
};
/** Extensions of the alert events, never required: a confirmed regression's facts (score_regression, metric_regression), a flow's alert's flow, flow_failed's step. */
const alertExtensions = {
  flow: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'name'],
    properties: { id: string, name: string },
    description:
      "Extension, a flow's alert (metric_over_budget, flow_failed): the flow (then `target_url` is its first navigation's URL and `scan_public_id` the flow run's id).",
  },
  failed_step: {
    ...failedStep,
    description: 'Extension, flow_failed only: where the run stopped (as in the flow.failed event).',
  },
  regression: {
    type: 'object',
    additionalProperties: false,
    required: ['metric', 'form_factor', 'baseline', 'current', 'shift', 'p_value', 'baseline_scans', 'path'],
    properties: {
      metric: string,
      form_factor: { type: ['string', 'null'], enum: ['desktop', 'mobile', null] },
      baseline: { type: 'number' },
      current: { type: 'number' },
      shift: { type: 'number' },
      p_value: { type: 'number' },
      baseline_scans: integer,
      path: string,
      confirmation_scan_id: string,
      also: { type: 'array', items: string },
    },
  },
};

const rumProperties = {
  alert_name: string,
  domain: string,
  metric: string,
  p75: { type: 'number' },
  threshold: { type: 'number' },
  unit: string,
  samples: integer,
  window_minutes: integer,
  rum_dashboard_url: url,
};
const rumRequired = Object.keys(rumProperties);

/** The flow.* extension events (core/webhooks/flow-payloads.ts). */
const flowRef = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'run_id', 'trigger'],
  properties: {
    id: string,
    name: string,
    run_id: string,
    trigger: { type: 'string', enum: ['api', 'web', 'schedule'] },
  },
};
const stepScore = { type: ['integer', 'null'], minimum: 0, maximum: 100 };
const stepMetric = { type: ['number', 'null'], minimum: 0 };
const flowStep = {
  type: 'object',
  additionalProperties: false,
  required: ['index', 'mode', 'name', 'url', 'metrics', 'scores'],
  properties: {
    index: integer,
    mode: { type: 'string', enum: ['navigation', 'timespan', 'snapshot'] },
    name: string,
    url: string,
    metrics: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(
        ['lcp_ms', 'fcp_ms', 'tbt_ms', 'cls', 'speed_index_ms', 'ttfb_ms', 'inp_ms'].map((key) => [key, stepMetric]),
      ),
    },
    scores: {
      type: 'object',
      additionalProperties: false,
      required: ['performance', 'accessibility', 'best_practices', 'seo'],
      properties: { performance: stepScore, accessibility: stepScore, best_practices: stepScore, seo: stepScore },
    },
  },
};
const flowProperties = {
  url: string,
  flow: flowRef,
  steps: { type: 'array', items: flowStep },
  run_url: url,
  finished_at: timestamp,
};
const flowRequired = Object.keys(flowProperties);

export const WEBHOOK_PAYLOAD_SCHEMAS: Record<DeliveryEvent, Schema> = {
  'alert.triggered': closed(
    'alert.triggered',
    { ...alertProperties, ...BUDGET_PAYLOAD_PROPERTIES, ...alertExtensions },
    alertRequired,
  ),
  'alert.resolved': closed(
    'alert.resolved',
    { ...alertProperties, resolved_at: timestamp, ...BUDGET_PAYLOAD_PROPERTIES, ...alertExtensions },
    [...alertRequired, 'resolved_at'],
  ),
  'scan.completed': closed(
    'scan.completed',
    {
      url,
      score,
      score_speed: score,
      score_images: score,
      score_caching: score,
      score_tech: score,
      lcp_ms: { type: 'integer', minimum: 0 },
      ttfb_ms: { type: 'integer', minimum: 0 },
      cls: { type: 'number', minimum: 0 },
      tbt_ms: { type: 'integer', minimum: 0 },
      scan_url: url,
      scanned_at: timestamp,
    },
    [
      'url',
      'score',
      'score_speed',
      'score_images',
      'score_caching',
      'score_tech',
      'lcp_ms',
      'ttfb_ms',
      'cls',
      'tbt_ms',
      'scan_url',
      'scanned_at',
    ],
  ),
  'rum.alert.triggered': closed('rum.alert.triggered', { ...rumProperties, triggered_at: timestamp }, [
    ...rumRequired,
    'triggered_at',
  ]),
  'rum.alert.resolved': closed('rum.alert.resolved', { ...rumProperties, resolved_at: timestamp }, [
    ...rumRequired,
    'resolved_at',
  ]),
  'flow.completed': closed('flow.completed', flowProperties, flowRequired),
  'flow.failed': closed(
    'flow.failed',
    {
      ...flowProperties,
      failed_step: failedStep,
    },
    [...flowRequired, 'failed_step'],
  ),
  ping: closed('ping', { message: string, sent_at: timestamp }, ['message', 'sent_at']),
};

// Compiled on an event's first payload: a process sends few of the events, and compiling them all costs a start.
const validators = new Map<DeliveryEvent, ValidateFunction>();

/** Null when the payload matches its event's schema; the problems otherwise. */
export function payloadProblems(event: DeliveryEvent, payload: WebhookPayload): string | null {
  let validate = validators.get(event);
  if (!validate) {
    validate = ajv.compile(WEBHOOK_PAYLOAD_SCHEMAS[event]);
    validators.set(event, validate);
  }
  if (validate(payload)) return null;
  return ajv.errorsText(validate.errors);
}
