import { randomUUID } from 'node:crypto';
import { destinationUrlProblem, chatAnswer } from '../core/alert-destinations/url.ts';
import { slackMessage } from '../core/alert-destinations/slack.ts';
import { teamsMessage } from '../core/alert-destinations/teams.ts';
import { plansWith } from '../core/plans.ts';
import { parseRetryAfter, type DeliveryStatus, type WebhookDelivery } from '../core/webhooks/delivery.ts';
import { openDestinationUrl } from './alert-destination-secrets.ts';
import { RECORD_RETRY, retriedWrite } from './webhook-recording.ts';
import { sendWebhook } from './webhook-sender.ts';
import { recordNotSent, type AttemptResult, type WebhookDeliveryDeps } from './webhook-attempt.ts';

/** As the signed webhook's: 15 s, redirects not followed. */
export const CHAT_TIMEOUT_MS = 15_000;
export const CHAT_USER_AGENT = 'WebPerf-Alerts/1.0';

/**
 * One attempt at a Slack or Teams delivery (a webhook_deliveries row with destination_id), called by
 * attemptDelivery (services/webhook-delivery.ts) so that it runs on the same paths as the signed webhook: the
 * direct first attempt, the delivery workflow with its schedule, resends and replays, the attempt log. The
 * message is built from the stored chat notice in the destination's format and POSTed to the decrypted URL
 * under the same outbound address rule (core/outbound.ts, checked on the address connected to); it carries no
 * signature and no authentication header (the URL is the credential). 2xx succeeds; 4xx except 408/429 ends
 * the delivery (core/alert-destinations/url.ts chatAnswer), 410 also disables the destination; the rest goes
 * on with the schedule, a Retry-After on 429 and 5xx followed. Logs never carry the URL or the body.
 */
export async function attemptChatDelivery(
  deps: WebhookDeliveryDeps,
  delivery: WebhookDelivery & { destinationId: number },
  final: boolean,
): Promise<AttemptResult> {
  const [destination, owner, notice] = await Promise.all([
    deps.webhooks.findDestination(delivery.destinationId),
    deps.users.findById(delivery.userId),
    deps.webhooks.chatNoticeOf(delivery.id),
  ]);
  const url = destination ? openDestinationUrl(deps.keys, destination) : null;
  const refusal = !destination
    ? 'the alert destination was removed'
    : !owner || !plansWith('webhooks').includes(owner.plan)
      ? 'alert destinations need the Pro plan or higher'
      : destination.disabledAt
        ? 'the alert destination is disabled'
        : !notice
          ? 'the delivery has no message'
          : destinationUrlProblem(url!, deps.allowLoopback)
            ? 'the destination URL is not an https URL'
            : null;
  const now = deps.clock();
  const base = { deliveryId: delivery.id, userId: delivery.userId, destinationId: delivery.destinationId };
  if (refusal) {
    deps.log.info({ ...base, event: delivery.event, reason: refusal }, 'chat alert not sent');
    return recordNotSent(deps, delivery.id, refusal, now);
  }
  const message =
    destination!.kind === 'slack' ? slackMessage(notice!, deps.baseUrl) : teamsMessage(notice!, deps.baseUrl);
  const response = await sendWebhook({
    url: url!,
    headers: { 'content-type': 'application/json', 'user-agent': `${CHAT_USER_AGENT} (+${deps.baseUrl})` },
    body: JSON.stringify(message),
    timeoutMs: deps.timeoutMs ?? CHAT_TIMEOUT_MS,
    allowLoopback: deps.allowLoopback,
    lookup: deps.lookup,
  });

  // Sent: from here nothing throws (an activity retry would post the message again).
  const answer = chatAnswer(response.responseCode);
  const gone = response.responseCode === 410;
  const status: DeliveryStatus =
    answer === 'succeeded' ? 'succeeded' : answer === 'failed' || final ? 'failed' : 'pending';
  const at = deps.clock();
  const key = randomUUID();
  const retry = deps.recordRetry ?? RECORD_RETRY;
  const deadline = Date.now() + retry.budgetMs;
  const logged = (what: string) => (error: unknown, tries: number) =>
    deps.log.warn(
      { ...base, tries, err: error },
      `${what} failed after the chat message was sent; trying again without sending`,
    );
  const recorded = await retriedWrite(
    retry,
    deadline,
    (excerptRefused) =>
      deps.webhooks.recordAttempt(
        {
          key,
          deliveryId: delivery.id,
          attemptedAt: now,
          durationMs: response.durationMs,
          responseCode: response.responseCode,
          responseBody: excerptRefused ? null : response.responseBody,
          error: response.error,
        },
        { status, responseCode: response.responseCode, error: response.error },
        at,
      ),
    logged('recording the attempt'),
  );
  if (!recorded.ok)
    deps.log.warn(
      { ...base, responseCode: response.responseCode, error: response.error, err: recorded.error },
      'chat alert attempt sent but not recorded',
    );
  deps.metrics?.webhookAttempt(answer === 'succeeded' ? 'succeeded' : 'failed');
  if (status !== 'pending') deps.metrics?.webhookDeliveryEnded(status);
  if (answer === 'succeeded') return { outcome: 'succeeded', retryAfterMs: null };
  deps.log.warn(
    {
      ...base,
      kind: destination!.kind,
      event: delivery.event,
      attempt: delivery.webhookAttempts + 1,
      responseCode: response.responseCode,
      error: response.error,
      final: status !== 'pending',
    },
    'chat alert attempt failed',
  );
  if (gone) {
    const disabled = await retriedWrite(
      retry,
      deadline,
      () => deps.webhooks.disableDestination(delivery.destinationId, 'gone', at),
      logged('disabling the destination'),
    );
    if (disabled.ok && disabled.value)
      deps.log.warn(
        { ...base, kind: destination!.kind, reason: 'the service answered 410 Gone' },
        'alert destination disabled',
      );
    return { outcome: 'gone', retryAfterMs: null };
  }
  if (status !== 'pending') return { outcome: 'failed', retryAfterMs: null };
  const code = response.responseCode;
  const retryAfterMs = code !== null && (code === 429 || code >= 500) ? parseRetryAfter(response.retryAfter, at) : null;
  return { outcome: 'retry', retryAfterMs };
}
