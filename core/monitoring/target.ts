import type { ScanTrigger } from '../scan/scan.ts';
import type { Budgets } from './budgets.ts';
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
  /** Performance budgets (core/monitoring/budgets.ts); `{}` when none are set. */
  budgets: Budgets;
  lastDispatchedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a new target is stored with. */
export type NewScanTarget = Pick<ScanTarget, 'userId' | 'url' | 'host' | 'region' | 'isActive' | 'thresholds'> &
  Partial<Pick<ScanTarget, 'budgets'>> & {
    createdAt: Date;
  };

/** What an owner may change on a target (not its URL: another URL is another target, with a history of its own). */
export type ScanTargetChanges = Partial<Pick<ScanTarget, 'isActive' | 'thresholds' | 'region' | 'budgets'>>;

/** How many finished scans a target's history holds (the spec's GET /domains/{id}/history). */
export const TARGET_HISTORY_LENGTH = 30;

/** One finished scan in a target's history. `createdAt` is when its result was made (the scan's finished_at). */
export interface TargetHistoryItem {
  scanId: string;
  score: number;
  createdAt: Date;
  region: string;
  /** Each run's own overall score when the scan ran several (median of runs); empty for one run or older scans. */
  runOveralls: number[];
  /** `schedule`, or `run_now` for a scan its owner started with Run now. */
  trigger: ScanTrigger;
  /** The scoring version its scores were computed with (core/scoring). */
  scoringVersion: number;
}
