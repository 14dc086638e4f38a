import type { Clock } from '../core/clock.ts';
import type { WebhookDelivery } from '../core/webhooks/delivery.ts';
import { pingPayload } from '../core/webhooks/payloads.ts';
import type { WebhookStore } from '../db/store/webhooks.ts';
import { enqueueWebhook } from './webhook-delivery.ts';
import type { WebhookDispatch } from './webhook-dispatch.ts';

/** What the notification settings page does besides saving: test event, resend, replay, re-enable. */
export interface WebhookActionDeps {
  webhooks: WebhookStore;
  dispatch: WebhookDispatch;
  clock: Clock;
}

/** How long the page waits for a test event's one attempt (the request's own timeout is 15 s). */
const TEST_WAIT_MS = 20_000;

export type TestEventOutcome = { status: 'not_configured' } | { status: 'pending'; delivery: WebhookDelivery } | { status: 'done'; delivery: WebhookDelivery };

/** A `ping` through the outbox and the delivery workflow like any event (one attempt), and its result when it comes in time. */
export async function sendTestEvent(deps: WebhookActionDeps, userId: number): Promise<TestEventOutcome> {
  const now = deps.clock();
  const delivery = await enqueueWebhook(deps.webhooks, userId, 'ping', pingPayload(now), now);
  if (!delivery) return { status: 'not_configured' };
  await deps.dispatch.start([delivery], { single: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), TEST_WAIT_MS)));
  const ended = await Promise.race([deps.dispatch.result(delivery.id).catch(() => 'timeout' as const), timeout]);
  clearTimeout(timer);
  const latest = (await deps.webhooks.findDelivery(delivery.id)) ?? delivery;
  return ended === 'timeout' ? { status: 'pending', delivery: latest } : { status: 'done', delivery: latest };
}

/** One more attempt at one of the owner's deliveries (same webhook-id, signed with the current secret); false when it is not theirs. */
export async function resendDelivery(deps: WebhookActionDeps, userId: number, deliveryId: number): Promise<boolean> {
  const delivery = await deps.webhooks.findOwnedDelivery(userId, deliveryId);
  if (!delivery) return false;
  await deps.webhooks.reopen(delivery.id, deps.clock());
  await deps.dispatch.resend(delivery);
  return true;
}

/** Resends every failed delivery of the owner's created since `since`; how many. */
export async function replayFailedSince(deps: WebhookActionDeps, userId: number, since: Date): Promise<number> {
  const failed = await deps.webhooks.failedSince(userId, since);
  for (const delivery of failed) {
    await deps.webhooks.reopen(delivery.id, deps.clock());
    await deps.dispatch.resend(delivery);
  }
  return failed.length;
}
