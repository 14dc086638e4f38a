import type { Clock } from '../core/clock.ts';
import type { Alert } from '../core/monitoring/alert.ts';
import type { AlertStore } from '../db/store/alerts.ts';

/** What the owner does to their alerts, the same from the API and the web area. */
export interface AlertActionDeps {
  alerts: AlertStore;
  clock: Clock;
}

/** Marks the owner's unread alerts read (only those in `ids` when given; others' and unknown ids are ignored); how many changed. */
export function markAlertsRead(deps: AlertActionDeps, userId: number, ids: number[] | null): Promise<number> {
  return deps.alerts.markRead(userId, ids, deps.clock());
}

/** Dismisses (and marks read) one of the owner's alerts; undefined when they have no such alert. */
export function dismissAlert(deps: AlertActionDeps, userId: number, id: number): Promise<Alert | undefined> {
  return deps.alerts.dismiss(userId, id, deps.clock());
}

/** Takes back the owner's dismissal of an alert (the web area's undo); undefined when it cannot be taken back. */
export function undismissAlert(deps: AlertActionDeps, userId: number, id: number): Promise<Alert | undefined> {
  return deps.alerts.undismiss(userId, id, deps.clock());
}

/** A target's open alerts (all of them) and its latest closed ones (resolved or dismissed), newest first. */
export async function targetAlerts(
  alerts: AlertStore,
  userId: number,
  targetId: number,
  recentClosed: number,
): Promise<{ open: Alert[]; recent: Alert[] }> {
  const [open, recent] = await Promise.all([
    alerts.listOwned(userId, { targetId, status: 'open' }, { limit: 100, page: 1 }),
    alerts.listOwned(userId, { targetId, status: 'closed' }, { limit: recentClosed, page: 1 }),
  ]);
  return { open: open.items, recent: recent.items };
}
