import type { QueryBuilder, Model } from 'objection';
import type { JsonSchema } from './validation.ts';

export interface PageQuery {
  limit: number;
  page: number;
}

export interface PageMeta {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}

/**
 * The one pagination rule for every list: `limit` 1..max (default per endpoint) and `page` >= 1 (default 1).
 * Out-of-range or non-numeric values are a 422, never silently clamped; a page past the end is an empty list.
 */
export function pageQuerySchema(options: { max: number; default: number }): Record<string, JsonSchema> {
  return {
    limit: { type: 'integer', minimum: 1, maximum: options.max, default: options.default, description: `Results per page, 1 to ${options.max}.` },
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

export async function paginate<M extends Model>(query: QueryBuilder<M>, { limit, page }: PageQuery): Promise<{ rows: M[]; meta: PageMeta }> {
  const { results, total } = await query.page(page - 1, limit);
  return { rows: results, meta: { current_page: page, per_page: limit, total, last_page: Math.max(1, Math.ceil(total / limit)) } };
}
