import { planFor } from '../core/plans.ts';
import type { IngestSite } from '../db/store/rum-sites.ts';

/** How often a site's month count is read again from ClickHouse (other instances' page views come in then). */
export const RESEED_MS = 5 * 60_000;
/** A beacon waits at most this long for the month count; without it counting goes on from what this instance saw. */
const SEED_TIMEOUT_MS = 2000;

interface SiteMonth {
  month: string;
  pageviews: number;
  seededAt: number;
  seeding: Promise<void> | null;
}

/** The UTC month of a moment, `YYYY-MM`. */
export function utcMonth(at: Date): string {
  const month = at.getUTCMonth() + 1;
  return `${at.getUTCFullYear()}-${month < 10 ? '0' : ''}${month}`;
}

/**
 * The monthly page-view limit per site (the owner's plan, core/plans.ts rumMonthlyPageviews). A page view is
 * counted at its first send (seq 1), scaled by the sample rate (a 10 % sample's page view counts 10). At the
 * first beacon of a site in a month (and every 5 minutes after) the count is read from ClickHouse
 * (`countPageviews`), then kept in memory; the count used is the larger of the two, so this instance's
 * page views not yet flushed are never forgotten. Once the count reaches the limit every send of the site is
 * refused (`monthly_limit`) until the month ends.
 *
 * Several instances each count their own page views and learn the others' only at a re-read, so together they
 * can accept more than the limit: at most what the other instances accept in one re-read interval (5 min) plus
 * what sits in their unflushed batches. If ClickHouse cannot be read within 2 s, counting starts from what this
 * instance saw and the read is tried again at the next beacon after 5 minutes.
 */
export class PageviewLimit {
  private readonly sites = new Map<number, SiteMonth>();
  private readonly countPageviews: (siteId: number, month: string) => Promise<number>;
  private readonly now: () => number;

  constructor(countPageviews: (siteId: number, month: string) => Promise<number>, now: () => number = Date.now) {
    this.countPageviews = countPageviews;
    this.now = now;
  }

  /** Whether the beacon may pass; counts it when it opens a page view. */
  async admit(site: IngestSite, seq: number, sampleRate: number, at: Date): Promise<boolean> {
    const limit = planFor(site.ownerPlan).rumMonthlyPageviews;
    const month = utcMonth(at);
    let state = this.sites.get(site.id);
    if (!state || state.month !== month) {
      state = { month, pageviews: 0, seededAt: 0, seeding: null };
      this.sites.set(site.id, state);
    }
    if (this.now() - state.seededAt >= RESEED_MS) await this.seed(site.id, state);
    if (state.pageviews >= limit) return false;
    if (seq === 1) state.pageviews += 100 / sampleRate;
    return true;
  }

  private seed(siteId: number, state: SiteMonth): Promise<void> {
    if (state.seeding) return state.seeding;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('month count timed out')), SEED_TIMEOUT_MS);
    });
    state.seeding = Promise.race([this.countPageviews(siteId, state.month), timeout])
      .then((stored) => {
        state.pageviews = Math.max(state.pageviews, stored);
      })
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(timer);
        state.seededAt = this.now();
        state.seeding = null;
      });
    return state.seeding;
  }
}
