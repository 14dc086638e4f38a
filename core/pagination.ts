/** The one pagination rule for every list: `limit` per page and `page` from 1; a page past the end is empty. */
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

/** One page of a list, as every store's list method returns it. */
export interface Page<T> {
  items: T[];
  meta: PageMeta;
}

export const pageMeta = ({ limit, page }: PageQuery, total: number): PageMeta => ({
  current_page: page,
  per_page: limit,
  total,
  last_page: Math.max(1, Math.ceil(total / limit)),
});

export const pageOffset = ({ limit, page }: PageQuery): number => (page - 1) * limit;
