import type { RejectionReason } from './reasons.ts';

export interface RejectionRow {
  site_id: number;
  day: string;
  reason: string;
  beacons: number;
}

/**
 * Refusals of known sites, summed in memory per (site, UTC day, reason) and written to `rum_rejections` with
 * the flusher's batches. Not spooled: a crash loses at most one flush interval of these counts (the
 * /metrics counters have them too), and a failed insert puts them back for the next flush.
 */
export class RejectionTally {
  private counts = new Map<string, RejectionRow>();

  add(siteId: number, reason: RejectionReason, at: Date): void {
    const day = at.toISOString().slice(0, 10);
    const key = `${siteId}|${day}|${reason}`;
    const row = this.counts.get(key);
    if (row) row.beacons += 1;
    else this.counts.set(key, { site_id: siteId, day, reason, beacons: 1 });
  }

  get size(): number {
    return this.counts.size;
  }

  /** Takes the current counts; hand them back with `restore` when they could not be written. */
  take(): RejectionRow[] {
    const rows = [...this.counts.values()];
    this.counts = new Map();
    return rows;
  }

  restore(rows: RejectionRow[]): void {
    for (const row of rows) {
      const key = `${row.site_id}|${row.day}|${row.reason}`;
      const existing = this.counts.get(key);
      if (existing) existing.beacons += row.beacons;
      else this.counts.set(key, { ...row });
    }
  }
}
