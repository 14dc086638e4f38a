import type { Clock } from '../core/clock.ts';
import type { WebhookDelivery } from '../core/webhooks/delivery.ts';
import { REPLAY_MAX_DELIVERIES, WEBHOOK_ACTION_LIMITS, type WebhookAction } from '../core/webhooks/limits.ts';
import { pingPayload } from '../core/webhooks/payloads.ts';
import type { WebhookStore } from '../db/store/webhooks.ts';
import { enqueueWebhook } from './webhook-delivery.ts';
import type { WebhookDispatch } from './webhook-dispatch.ts';
import { countInWindow, type WindowCounter } from './sliding-window.ts';

/** What the notification settings page does besides saving: test event, resend, replay, re-enable. */
export interface WebhookActionDeps {
  webhooks: WebhookStore;
  dispatch: WebhookDispatch;
  clock: Clock;
}

/** How long the page waits for a test event's one attempt (the request's own timeout is 15 s). */
const TEST_WAIT_MS = 20_000;

/** Over the account's limit for the action (WEBHOOK_ACTION_LIMITS): nothing was queued; `until`: when it opens again. */
export interface Throttled {
  status: 'throttled';
  action: WebhookAction;
  until: Date;
}

export type TestEventOutcome =
  | { status: 'not_configured' }
  | { status: 'pending'; delivery: WebhookDelivery }
  | { status: 'done'; delivery: WebhookDelivery }
  | Throttled;

/** A `ping` through the outbox and the delivery workflow like any event (one attempt), and its result when it comes in time. */
export async function sendTestEvent(deps: WebhookActionDeps, userId: number): Promise<TestEventOutcome> {
  const now = deps.clock();
  const counted = await countAction(deps.webhooks, userId, 'test', now);
  if (counted.status === 'throttled') return counted;
  const delivery = await enqueueWebhook(deps.webhooks, userId, 'ping', pingPayload(now), now);
  if (!delivery) {
    await deps.webhooks.deleteAction(counted.id);
    return { status: 'not_configured' };
  }
  await deps.dispatch.start([delivery], { single: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), TEST_WAIT_MS)));
  const ended = await Promise.race([deps.dispatch.result(delivery.id).catch(() => 'timeout' as const), timeout]);
  clearTimeout(timer);
  const latest = (await deps.webhooks.findDelivery(delivery.id)) ?? delivery;
  return ended === 'timeout' ? { status: 'pending', delivery: latest } : { status: 'done', delivery: latest };
}

/** One more attempt at one of the owner's deliveries (same webhook-id, signed with the current secret). */
export async function resendDelivery(
  deps: WebhookActionDeps,
  userId: number,
  deliveryId: number,
): Promise<{ status: 'resent' } | { status: 'not_found' } | Throttled> {
  const delivery = await deps.webhooks.findOwnedDelivery(userId, deliveryId);
  if (!delivery) return { status: 'not_found' };
  const counted = await countAction(deps.webhooks, userId, 'resend', deps.clock());
  if (counted.status === 'throttled') return counted;
  await deps.webhooks.reopen(delivery.id, deps.clock());
  await deps.dispatch.resend(delivery);
  return { status: 'resent' };
}

/**
 * Resends the owner's failed deliveries created since `since`: the oldest REPLAY_MAX_DELIVERIES of them.
 * `more`: others were left (a replay from a later time takes them).
 */
export async function replayFailedSince(
  deps: WebhookActionDeps,
  userId: number,
  since: Date,
): Promise<{ status: 'replaying'; count: number; more: boolean } | Throttled> {
  const counted = await countAction(deps.webhooks, userId, 'replay', deps.clock());
  if (counted.status === 'throttled') return counted;
  const failed = await deps.webhooks.failedSince(userId, since, REPLAY_MAX_DELIVERIES + 1);
  const replayed = failed.slice(0, REPLAY_MAX_DELIVERIES);
  for (const delivery of replayed) {
    await deps.webhooks.reopen(delivery.id, deps.clock());
    await deps.dispatch.resend(delivery);
  }
  return { status: 'replaying', count: replayed.length, more: failed.length > replayed.length };
}

/** Counts one action against the account's limit (services/sliding-window.ts); trims what no action's window needs. */
export async function countAction(
  webhooks: WebhookStore,
  userId: number,
  action: WebhookAction,
  now: Date,
): Promise<{ status: 'counted'; id: number } | Throttled> {
  const counter: WindowCounter = {
    record: (at) => webhooks.recordAction(userId, action, at),
    remove: (id) => webhooks.deleteAction(id),
    timesSince: (since, limit) => webhooks.actionTimes(userId, action, since, limit),
    trimBefore: (before) => webhooks.deleteActionsBefore(userId, before),
  };
  const slot = await countInWindow(
    counter,
    WEBHOOK_ACTION_LIMITS[action],
    now,
    new Date(now.getTime() - LONGEST_ACTION_WINDOW_MS),
  );
  return slot.kind === 'counted'
    ? { status: 'counted', id: slot.id }
    : { status: 'throttled', action, until: slot.until };
}

const LONGEST_ACTION_WINDOW_MS = Math.max(...Object.values(WEBHOOK_ACTION_LIMITS).map((limit) => limit.windowMs));
