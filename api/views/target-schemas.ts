import { SCORE_KEYS } from '../../core/scoring/categories.ts';
import type { JsonSchema } from '../validation.ts';
import { budgetsSchema } from './budget-schemas.ts';

/**
 * JSON Schemas of targets (the spec's domains): the thresholds they are created and changed with, and what
 * the target views (targets.ts) return. Response objects are closed, so contract tests catch any drift.
 */
const closed = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const score = { type: 'integer', minimum: 0, maximum: 100 };
const timestamp = { type: 'string', format: 'date-time' };

const threshold = {
  ...closed({ warning: score, critical: score }),
  description:
    'An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`.',
};

/** `thresholds` in requests: `overall` always, any score category optionally; replaces the target's thresholds as a whole. */
export const thresholdsSchema: JsonSchema = {
  ...closed(Object.fromEntries(SCORE_KEYS.map((key) => [key, threshold])), ['overall']),
  description:
    'Alert thresholds per score (0–100): `overall` is required, the categories optional. Default `{"overall": {"warning": 70, "critical": 50}}`.',
};

/** A target in responses: the spec's fields, then the extensions `region`, `thresholds`, `created_at` and `next_scan_at`. */
export const targetSchema = closed({
  id: { type: 'integer' },
  host: { type: 'string' },
  url: { type: 'string', format: 'uri' },
  schedule: { enum: ['daily'] },
  is_active: { type: 'boolean' },
  last_dispatched_at: {
    oneOf: [timestamp, { type: 'null' }],
    description: 'When the schedule last started a scan; null before the first.',
  },
  region: { type: 'string', description: 'Extension: where the target is scanned.' },
  thresholds: { ...thresholdsSchema, description: 'Extension: alert thresholds.' },
  budgets: budgetsSchema,
  created_at: { ...timestamp, description: 'Extension.' },
  next_scan_at: {
    oneOf: [timestamp, { type: 'null' }],
    description:
      "Extension: when the target's daily schedule starts its next scan (a fixed time of day per target, UTC); null while the target is paused.",
  },
});

/** GET /domains/{id}/history items. */
export const historyItemSchema = closed({
  score: { ...score, description: 'The overall score.' },
  created_at: { ...timestamp, description: 'When the scan finished (its result was made).' },
  region: { type: 'string' },
});
