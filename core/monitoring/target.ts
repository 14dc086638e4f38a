import type { Thresholds } from './thresholds.ts';

export const TARGET_SCHEDULES = ['daily'] as const;
export type TargetSchedule = (typeof TARGET_SCHEDULES)[number];

/** A monitored scan target (the spec's "domain"), as the rest of the code sees it (db/store/targets.ts maps the row). */
export interface ScanTarget {
  id: number;
  userId: number;
  /** Normalised by core/url.ts, like a scan's; `host` comes from it. */
  url: string;
  host: string;
  region: string;
  schedule: TargetSchedule;
  isActive: boolean;
  thresholds: Thresholds;
  lastDispatchedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
