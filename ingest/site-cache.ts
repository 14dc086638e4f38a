import type { IngestSite } from '../db/store/rum-sites.ts';

/** How long a looked-up site (or its absence) is believed: a deactivated site stops within this time. */
export const SITE_TTL_MS = 30_000;
export const MISSING_SITE_TTL_MS = 10_000;
const MAX_ENTRIES = 50_000;

interface Entry {
  site: IngestSite | null;
  expiresAt: number;
}

/**
 * Sites by public id, in memory, so the hot path rarely asks Postgres: found sites for 30 s, unknown ids for
 * 10 s (negative caching: a stream of beacons for a deleted site costs one query per 10 s). One lookup per id
 * at a time however many beacons wait for it. When Postgres fails, an expired entry is used rather than
 * refusing the beacon; with none, the lookup's error goes to the caller (503).
 */
export class SiteCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<IngestSite | null>>();
  private readonly lookup: (publicId: string) => Promise<IngestSite | undefined>;
  private readonly now: () => number;

  constructor(lookup: (publicId: string) => Promise<IngestSite | undefined>, now: () => number = Date.now) {
    this.lookup = lookup;
    this.now = now;
  }

  /** The cached answer when it is fresh (synchronous, for the hot path), else undefined. */
  fresh(publicId: string): IngestSite | null | undefined {
    const entry = this.entries.get(publicId);
    return entry && entry.expiresAt > this.now() ? entry.site : undefined;
  }

  async get(publicId: string): Promise<IngestSite | null> {
    const cached = this.fresh(publicId);
    if (cached !== undefined) return cached;
    let pending = this.inFlight.get(publicId);
    if (!pending) {
      pending = this.load(publicId).finally(() => this.inFlight.delete(publicId));
      this.inFlight.set(publicId, pending);
    }
    return pending;
  }

  private async load(publicId: string): Promise<IngestSite | null> {
    try {
      const site = (await this.lookup(publicId)) ?? null;
      this.entries.delete(publicId);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(publicId, { site, expiresAt: this.now() + (site ? SITE_TTL_MS : MISSING_SITE_TTL_MS) });
      return site;
    } catch (error) {
      const stale = this.entries.get(publicId);
      if (stale) return stale.site;
      throw error;
    }
  }
}
