import type { Clock } from '../core/clock.ts';
import type { Keyring } from '../core/keys.ts';
import type { Logger } from '../core/logger.ts';
import { newPublicId } from '../core/ids.ts';
import { plansWith } from '../core/plans.ts';
import type { HostLookup } from '../core/scan-target.ts';
import { parseRetryAfter, type AttemptOutcomeKind, type WebhookDelivery } from '../core/webhooks/delivery.ts';
import { DISABLE_AFTER_FAILING_MS } from '../core/webhooks/endpoint.ts';
import type { DeliveryEvent, WebhookPayload } from '../core/webhooks/events.ts';
import { payloadProblems } from '../core/webhooks/schemas.ts';
import { signedHeaders } from '../core/webhooks/signing.ts';
import type { UserStore } from '../db/store/users.ts';
import type { WebhookStore } from '../db/store/webhooks.ts';
import type { Mailer } from './mailer.ts';
import type { WorkerMetrics } from '../core/worker-metrics.ts';
import { authHeaderOf, mayUseWebhooks, signingSecrets } from './webhook-settings.ts';
import { sendWebhook } from './webhook-sender.ts';

export const WEBHOOK_TIMEOUT_MS = 15_000;
export const WEBHOOK_USER_AGENT = 'WebPerf-Webhooks/1.0';

/**
 * Writes the outbox row for an event, with whatever transaction `webhooks` runs in, when the owner gets it
 * (Pro or higher, a URL, the event switched on, the endpoint enabled); undefined otherwise.
 */
export function enqueueWebhook(webhooks: WebhookStore, userId: number, event: DeliveryEvent, payload: WebhookPayload, at: Date): Promise<WebhookDelivery | undefined> {
  return webhooks.enqueue({ userId, event, payload, messageId: `msg_${newPublicId(at)}`, at }, plansWith('webhooks'));
}

export interface WebhookDeliveryDeps {
  webhooks: WebhookStore;
  users: UserStore;
  mailer: Mailer;
  keys: Keyring;
  allowLoopback: boolean;
  baseUrl: string;
  clock: Clock;
  lookup?: HostLookup;
  timeoutMs?: number;
  metrics?: Pick<WorkerMetrics, 'webhookAttempt' | 'webhookDeliveryEnded' | 'webhookEndpointDisabled'>;
  /** Failed attempts and disabled endpoints are logged (ids, status code, error text; never headers, secrets or bodies). */
  log: Pick<Logger, 'warn' | 'info'>;
}

/** What one attempt came to: `retry` while the schedule goes on (with the receiver's Retry-After on 429/503). */
export interface AttemptResult {
  outcome: AttemptOutcomeKind;
  retryAfterMs: number | null;
}

/**
 * One attempt at a delivery: signs the stored payload with the current (and, during a rotation, the previous)
 * secret, sends it with the configured header, records the attempt and its effect on the delivery, and keeps
 * the endpoint's failure record: 410 disables it at once, 5 days of nothing but failures too (with an e-mail).
 * `final`: no attempt follows this one, so a failure is the delivery's end.
 */
export async function attemptDelivery(deps: WebhookDeliveryDeps, deliveryId: number, final: boolean, options: { claimed?: WebhookDelivery } = {}): Promise<AttemptResult> {
  // `claimed`: the row as the direct attempt's claim returned it (one query fewer on the latency path).
  const delivery = options.claimed ?? (await deps.webhooks.findDelivery(deliveryId));
  if (!delivery) return { outcome: 'not_sent', retryAfterMs: null };
  // Ended already (a workflow the sweeper started after a direct attempt whose process died before starting its
  // own): its real outcome, and nothing sent.
  if (delivery.status !== 'pending') return { outcome: delivery.status, retryAfterMs: null };
  const [endpoint, owner] = await Promise.all([deps.webhooks.findEndpoint(delivery.userId), deps.users.findById(delivery.userId)]);
  const refusal =
    !owner || !mayUseWebhooks(owner.plan)
      ? 'webhooks need the Pro plan or higher'
      : !endpoint?.url
        ? 'no webhook URL is configured'
        : endpoint.disabledAt
          ? 'the endpoint is disabled'
          : payloadProblems(delivery.event, delivery.payload);
  const now = deps.clock();
  if (refusal) {
    deps.log.info({ deliveryId, userId: delivery.userId, event: delivery.event, reason: refusal }, 'webhook not sent');
    await deps.webhooks.recordAttempt({ deliveryId, attemptedAt: now, durationMs: 0, responseCode: null, responseBody: null, error: `not sent: ${refusal}` }, { status: 'failed', responseCode: null, error: `not sent: ${refusal}` }, now);
    deps.metrics?.webhookAttempt('not_sent');
    deps.metrics?.webhookDeliveryEnded('not_sent');
    return { outcome: 'not_sent', retryAfterMs: null };
  }
  const body = JSON.stringify(delivery.payload);
  const header = authHeaderOf(deps, endpoint!);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': `${WEBHOOK_USER_AGENT} (+${deps.baseUrl})`,
    // The signature's time is the real time of sending: receivers reject old timestamps (replay protection).
    ...signedHeaders(signingSecrets(deps, endpoint!), delivery.messageId, new Date(), body),
    ...(header ? { [header.name]: header.value } : {}),
  };
  const response = await sendWebhook({ url: endpoint!.url!, headers, body, timeoutMs: deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS, allowLoopback: deps.allowLoopback, lookup: deps.lookup });
  const succeeded = response.error === null;
  const gone = response.responseCode === 410;
  const at = deps.clock();
  const failingSince = succeeded ? null : await deps.webhooks.recordEndpointFailure(delivery.userId, at);
  const disable = gone ? 'gone' : failingSince && at.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS ? 'failing' : null;
  const status = succeeded ? 'succeeded' : disable || final ? 'failed' : 'pending';
  await deps.webhooks.recordAttempt(
    { deliveryId, attemptedAt: now, durationMs: response.durationMs, responseCode: response.responseCode, responseBody: response.responseBody, error: response.error },
    { status, responseCode: response.responseCode, error: response.error },
    at,
  );
  deps.metrics?.webhookAttempt(succeeded ? 'succeeded' : 'failed');
  if (!succeeded) {
    // The runbook's "worker logs": which delivery, which attempt, what the receiver said. Never the configured
    // header, the signing secret or the payload.
    deps.log.warn(
      { deliveryId, userId: delivery.userId, event: delivery.event, attempt: delivery.webhookAttempts + 1, responseCode: response.responseCode, error: response.error, final: status !== 'pending' },
      'webhook attempt failed',
    );
  }
  if (status !== 'pending') deps.metrics?.webhookDeliveryEnded(status);
  if (succeeded) {
    await deps.webhooks.recordEndpointSuccess(delivery.userId);
    return { outcome: 'succeeded', retryAfterMs: null };
  }
  if (disable) {
    const newlyDisabled = await deps.webhooks.disable(delivery.userId, disable, at);
    if (newlyDisabled) deps.metrics?.webhookEndpointDisabled();
    if (newlyDisabled) {
      deps.log.warn(
        { deliveryId, userId: delivery.userId, event: delivery.event, reason: disable === 'gone' ? 'the receiver answered 410 Gone' : `every attempt failed since ${failingSince!.toISOString()}`, responseCode: response.responseCode, error: response.error },
        'webhook endpoint disabled',
      );
    }
    if (newlyDisabled && disable === 'failing') await deps.mailer.send(endpointDisabledEmail(owner!.email, endpoint!.url!, failingSince!, deps.baseUrl));
    return { outcome: disable === 'gone' ? 'gone' : 'failed', retryAfterMs: null };
  }
  const retryAfterMs = response.responseCode === 429 || response.responseCode === 503 ? parseRetryAfter(response.retryAfter, at) : null;
  return { outcome: status === 'failed' ? 'failed' : 'retry', retryAfterMs };
}

export const notificationSettingsUrl = (baseUrl: string): string => `${baseUrl}/account/notifications`;

function endpointDisabledEmail(to: string, url: string, failingSince: Date, baseUrl: string) {
  const settings = notificationSettingsUrl(baseUrl);
  const text = [
    `Every webhook sent to ${url} since ${failingSince.toISOString()} has failed, so the endpoint has been disabled and no more events are sent to it.`,
    '',
    `Once the receiver works again, re-enable it in the notification settings (failed deliveries can be replayed there): ${settings}`,
  ].join('\n');
  const escape = (value: string) => value.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return {
    to,
    subject: 'Your webhook endpoint has been disabled',
    text,
    html: `<p>Every webhook sent to <code>${escape(url)}</code> since ${escape(failingSince.toISOString())} has failed, so the endpoint has been disabled and no more events are sent to it.</p><p>Once the receiver works again, <a href="${escape(settings)}">re-enable it in the notification settings</a> (failed deliveries can be replayed there).</p>`,
  };
}
