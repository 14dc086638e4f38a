import { randomUUID } from 'node:crypto';
import { newPublicId } from '../core/ids.ts';
import { plansWith } from '../core/plans.ts';
import { parseRetryAfter, type DeliveryStatus, type WebhookDelivery } from '../core/webhooks/delivery.ts';
import { DISABLE_AFTER_FAILING_MS, isHeaderValue, type DisabledReason } from '../core/webhooks/endpoint.ts';
import type { DeliveryEvent, WebhookPayload } from '../core/webhooks/events.ts';
import { payloadProblems } from '../core/webhooks/schemas.ts';
import { signedHeaders } from '../core/webhooks/signing.ts';
import type { WebhookStore } from '../db/store/webhooks.ts';
import { authHeaderOf, mayUseWebhooks, signingSecrets } from './webhook-settings.ts';
import { RECORD_RETRY, retriedWrite } from './webhook-recording.ts';
import { sendWebhook, type WebhookResponse } from './webhook-sender.ts';
import { attemptChatDelivery } from './chat-delivery.ts';
import { recordNotSent, type AttemptResult, type WebhookDeliveryDeps } from './webhook-attempt.ts';

export const WEBHOOK_TIMEOUT_MS = 15_000;
export const WEBHOOK_USER_AGENT = 'WebPerf-Webhooks/1.0';

/**
 * Writes the outbox row for an event, with whatever transaction `webhooks` runs in, when the owner gets it
 * (Pro or higher, a URL, the event switched on, the endpoint enabled); undefined otherwise.
 */
export function enqueueWebhook(
  webhooks: WebhookStore,
  userId: number,
  event: DeliveryEvent,
  payload: WebhookPayload,
  at: Date,
): Promise<WebhookDelivery | undefined> {
  return webhooks.enqueue({ userId, event, payload, messageId: `msg_${newPublicId(at)}`, at }, plansWith('webhooks'));
}

/**
 * One attempt at a delivery: signs the stored payload with the current (and, during a rotation, the previous)
 * secret, sends it with the configured header, records the attempt and its effect on the delivery, and keeps
 * the endpoint's failure record: 410 disables it at once, 5 days of nothing but failures too (with an e-mail).
 * `final`: no attempt follows this one, so a failure is the delivery's end.
 */
export async function attemptDelivery(
  deps: WebhookDeliveryDeps,
  deliveryId: number,
  final: boolean,
  options: { claimed?: WebhookDelivery } = {},
): Promise<AttemptResult> {
  // `claimed`: the row as the direct attempt's claim returned it (one query fewer on the latency path).
  const delivery = options.claimed ?? (await deps.webhooks.findDelivery(deliveryId));
  if (!delivery) return { outcome: 'not_sent', retryAfterMs: null };
  // Ended already (a workflow the sweeper started after a direct attempt whose process died before starting its
  // own): its real outcome, and nothing sent.
  if (delivery.status !== 'pending') return { outcome: delivery.status, retryAfterMs: null };
  // A Slack or Teams destination's delivery: its own message and answers, the same schedule and attempt log.
  if (delivery.destinationId)
    return attemptChatDelivery(deps, { ...delivery, destinationId: delivery.destinationId }, final);
  const [endpoint, owner] = await Promise.all([
    deps.webhooks.findEndpoint(delivery.userId),
    deps.users.findById(delivery.userId),
  ]);
  const header = endpoint ? authHeaderOf(deps, endpoint) : null;
  const refusal =
    !owner || !mayUseWebhooks(owner.plan)
      ? 'webhooks need the Pro plan or higher'
      : !endpoint?.url
        ? 'no webhook URL is configured'
        : endpoint.disabledAt
          ? 'the endpoint is disabled'
          : header && !isHeaderValue(header.value)
            ? 'the authentication header value is not a valid HTTP header value; save it again in the notification settings'
            : payloadProblems(delivery.event, delivery.payload);
  const now = deps.clock();
  if (refusal) {
    deps.log.info({ deliveryId, userId: delivery.userId, event: delivery.event, reason: refusal }, 'webhook not sent');
    return recordNotSent(deps, deliveryId, refusal, now);
  }
  const body = JSON.stringify(delivery.payload);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': `${WEBHOOK_USER_AGENT} (+${deps.baseUrl})`,
    // The signature's time is the real time of sending: receivers reject old timestamps (replay protection).
    ...signedHeaders(signingSecrets(deps, endpoint!), delivery.messageId, new Date(), body),
    ...(header ? { [header.name]: header.value } : {}),
  };
  const response = await sendWebhook({
    url: endpoint!.url!,
    headers,
    body,
    timeoutMs: deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    allowLoopback: deps.allowLoopback,
    lookup: deps.lookup,
  });
  // The request has gone out: from here nothing throws, since the activity's retry would send it again.
  return afterSend(deps, { delivery, owner: owner!, url: endpoint!.url!, final, attemptedAt: now, response });
}

/**
 * Records a sent attempt and its effects. Postgres writes are retried in the process with the response held
 * in memory (retriedWrite; the attempt's key makes a repeated record a no-op, so it counts once); an excerpt
 * Postgres refuses is left out. When recording still fails, the attempt stays unrecorded (logged) and its
 * outcome is returned all the same: the schedule goes on from what the receiver answered, nothing is re-sent.
 */
async function afterSend(
  deps: WebhookDeliveryDeps,
  sent: {
    delivery: WebhookDelivery;
    owner: { email: string };
    url: string;
    final: boolean;
    attemptedAt: Date;
    response: WebhookResponse;
  },
): Promise<AttemptResult> {
  const { delivery, response } = sent;
  const deliveryId = delivery.id;
  const succeeded = response.error === null;
  const gone = response.responseCode === 410;
  const at = deps.clock();
  const key = randomUUID();
  const retry = deps.recordRetry ?? RECORD_RETRY;
  // One budget for every write below, so the attempt ends well inside its activity's timeout (whose retry would send again).
  const deadline = Date.now() + retry.budgetMs;
  const logged = (what: string) => (error: unknown, tries: number) =>
    deps.log.warn(
      { deliveryId, userId: delivery.userId, tries, err: error },
      `${what} failed after the webhook was sent; trying again without sending`,
    );
  const recorded = await retriedWrite(
    retry,
    deadline,
    async (excerptRefused) => {
      const failingSince = succeeded ? null : await deps.webhooks.recordEndpointFailure(delivery.userId, at);
      const disable: DisabledReason | null = gone
        ? 'gone'
        : failingSince && at.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS
          ? 'failing'
          : null;
      const status: DeliveryStatus = succeeded ? 'succeeded' : disable || sent.final ? 'failed' : 'pending';
      await deps.webhooks.recordAttempt(
        {
          key,
          deliveryId,
          attemptedAt: sent.attemptedAt,
          durationMs: response.durationMs,
          responseCode: response.responseCode,
          responseBody: excerptRefused ? null : response.responseBody,
          error: response.error,
        },
        { status, responseCode: response.responseCode, error: response.error },
        at,
      );
      return { failingSince, disable, status };
    },
    logged('recording the attempt'),
  );
  if (!recorded.ok)
    deps.log.warn(
      {
        deliveryId,
        userId: delivery.userId,
        responseCode: response.responseCode,
        error: response.error,
        err: recorded.error,
      },
      'webhook attempt sent but not recorded',
    );
  // Unrecorded (Postgres away through the whole budget): the outcome as the receiver gave it, and no further
  // writes; the 5-day rule needs the stored failing_since, and a 410 disables at the endpoint's next failure.
  const { failingSince, disable, status } = recorded.ok
    ? recorded.value
    : {
        failingSince: null,
        disable: null,
        status: (succeeded ? 'succeeded' : gone || sent.final ? 'failed' : 'pending') as DeliveryStatus,
      };
  deps.metrics?.webhookAttempt(succeeded ? 'succeeded' : 'failed');
  if (!succeeded) {
    // The runbook's "worker logs": which delivery, which attempt, what the receiver said. Never the configured
    // header, the signing secret or the payload.
    deps.log.warn(
      {
        deliveryId,
        userId: delivery.userId,
        event: delivery.event,
        attempt: delivery.webhookAttempts + 1,
        responseCode: response.responseCode,
        error: response.error,
        final: status !== 'pending',
      },
      'webhook attempt failed',
    );
  }
  if (status !== 'pending') deps.metrics?.webhookDeliveryEnded(status);
  if (succeeded) {
    if (recorded.ok)
      await retriedWrite(
        retry,
        deadline,
        () => deps.webhooks.recordEndpointSuccess(delivery.userId),
        logged("clearing the endpoint's failure record"),
      );
    return { outcome: 'succeeded', retryAfterMs: null };
  }
  if (disable) {
    const disabled = await retriedWrite(
      retry,
      deadline,
      () => deps.webhooks.disable(delivery.userId, disable, at),
      logged('disabling the endpoint'),
    );
    const newlyDisabled = disabled.ok && disabled.value;
    if (newlyDisabled) {
      deps.metrics?.webhookEndpointDisabled();
      deps.log.warn(
        {
          deliveryId,
          userId: delivery.userId,
          event: delivery.event,
          reason:
            disable === 'gone'
              ? 'the receiver answered 410 Gone'
              : `every attempt failed since ${failingSince!.toISOString()}`,
          responseCode: response.responseCode,
          error: response.error,
        },
        'webhook endpoint disabled',
      );
    }
    if (newlyDisabled && disable === 'failing') {
      await deps.mailer
        .send(endpointDisabledEmail(sent.owner.email, sent.url, failingSince!, deps.baseUrl))
        .catch((error: unknown) =>
          deps.log.warn({ deliveryId, userId: delivery.userId, err: error }, 'endpoint-disabled e-mail not sent'),
        );
    }
    return { outcome: disable === 'gone' ? 'gone' : 'failed', retryAfterMs: null };
  }
  const retryAfterMs =
    response.responseCode === 429 || response.responseCode === 503 ? parseRetryAfter(response.retryAfter, at) : null;
  return { outcome: status === 'pending' ? 'retry' : gone ? 'gone' : 'failed', retryAfterMs };
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
