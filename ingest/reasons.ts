/**
 * Why the ingest service refuses a beacon, and what it answers. Every refusal is counted by reason in
 * /metrics; those for a known site also in ClickHouse `rum_rejections` (per site, UTC day and reason).
 * Bots get the same 204 as accepted beacons, so a crawler learns nothing from the answer.
 */
export const REJECTION_STATUS = {
  oversize: 413,
  bad_json: 400,
  bad_shape: 400,
  bad_metric: 400,
  value_range: 400,
  bad_path: 400,
  /**
   * A string that is not well-formed Unicode: a lone UTF-16 surrogate (a `\ud800` escape in the JSON) or bytes that
   * are not UTF-8. ClickHouse refuses a lone high surrogate (the whole insert) and stores a lone low one as invalid
   * UTF-8, so neither may reach the spool.
   */
  bad_text: 400,
  unknown_site: 404,
  inactive_site: 403,
  origin_mismatch: 403,
  bot: 204,
  /** The owner's plan has no live data (a monthly limit of 0). */
  monthly_limit: 429,
  /** Past the monthly limit and not in the reduced sample (core/rum/over-limit.ts): dropped with a 204. */
  over_limit: 204,
  /** The sender's address or the site is over its rate (token bucket); Retry-After says when to try again. */
  rate_limited: 429,
  /** The body did not arrive within INGEST_BODY_TIMEOUT_MS; the connection is closed. */
  slow_body: 408,
  /** Not the client's fault: the spool is full or cannot be written, or the site lookup failed. 503, not stored. */
  unavailable: 503,
} as const;

export type RejectionReason = keyof typeof REJECTION_STATUS;

export const REJECTION_REASONS = Object.keys(REJECTION_STATUS) as RejectionReason[];

export class Rejection {
  readonly reason: RejectionReason;
  constructor(reason: RejectionReason) {
    this.reason = reason;
  }
}
