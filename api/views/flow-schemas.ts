import { FLOW_FAILURE_CODES, FLOW_STEP_TYPES, RUN_FAILURE_CODES, type FlowStepType } from '../../core/flows/flow.ts';
import {
  MAX_FLOW_NAME_CHARS,
  MAX_SECRET_CHARS,
  MAX_SELECTOR_CHARS,
  MAX_TEXT_CHARS,
  SECRET_NAME_PATTERN,
} from '../../core/flows/definition.ts';
import { FORM_FACTORS } from '../../core/scan/observation.ts';
import type { JsonSchema } from '../validation.ts';
import { flowBudgetsSchema } from './budget-schemas.ts';

/**
 * JSON Schemas of user flows: the steps, secrets and flows they are created and changed with, and what the
 * views (flows.ts) return. The step's `type` picks which fields it has; fields of another type are refused.
 * Response objects are closed, so contract tests catch any drift.
 */
const closed = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const timestamp = { type: 'string', format: 'date-time' };
const nullable = (schema: JsonSchema): JsonSchema => ({ oneOf: [schema, { type: 'null' }] });

const selector = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_SELECTOR_CHARS,
  description:
    'A selector Puppeteer accepts: CSS, or `aria/Accessible name`, `text/Visible text`, `pierce/css` (through shadow roots), `xpath/…`, or the `::-p-…` forms.',
};
const stepName = { type: 'string', minLength: 1, maxLength: MAX_FLOW_NAME_CHARS };
export const secretName = {
  type: 'string',
  pattern: SECRET_NAME_PATTERN,
  description: 'Lower-case letters, digits and `_`, starting with a letter, up to 40 characters.',
};
const STEP_FIELDS: Record<string, JsonSchema> = {
  url: { type: 'string', minLength: 1, maxLength: 8192, description: 'http(s) URL; normalised like a scan URL.' },
  name: stepName,
  selector,
  text: { type: 'string', maxLength: MAX_TEXT_CHARS, description: 'A literal to type.' },
  secret: { ...secretName, description: 'The name of a secret of the flow to type instead of a literal.' },
  secret_origin: {
    type: 'string',
    maxLength: 2000,
    description: 'The origin the secret may be typed on, when not the origin of the first navigate step.',
  },
  value: { type: 'string', maxLength: MAX_TEXT_CHARS, description: 'The option value to select.' },
};
/** Per type, its required and optional fields (besides `type`). */
const STEP_SHAPES: Record<FlowStepType, { required: string[]; optional: string[] }> = {
  navigate: { required: ['url'], optional: ['name'] },
  start_timespan: { required: ['name'], optional: [] },
  end_timespan: { required: [], optional: [] },
  snapshot: { required: ['name'], optional: [] },
  click: { required: ['selector'], optional: [] },
  type: { required: ['selector'], optional: ['text', 'secret', 'secret_origin'] },
  select: { required: ['selector', 'value'], optional: [] },
  wait_for_selector: { required: ['selector'], optional: [] },
  wait_for_navigation: { required: [], optional: [] },
};
const only = (fields: string[]): JsonSchema => ({
  properties: Object.fromEntries(['type', ...fields].map((field) => [field, true])),
  additionalProperties: false,
});

export const EXAMPLE_STEPS = [
  { type: 'navigate', url: 'https://shop.example.com/', name: 'Home' },
  { type: 'click', selector: 'aria/Sign in' },
  { type: 'wait_for_navigation' },
  { type: 'type', selector: '#email', text: 'ann@example.com' },
  { type: 'type', selector: '#password', secret: 'password' },
  { type: 'start_timespan', name: 'Sign in' },
  { type: 'click', selector: 'form > button[type="submit"]' },
  { type: 'wait_for_navigation' },
  { type: 'end_timespan' },
  { type: 'snapshot', name: 'Account page' },
];

export const stepSchema: JsonSchema = {
  type: 'object',
  required: ['type'],
  examples: [EXAMPLE_STEPS[0]],
  description:
    'One step. Measured: `navigate` (a Lighthouse navigation), `start_timespan` … `end_timespan` (the actions between, as one timespan), `snapshot`. Actions: `click`, `type` (`text`, or `secret` naming a secret of the flow), `select`, `wait_for_selector`, `wait_for_navigation`. The first step must be `navigate`.',
  properties: { type: { enum: [...FLOW_STEP_TYPES] }, ...STEP_FIELDS },
  allOf: [
    ...Object.entries(STEP_SHAPES)
      .filter(([type]) => type !== 'type')
      .map(([type, shape]) => ({
        if: { properties: { type: { const: type } } },
        then: { required: shape.required, ...only([...shape.required, ...shape.optional]) },
      })),
    {
      if: { properties: { type: { const: 'type' } } },
      then: {
        required: ['selector'],
        if: { required: ['secret'] },
        then: only(['selector', 'secret', 'secret_origin']),
        else: { required: ['text'], ...only(['selector', 'text']) },
      },
    },
  ],
};

export const secretInputSchema: JsonSchema = {
  ...closed({
    kind: { enum: ['password', 'totp'], description: '`totp`: the base32 seed; the current 6-digit code is typed.' },
    value: { type: 'string', minLength: 1, maxLength: MAX_SECRET_CHARS, description: 'Write-only: never returned.' },
  }),
};

export const stepsSchema = (maxItems: number): JsonSchema => ({
  type: 'array',
  minItems: 1,
  maxItems,
  items: stepSchema,
  examples: [EXAMPLE_STEPS],
  description: "The flow's steps in order; at most the plan's steps per flow (403 beyond it).",
});

const formFactor = { enum: [...FORM_FACTORS] };

/** The secrets of a flow as responses show them: names and kinds, never values. */
export const secretInfoSchema = closed({
  name: { type: 'string' },
  kind: { enum: ['password', 'totp'] },
  updated_at: timestamp,
});

export const flowSchema = closed({
  id: { type: 'string', description: 'The flow id.' },
  name: { type: 'string' },
  form_factor: formFactor,
  steps: { type: 'array', items: stepSchema, examples: [EXAMPLE_STEPS] },
  secrets: { type: 'array', items: secretInfoSchema, description: 'Names and kinds only; values are write-only.' },
  missing_secrets: {
    type: 'array',
    items: { type: 'string' },
    description: 'Secrets the steps type that are not set yet: a run is refused (422) until they are.',
  },
  monitored: {
    type: 'boolean',
    description:
      "Run daily on a schedule of its own (trigger `schedule`); counts against the plan's monitored-target limit. A failed run of a monitored flow (any trigger) raises a `flow_failed` alert (warning; critical when the next run fails too), resolved by the next run that gets through.",
  },
  budgets: flowBudgetsSchema,
  created_at: timestamp,
  updated_at: timestamp,
});

/** POST /flows answers the flow and what the Recorder import changed or left out. */
export const flowCreatedSchema = closed({
  ...(flowSchema.properties as Record<string, JsonSchema>),
  warnings: {
    type: 'array',
    items: { type: 'string' },
    description: 'For a Recorder import, each recorded step that was changed or left out; empty otherwise.',
  },
});

const score = nullable({ type: 'integer', minimum: 0, maximum: 100 });
const metric = nullable({ type: 'number' });
const failureSchema = closed({
  step_index: nullable({ type: 'integer', minimum: 0 }),
  step_type: nullable({ type: 'string' }),
  step: { type: 'string', description: 'The failing step in words: its name, or what it does.' },
  code: { enum: [...FLOW_FAILURE_CODES, ...RUN_FAILURE_CODES] },
  message: { type: 'string' },
  screenshot_url: nullable({ type: 'string', format: 'uri' }),
});

const stepScores = closed({ performance: score, accessibility: score, best_practices: score, seo: score });
const stepMetrics: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(
    ['lcp_ms', 'fcp_ms', 'tbt_ms', 'cls', 'speed_index_ms', 'ttfb_ms', 'inp_ms'].map((key) => [key, metric]),
  ),
};

const runStepSchema = closed({
  index: { type: 'integer', description: "The step's position in the flow's steps." },
  mode: { enum: ['navigation', 'timespan', 'snapshot'] },
  name: { type: 'string' },
  url: { type: 'string' },
  scores: stepScores,
  metrics: stepMetrics,
  findings: {
    type: 'array',
    items: closed({
      id: { type: 'string' },
      title: { type: 'string' },
      score: nullable({ type: 'number' }),
      display_value: nullable({ type: 'string' }),
      items: { type: 'array', items: { type: 'object' } },
    }),
  },
  screenshot_url: nullable({ type: 'string', format: 'uri' }),
});

const runTrigger = {
  enum: ['api', 'web', 'schedule'],
  description: "What started the run: the API, the web area, or the flow's daily schedule.",
};

export const runSummarySchema = closed({
  id: { type: 'string', description: 'The run id.' },
  flow_id: { type: 'string' },
  status: { enum: ['queued', 'running', 'finished', 'failed'] },
  trigger: runTrigger,
  region: { type: 'string' },
  requested_at: timestamp,
  started_at: nullable(timestamp),
  finished_at: nullable(timestamp),
});

export const runDetailSchema = closed({
  ...(runSummarySchema.properties as Record<string, JsonSchema>),
  lighthouse_version: nullable({ type: 'string' }),
  chromium_version: nullable({ type: 'string' }),
  steps: {
    type: 'array',
    items: runStepSchema,
    description: 'The measured steps, in order (empty until the run ends).',
  },
  failure: nullable(failureSchema),
});

export { formFactor as formFactorSchema };

/** GET /flows/{id}/history: one series per measured step (index, mode and name), each run's values oldest first. */
export const stepSeriesSchema = closed({
  index: { type: 'integer', description: "The step's position in the flow's steps when it was measured." },
  mode: { enum: ['navigation', 'timespan', 'snapshot'] },
  name: { type: 'string' },
  points: {
    type: 'array',
    description: 'One per finished run that measured this step, oldest first (newest last).',
    items: closed({
      run_id: { type: 'string' },
      at: { ...timestamp, description: 'When the run finished.' },
      trigger: runTrigger,
      url: { type: 'string', description: 'The page when the step ended.' },
      metrics: stepMetrics,
      scores: stepScores,
    }),
  },
});
