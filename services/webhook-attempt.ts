import { randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock.ts';
import type { Keyring } from '../core/keys.ts';
import type { AttemptOutcomeKind } from '../core/webhooks/delivery.ts';
import type { UserStore } from '../db/store/users.ts';
import type { WebhookStore } from '../db/store/webhooks.ts';
import type { HostLookup } from '../infra/scan-target.ts';
import type { Logger } from '../infra/logger.ts';
import type { WorkerMetrics } from '../infra/worker-metrics.ts';
import type { Mailer } from './mailer.ts';
import type { RecordRetry } from './webhook-recording.ts';

/**
 * What an attempt at a delivery needs and comes to, for both kinds of delivery: the signed webhook
 * (services/webhook-delivery.ts) and the Slack or Teams message (services/chat-delivery.ts).
 */

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
  /** How recording after a send is retried (RECORD_RETRY unless a test shortens it). */
  recordRetry?: RecordRetry;
}

/** What one attempt came to: `retry` while the schedule goes on (with the receiver's Retry-After on 429/503). */
export interface AttemptResult {
  outcome: AttemptOutcomeKind;
  retryAfterMs: number | null;
}

/**
 * A delivery refused before anything was sent (`refusal` says why): the attempt is recorded with
 * `not sent: <refusal>` and the delivery ends failed; nothing is retried.
 */
export async function recordNotSent(
  deps: WebhookDeliveryDeps,
  deliveryId: number,
  refusal: string,
  now: Date,
): Promise<AttemptResult> {
  await deps.webhooks.recordAttempt(
    {
      key: randomUUID(),
      deliveryId,
      attemptedAt: now,
      durationMs: 0,
      responseCode: null,
      responseBody: null,
      error: `not sent: ${refusal}`,
    },
    { status: 'failed', responseCode: null, error: `not sent: ${refusal}` },
    now,
  );
  deps.metrics?.webhookAttempt('not_sent');
  deps.metrics?.webhookDeliveryEnded('not_sent');
  return { outcome: 'not_sent', retryAfterMs: null };
}
