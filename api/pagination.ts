import type { JsonSchema } from './validation.ts';

export type { PageMeta, PageQuery } from '../core/pagination.ts';

/**
 * The one pagination rule for every list: `limit` 1..max (default per endpoint) and `page` >= 1 (default 1).
 * Out-of-range or non-numeric values are a 422, never silently clamped; a page past the end is an empty list.
 */
export function pageQuerySchema(options: { max: number; default: number }): Record<string, JsonSchema> {
  return {
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: options.max,
      default: options.default,
      description: `Results per page, 1 to ${options.max}.`,
    },
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1.' },
  };
}

export const pageMetaSchema: JsonSchema = {
  type: 'object',
  required: ['current_page', 'per_page', 'total', 'last_page'],
  properties: {
    current_page: { type: 'integer' },
    per_page: { type: 'integer' },
    total: { type: 'integer' },
    last_page: { type: 'integer' },
  },
};
