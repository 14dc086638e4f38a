import { createHmac, randomBytes } from 'node:crypto';
import { planFor } from '../core/plans.ts';
import { OVER_LIMIT_KEEP_ONE_IN, utcMonth } from '../core/rum/over-limit.ts';
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
  /** Whether the owner's notice of this month is done; a failed try is repeated after RESEED_MS. */
  noticeDone: boolean;
  noticeTriedAt: number;
  noticing: boolean;
}

/** What the limit says about one beacon. */
export type Admission =
  /** Store it; `keepOneIn` > 1 past the limit (the reduced sample, core/rum/over-limit.ts). */
  | { kind: 'keep'; keepOneIn: number }
  /** Past the limit and not in the reduced sample: answered 204, not stored. */
  | { kind: 'sampled_out' }
  /** The owner's plan has no live data (a limit of 0): refused. */
  | { kind: 'refused' };

/** Told once a site's count reaches its limit; resolves true once the owner's notice is done (by anyone). */
export type LimitReached = (site: IngestSite, month: string, at: Date) => Promise<boolean>;

/**
 * The monthly page-view limit per site (the owner's plan, core/plans.ts rumMonthlyPageviews). A page view is
 * counted at its first send (seq 1), weighed by the site's configured sample rate (a 10 % site's page view
 * counts 10), never by the `rate` a beacon claims, which its sender writes. At the first beacon of a site in a
 * month (and every 5 minutes after) the count is read from ClickHouse (`countPageviews`), then kept in memory;
 * the count used is the larger of the two, so this instance's page views not yet flushed are never forgotten.
 *
 * Once the count reaches the limit, the site's beacons are not refused: 1 page view in OVER_LIMIT_KEEP_ONE_IN
 * is kept (chosen by a keyed hash of the page-view id, the key random per process so senders cannot choose
 * ids that are kept), each counting that many times, and `limitReached` is told (again every 5 minutes
 * until it reports the notice done).
 *
 * Several instances each count their own page views and learn the others' only at a re-read, so together they
 * can accept more than the limit: at most what the other instances accept in one re-read interval (5 min) plus
 * what sits in their unflushed batches. If ClickHouse cannot be read within 2 s, counting starts from what this
 * instance saw and the read is tried again at the next beacon after 5 minutes.
 */
export class PageviewLimit {
  private readonly sites = new Map<number, SiteMonth>();
  private readonly countPageviews: (siteId: number, month: string) => Promise<number>;
  private readonly limitReached: LimitReached;
  private readonly now: () => number;
  private readonly sampleKey = randomBytes(16);

  constructor(
    countPageviews: (siteId: number, month: string) => Promise<number>,
    limitReached: LimitReached,
    now: () => number = Date.now,
  ) {
    this.countPageviews = countPageviews;
    this.limitReached = limitReached;
    this.now = now;
  }

  async admit(site: IngestSite, pageView: string, seq: number, at: Date): Promise<Admission> {
    const limit = planFor(site.ownerPlan).rumMonthlyPageviews;
    if (limit <= 0) return { kind: 'refused' };
    const month = utcMonth(at);
    let state = this.sites.get(site.id);
    if (!state || state.month !== month) {
      state = {
        month,
        pageviews: 0,
        seededAt: 0,
        seeding: null,
        noticeDone: false,
        noticeTriedAt: -Infinity,
        noticing: false,
      };
      this.sites.set(site.id, state);
    }
    if (this.now() - state.seededAt >= RESEED_MS) await this.seed(site.id, state);
    const weight = 100 / site.sampleRate;
    if (state.pageviews < limit) {
      if (seq === 1) state.pageviews += weight;
      if (state.pageviews >= limit) this.notice(site, state, at);
      return { kind: 'keep', keepOneIn: 1 };
    }
    this.notice(site, state, at);
    if (!this.inReducedSample(site.id, pageView)) return { kind: 'sampled_out' };
    if (seq === 1) state.pageviews += weight * OVER_LIMIT_KEEP_ONE_IN;
    return { kind: 'keep', keepOneIn: OVER_LIMIT_KEEP_ONE_IN };
  }

  private inReducedSample(siteId: number, pageView: string): boolean {
    const digest = createHmac('sha256', this.sampleKey).update(`${siteId}|${pageView}`).digest();
    return digest.readUInt32BE(0) % OVER_LIMIT_KEEP_ONE_IN === 0;
  }

  private notice(site: IngestSite, state: SiteMonth, at: Date): void {
    if (state.noticeDone || state.noticing || this.now() - state.noticeTriedAt < RESEED_MS) return;
    state.noticing = true;
    state.noticeTriedAt = this.now();
    this.limitReached(site, state.month, at)
      .then(
        (done) => {
          state.noticeDone = done;
        },
        () => undefined,
      )
      .finally(() => {
        state.noticing = false;
      });
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
