import type { Chrome } from '../layout.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { SafeHtml } from '../html.ts';
import type { Alert } from '../../core/monitoring/alert.ts';
import type { ScanTarget } from '../../core/monitoring/target.ts';
import type { ScanTrigger } from '../../core/scan/scan.ts';

/**
 * What the monitoring pages need, as plain objects. The routes map the stores' domain objects onto these:
 * targets and alerts are picks of `ScanTarget` and `Alert`, so `{ ...target }` and `{ ...alert, title, message }`
 * fit as they are.
 */

/** What every signed-in page of the area gets. */
export interface SignedInPage {
  locale: Locale;
  /** The page's frame (web/layout.ts): the signed-in user, navigation, language switch. */
  chrome: Chrome;
  /** The visitor's CSRF token (web/session.ts csrfToken), put in every form that posts. */
  csrf: string;
}

/** One finished scan of a target (a history item with the runs' spread). */
export interface HistoryScan {
  /** The scan's public id; the report is /reports/{scanId}. */
  scanId: string;
  /** When it finished. */
  at: Date;
  /** The overall score; null when the scan produced none (drawn as a break in the line). */
  score: number | null;
  /**
   * The overall score of each page load when the scan ran several (median of runs); lowest to highest is drawn
   * as the spread. Absent or one value: a single run.
   */
  runs?: readonly number[];
  /** What started it: the schedule, or its owner's Run now. */
  trigger?: ScanTrigger;
  /** The scoring version of its score: the chart does not join scores of different versions. */
  scoringVersion?: number;
}

export type TargetSummary = Pick<
  ScanTarget,
  'id' | 'url' | 'host' | 'region' | 'schedule' | 'isActive' | 'thresholds' | 'lastDispatchedAt'
> &
  Partial<Pick<ScanTarget, 'budgets'>> & {
    /** When its schedule starts the next scan (core/monitoring/schedule.ts nextScheduledScan); null while paused. */
    nextScanAt?: Date | null;
  };

/** An alert with its title and message already in the page's language. */
export type AlertRow = Pick<
  Alert,
  | 'id'
  | 'type'
  | 'severity'
  | 'url'
  | 'host'
  | 'region'
  | 'scanPublicId'
  | 'targetId'
  | 'isRead'
  | 'isDismissed'
  | 'createdAt'
  | 'resolvedAt'
> & {
  title: string;
  message: string;
  /** A flow's budget alert: the flow's public id (`scanPublicId` is then one of its runs); else null. */
  flowPublicId: string | null;
};

/** Field name → message, in the page's language, shown next to the field. `form`: above the form. */
export type FieldErrors = Record<string, string | SafeHtml>;

/**
 * Where the pages link and post. Every POST carries `_csrf` and `next` (the page to return to: a path on this
 * site, which the route must check like sign-in's `next` before redirecting to it).
 */
export const MONITORING_PATHS = {
  targets: '/targets',
  target: (id: number) => `/targets/${id}`,
  pauseTarget: (id: number) => `/targets/${id}/pause`,
  resumeTarget: (id: number) => `/targets/${id}/resume`,
  removeTarget: (id: number) => `/targets/${id}/delete`,
  targetThresholds: (id: number) => `/targets/${id}/thresholds`,
  runTarget: (id: number) => `/targets/${id}/run`,
  alerts: '/alerts',
  markAlertRead: (id: number) => `/alerts/${id}/read`,
  dismissAlert: (id: number) => `/alerts/${id}/dismiss`,
  undismissAlert: (id: number) => `/alerts/${id}/undismiss`,
  markAllAlertsRead: '/alerts/read-all',
  report: (scanId: string) => `/reports/${encodeURIComponent(scanId)}`,
} as const;
