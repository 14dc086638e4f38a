/**
 * Past a site's monthly page-view limit the ingest keeps 1 page view in this many (chosen per page view with
 * a key only the ingest process knows, so a sender cannot pick page-view ids that are always kept) and drops
 * the rest with the same 204. Each kept page view is stored with `keep_one_in` = this number and counts that
 * many times in the month's page views. Every page view past the limit has the same chance, so percentiles
 * over a time past the limit describe the same visitors; storage past the limit grows at a tenth of the rate.
 */
export const OVER_LIMIT_KEEP_ONE_IN = 10;

/** The UTC month of a moment, `YYYY-MM` (the month the limit counts in). */
export function utcMonth(at: Date): string {
  const month = at.getUTCMonth() + 1;
  return `${at.getUTCFullYear()}-${month < 10 ? '0' : ''}${month}`;
}
