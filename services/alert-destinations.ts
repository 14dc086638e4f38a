import type { Clock } from '../core/clock.ts';
import type { Keyring } from '../core/keys.ts';
import { newPublicId } from '../core/ids.ts';
import type { Locale } from '../core/i18n/locale.ts';
import { isChatKind, testChatNotice, type ChatKind, type ChatNotice } from '../core/alert-destinations/notice.ts';
import {
  destinationUrlHint,
  destinationUrlProblem,
  MAX_DESTINATIONS_PER_ACCOUNT,
  type DestinationUrlProblem,
} from '../core/alert-destinations/url.ts';
import { plansWith, type PlanKey } from '../core/plans.ts';
import type { WebhookDelivery } from '../core/webhooks/delivery.ts';
import type { DeliveryEvent, WebhookPayload } from '../core/webhooks/events.ts';
import { pingPayload } from '../core/webhooks/payloads.ts';
import type { AlertDestination } from '../db/store/alert-destinations.ts';
import type { WebhookStore } from '../db/store/webhooks.ts';
import type { HostLookup } from '../infra/scan-target.ts';
import { sealDestinationUrl } from './alert-destination-secrets.ts';
import { mayUseWebhooks, refusedWebhookAddress } from './webhook-settings.ts';
import { countAction, type Throttled, type WebhookActionDeps } from './webhook-actions.ts';

/** What the destinations page needs: the store, the key that seals URLs, the outbound address rule. */
export interface AlertDestinationDeps {
  webhooks: WebhookStore;
  keys: Keyring;
  allowLoopback: boolean;
  clock: Clock;
  /** Tests resolve names their own way; the system resolver otherwise. */
  lookup?: HostLookup;
  /** The owner's targets a destination may be limited to (id → URL); null target: account-wide. */
  ownsTarget: (userId: number, targetId: number) => Promise<boolean>;
}

export interface DestinationForm {
  kind: string;
  url: string;
  /** '' for every alert of the account, else a target id. */
  target: string;
}

export type DestinationError =
  DestinationUrlProblem | 'missing' | 'blocked_address' | 'unresolvable' | 'kind' | 'target' | 'too_many';

export type AddDestinationOutcome =
  | { status: 'added'; destination: AlertDestination }
  | { status: 'invalid'; errors: { url?: DestinationError; kind?: DestinationError; target?: DestinationError } }
  | { status: 'plan_required' };

/**
 * Adds a Slack or Teams destination: Pro and up (the `webhooks` feature), at most MAX_DESTINATIONS_PER_ACCOUNT,
 * the URL by destinationUrlProblem (https; http only to loopback when allowed) and the outbound address rule
 * at save (and again at every send). The URL is stored sealed; only its hint is ever shown.
 */
export async function addAlertDestination(
  deps: AlertDestinationDeps,
  user: { id: number; plan: PlanKey },
  form: DestinationForm,
): Promise<AddDestinationOutcome> {
  if (!mayUseWebhooks(user.plan)) return { status: 'plan_required' };
  const url = form.url.trim();
  const errors: { url?: DestinationError; kind?: DestinationError; target?: DestinationError } = {};
  if (!isChatKind(form.kind)) errors.kind = 'kind';
  const urlProblem = url === '' ? 'missing' : destinationUrlProblem(url, deps.allowLoopback);
  if (urlProblem) errors.url = urlProblem;
  let targetId: number | null = null;
  if (form.target !== '') {
    targetId = /^[1-9]\d{0,14}$/.test(form.target) ? Number(form.target) : null;
    if (targetId === null || !(await deps.ownsTarget(user.id, targetId))) errors.target = 'target';
  }
  if (!errors.url) {
    const refused = await refusedWebhookAddress(deps, url);
    if (refused) errors.url = refused.includes('private') ? 'blocked_address' : 'unresolvable';
  }
  if (
    Object.keys(errors).length === 0 &&
    (await deps.webhooks.countDestinations(user.id)) >= MAX_DESTINATIONS_PER_ACCOUNT
  )
    errors.url = 'too_many';
  if (Object.keys(errors).length) return { status: 'invalid', errors };
  const destination = await deps.webhooks.addDestination({
    userId: user.id,
    targetId,
    kind: form.kind as ChatKind,
    urlEncrypted: sealDestinationUrl(deps.keys, user.id, url),
    urlHint: destinationUrlHint(url),
    at: deps.clock(),
  });
  return { status: 'added', destination };
}

/**
 * The outbox rows of one alert event for the owner's Slack and Teams destinations (account-wide ones, and the
 * target's own for a score alert), written with whatever transaction `outbox` runs in, beside the signed
 * webhook's row: the caller starts them with the others after commit. `notice`: the message in the owner's
 * language. None below Pro or without destinations.
 */
export async function enqueueChatAlerts(
  outbox: WebhookStore,
  event: { userId: number; targetId: number | null; event: DeliveryEvent; payload: WebhookPayload },
  notice: (locale: Locale) => ChatNotice,
  at: Date,
): Promise<WebhookDelivery[]> {
  const { locale, destinations } = await outbox.destinationsFor(event.userId, event.targetId, plansWith('webhooks'));
  const deliveries: WebhookDelivery[] = [];
  for (const destination of destinations) {
    deliveries.push(await enqueueOne(outbox, destination, event, notice(locale), at));
  }
  return deliveries;
}

async function enqueueOne(
  outbox: WebhookStore,
  destination: AlertDestination,
  event: { userId: number; event: DeliveryEvent; payload: WebhookPayload },
  notice: ChatNotice,
  at: Date,
): Promise<WebhookDelivery> {
  const messageId = `msg_${newPublicId(at)}`;
  const id = await outbox.enqueueChat({
    destinationId: destination.id,
    userId: event.userId,
    event: event.event,
    payload: event.payload,
    notice,
    messageId,
    at,
  });
  return {
    id,
    messageId,
    userId: event.userId,
    event: event.event,
    payload: event.payload,
    status: 'pending',
    webhookAttempts: 0,
    webhookResponseCode: null,
    webhookLastError: null,
    workflowStartedAt: null,
    createdAt: at,
    completedAt: null,
    destinationId: destination.id,
  };
}

/** The page's "Send test message": a `ping` row for that one destination (a disabled one is recorded as not sent). */
export async function enqueueTestMessage(
  webhooks: WebhookStore,
  userId: number,
  destinationId: number,
  locale: Locale,
  at: Date,
): Promise<WebhookDelivery | undefined> {
  const destination = await webhooks.findOwnedDestination(userId, destinationId);
  if (!destination) return undefined;
  return enqueueOne(
    webhooks,
    destination,
    { userId, event: 'ping', payload: pingPayload(at) },
    testChatNotice(locale, at),
    at,
  );
}

/** How long the page waits for a test message's one attempt (the request's own timeout is 15 s). */
const TEST_WAIT_MS = 20_000;

export type TestMessageOutcome =
  | { status: 'not_found' }
  | { status: 'pending'; delivery: WebhookDelivery }
  | { status: 'done'; delivery: WebhookDelivery }
  | Throttled;

/**
 * "Send test message": counted against the account's test-event limit (core/webhooks/limits.ts, shared with
 * the signed webhook's test event), one attempt through the delivery workflow, its result when it comes in time.
 */
export async function sendTestMessage(
  deps: WebhookActionDeps,
  userId: number,
  destinationId: number,
  locale: Locale,
): Promise<TestMessageOutcome> {
  const now = deps.clock();
  if (!(await deps.webhooks.findOwnedDestination(userId, destinationId))) return { status: 'not_found' };
  const counted = await countAction(deps.webhooks, userId, 'test', now);
  if (counted.status === 'throttled') return counted;
  const delivery = await enqueueTestMessage(deps.webhooks, userId, destinationId, locale, now);
  if (!delivery) {
    await deps.webhooks.deleteAction(counted.id);
    return { status: 'not_found' };
  }
  await deps.dispatch.start([delivery], { single: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), TEST_WAIT_MS)));
  const ended = await Promise.race([deps.dispatch.result(delivery.id).catch(() => 'timeout' as const), timeout]);
  clearTimeout(timer);
  const latest = (await deps.webhooks.findDelivery(delivery.id)) ?? delivery;
  return ended === 'timeout' ? { status: 'pending', delivery: latest } : { status: 'done', delivery: latest };
}
